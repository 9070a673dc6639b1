/// Why a gRPC target could not be read, a connection made or a reflection answer understood.
///
/// One line. What a server answers a call with is a ``GRPCStatus``, not this.
public struct GRPCError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as one line.
    public let message: String

    /// Makes an error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
