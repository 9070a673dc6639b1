import Foundation
import Logging
import Synchronization

/// Keeps every log event in memory, rendered as text with all its metadata, so a test can search
/// what would have been printed.
public final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    /// A logger whose events land here.
    public func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "fathom.test") { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    /// Everything logged so far, one line per event.
    public var text: String { lines.withLock { $0.joined(separator: "\n") } }

    public var count: Int { lines.withLock { $0.count } }

    fileprivate func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.append("\(event.level) \(event.message) \(fields)")
        }
    }
}
