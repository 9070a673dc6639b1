import Foundation
import Logging
import Synchronization

/// Keeps every log event in memory, rendered as one line of text with all its metadata.
///
/// For tests that check what a client logs (for example that no secret is in it), and for showing
/// a wire log inside a program: `NetworkClient(logger: recorder.logger(), logDetail: .headers)`.
/// Not API: Fathom's tour and tests use it (`@_spi(Fathom)`); a program keeps its own log handler.
@_spi(Fathom) public final class LogRecorder: Sendable {
    private let storage = Mutex<[String]>([])

    /// An empty recorder.
    public init() {}

    /// A logger whose events land here.
    public func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "fathom.recorder") { _ in LineLogHandler { self.append($0) } }
        logger.logLevel = level
        return logger
    }

    /// Everything logged so far, one line per event: `level message key=value …`.
    public var lines: [String] { storage.withLock { $0 } }

    /// ``lines`` joined with newlines.
    public var text: String { lines.joined(separator: "\n") }

    /// How many events were logged.
    public var count: Int { storage.withLock { $0.count } }

    fileprivate func append(_ line: String) {
        storage.withLock { $0.append(line) }
    }
}
