import Synchronization

/// Holds what arrives in the background (a WebSocket's messages) while a line that opened a
/// conversation runs, and hands it back once that line's own output is shown: the greeting a
/// server sends at once never comes before the `ws` line that opened it.
final class BackgroundGate: Sendable {
    private struct State {
        var closed = false
        var held: [Output] = []
    }

    private let state = Mutex(State())

    /// Holds from now on.
    func close() {
        state.withLock { $0.closed = true }
    }

    /// Keeps `output` when the gate is closed; `false` when it is open and the caller shows it.
    func hold(_ output: Output) -> Bool {
        state.withLock { state in
            guard state.closed else { return false }
            state.held.append(output)
            return true
        }
    }

    /// Opens the gate and returns what it held, in order.
    func open() -> [Output] {
        state.withLock { state in
            state.closed = false
            defer { state.held = [] }
            return state.held
        }
    }
}
