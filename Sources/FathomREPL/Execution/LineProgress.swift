import Foundation
import Synchronization

/// How far a running batch has come, written by the executor as results arrive and read by the
/// terminal's ``SlowLineNotice`` five times a second: a count, a rate and errors, never garbling
/// the prompt, and never shown to a script.
final class LineProgress: Sendable {
    struct Counts: Sendable, Equatable {
        var done = 0
        /// The batch's size, when it has one (not with a duration alone).
        var total: Int?
        var errors = 0
        var start: ContinuousClock.Instant
    }

    private let state = Mutex<Counts?>(nil)

    /// A batch starts now.
    func start(total: Int?) {
        state.withLock { $0 = Counts(total: total, start: .now) }
    }

    func update(done: Int, errors: Int) {
        state.withLock { counts in
            counts?.done = done
            counts?.errors = errors
        }
    }

    /// The batch is over: nothing to show.
    func finish() {
        state.withLock { $0 = nil }
    }

    var current: Counts? { state.withLock { $0 } }
}
