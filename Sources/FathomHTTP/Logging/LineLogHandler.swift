import Logging

/// A log handler that renders each event as one line — `level message key=value …`, keys sorted — and hands it to
/// `write`.
///
/// ``LogRecorder`` keeps the lines in memory; Fathom's REPL writes them to its wire log (through the `Fathom` SPI: not
/// part of the library's API).
@_spi(Fathom) public struct LineLogHandler: LogHandler {
    private let write: @Sendable (String) -> Void
    /// Metadata every event carries.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level written.
    public var logLevel: Logger.Level = .trace

    /// - Parameter write: Receives each line, without a newline.
    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// One item of ``metadata``.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the event as one line.
    public func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        write("\(event.level) \(event.message) \(fields)")
    }
}
