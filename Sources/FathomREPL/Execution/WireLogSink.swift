@_spi(Fathom) import FathomHTTP
import Foundation
import Logging
import Synchronization

/// Where the wire log goes: standard error, or appended to a file. Each line starts with the
/// time; the library has already masked the data, and the line is masked once more as a whole.
///
/// A write that fails (a full disk, `/dev/full`, a file removed from under it) never ends the
/// session: the sink stops writing and says why in ``WireLogHealth``, and the executor turns the
/// log off with one warning after the line that was running.
struct WireLogSink: Sendable {
    let file: String?
    let redactor: Redactor
    let health: WireLogHealth

    func logger() -> Logger {
        let sink = self
        return Logger(label: "fathom.wire") { _ in LineLogHandler { sink.write($0) } }
    }

    private func write(_ line: String) {
        guard health.failure == nil else { return }
        let time = Date().formatted(.iso8601.time(includingFractionalSeconds: true))
        let text = redactor.redact("\(time) \(line)\n")
        guard let file else {
            // Headers and bodies from the server, on the terminal: their control characters visible.
            if let code = StandardStreams.write(TerminalText.visible(text), to: STDERR_FILENO) {
                health.fail("standard error", code)
            }
            return
        }
        let descriptor = open(file, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard descriptor >= 0 else { return health.fail(file, errno) }
        defer { close(descriptor) }
        if let code = StandardStreams.write(text, to: descriptor) { health.fail(file, code) }
    }
}

/// Whether the wire log could be written; shared between the sink (on the client's threads) and
/// the executor.
final class WireLogHealth: Sendable {
    private let state = Mutex<String?>(nil)

    /// Why the log stopped, once it has.
    var failure: String? { state.withLock { $0 } }

    func fail(_ destination: String, _ code: Int32) {
        let reason = String(cString: strerror(code)).lowercased()
        state.withLock { $0 = $0 ?? "the wire log cannot be written to \(destination): \(reason)" }
    }

    /// The failure, forgotten: the log starts afresh when it is turned on again.
    func take() -> String? {
        state.withLock { failure in
            defer { failure = nil }
            return failure
        }
    }
}
