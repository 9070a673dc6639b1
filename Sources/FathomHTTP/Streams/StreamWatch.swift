import Foundation
import Synchronization

/// Watches a response's body as it arrives, for a caller that shows a stream while it lasts.
///
/// Carried by the request (``PreparedRequest/watch``): the transport asks ``streams(_:_:)`` when the head arrives,
/// and for a response the watch takes, hands it each chunk as it comes. The body is still
/// collected (up to the transport's size limit), and the send returns when the stream ends — by
/// the server, by ``chunk(_:)`` returning `false`, by the request's timeout or by cancellation —
/// with what arrived: a stream cut short is a response, and ``ending`` says why it ended.
@_spi(Fathom) public final class StreamWatch: Sendable {
    /// Why a watched stream ended.
    public enum Ending: Sendable, Equatable {
        /// The server ended the body.
        case complete
        /// The watch asked to stop (a limit of events reached).
        case stopped
        /// The task was cancelled (Ctrl-C).
        case cancelled
        /// The request's timeout ran out.
        case timedOut
        /// The body passed the transport's size limit: the rest was not read.
        case tooLarge
        /// The connection failed mid-stream.
        case failed(String)
    }

    private let decide: @Sendable (HTTPStatus, NetworkHeaders) -> Bool
    private let receive: @Sendable (Data) -> Bool
    private let ended = Mutex<Ending?>(nil)

    /// - Parameters:
    ///   - streams: Whether to watch a response with this status and these headers.
    ///   - chunk: Each chunk of a watched body as it arrives; `false` stops reading.
    public init(
        streams: @escaping @Sendable (HTTPStatus, NetworkHeaders) -> Bool,
        chunk: @escaping @Sendable (Data) -> Bool
    ) {
        self.decide = streams
        self.receive = chunk
    }

    /// Whether the response with this head is watched.
    public func streams(_ status: HTTPStatus, _ headers: NetworkHeaders) -> Bool { decide(status, headers) }

    /// Hands over a chunk; whether to go on reading.
    public func chunk(_ data: Data) -> Bool { receive(data) }

    /// Why the watched stream ended; `nil` until one has.
    public var ending: Ending? { ended.withLock { $0 } }

    func end(_ ending: Ending) { ended.withLock { $0 = ending } }
}
