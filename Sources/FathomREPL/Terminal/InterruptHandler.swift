import Dispatch
import Foundation
import Synchronization

/// Ctrl-C outside the line editor (while a command runs): cancels the command in flight.
///
/// SIGINT is ignored as a signal and watched through a `DispatchSource`, whose handler runs on a
/// dispatch queue, not on any actor. With nothing in flight, Ctrl-C ends a script with status 130,
/// as shells expect, and is ignored by an interactive session (it arrived between the line editor
/// and the command: the line editor handles it everywhere else).
final class InterruptHandler {
    /// The command in flight, shared with the signal handler.
    private final class Current: Sendable {
        let cancel = Mutex<(@Sendable () -> Void)?>(nil)
    }

    private let current = Current()
    private let source: any DispatchSourceSignal

    init(exitsWhenIdle: Bool) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: Self.handler(current, exitsWhenIdle: exitsWhenIdle))
        source.resume()
    }

    deinit {
        source.cancel()
    }

    /// Built outside any actor: a handler inferred `@MainActor` would crash at the first Ctrl-C.
    private nonisolated static func handler(_ current: Current, exitsWhenIdle: Bool) -> @Sendable () -> Void {
        { @Sendable in
            let cancel = current.cancel.withLock { $0 }
            if let cancel {
                cancel()
            } else if exitsWhenIdle {
                exit(130)
            }
        }
    }

    /// Runs `operation` as the task Ctrl-C cancels.
    func run<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) async -> Result {
        let task = Task { await operation() }
        current.cancel.withLock { $0 = { task.cancel() } }
        let result = await task.value
        current.cancel.withLock { $0 = nil }
        return result
    }
}
