import NIOCore
import Synchronization

/// Enforces total deadlines on response bodies for every request of a transport with one shared
/// monitor, instead of a timer per request.
///
/// AsyncHTTPClient's deadline stops applying once the response head has arrived. A body is
/// therefore collected in a child task that registers here; the monitor, which runs only while
/// bodies are being collected, checks every few milliseconds and cancels the child tasks whose
/// deadline has passed. Cancellation happens under the lock that unregistering takes, so a task is
/// never cancelled after it has finished.
final class BodyDeadlines: Sendable {
    /// Whether the running task does nothing but send one request, so that the deadline may
    /// cancel it whole (set by ``NetworkClient/send(_:isolation:through:makeRequest:handle:)`` for each
    /// request of a batch).
    @TaskLocal static var ownsTask = false

    /// How late a timeout may fire at most.
    static let resolution: Duration = .milliseconds(10)

    /// Whether a watched body ran out of time.
    final class Watch: Sendable {
        fileprivate let id: Int
        private let expired = Atomic(false)
        fileprivate init(id: Int) { self.id = id }
        var hasExpired: Bool { expired.load(ordering: .acquiring) }
        fileprivate func expire() { expired.store(true, ordering: .releasing) }
    }

    private struct Entry {
        let deadline: NIODeadline
        let watch: Watch
        let task: UnsafeTask
    }

    /// The child task to cancel; only touched under the lock while the task is registered.
    private struct UnsafeTask: @unchecked Sendable {
        let task: UnsafeCurrentTask?
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
        var monitorRunning = false
    }

    private let state = Mutex(State())

    /// Runs `body` in a child task that is cancelled at `deadline`.
    ///
    /// - Returns: What `body` returned, or `nil` when the deadline passed first.
    func run<T: Sendable>(
        until deadline: NIODeadline, _ body: @escaping @Sendable () async throws -> T
    )
        async throws -> T?
    {
        do {
            // A task that only sends this request (one of a batch) is itself cancelled at the
            // deadline: a child task for the body would cost a task and a hop per request.
            if Self.ownsTask { return try await watched(deadline, body) }
            async let result: T = watched(deadline, body)
            return try await result
        } catch is DeadlineExceeded {
            return nil
        }
    }

    private func watched<T: Sendable>(_ deadline: NIODeadline, _ body: @Sendable () async throws -> T) async throws -> T
    {
        let watch = register(deadline)
        defer { unregister(watch) }
        do {
            return try await body()
        } catch  where watch.hasExpired {
            throw DeadlineExceeded()
        }
    }

    /// Thrown by a watched body whose deadline passed.
    struct DeadlineExceeded: Error {}

    private func register(_ deadline: NIODeadline) -> Watch {
        let task = withUnsafeCurrentTask { UnsafeTask(task: $0) }
        let (watch, startMonitor) = state.withLock { state -> (Watch, Bool) in
            let watch = Watch(id: state.nextID)
            state.nextID += 1
            state.entries[watch.id] = Entry(deadline: deadline, watch: watch, task: task)
            let start = !state.monitorRunning
            state.monitorRunning = true
            return (watch, start)
        }
        if startMonitor {
            Task { await self.monitor() }
        }
        return watch
    }

    private func unregister(_ watch: Watch) {
        state.withLock { _ = $0.entries.removeValue(forKey: watch.id) }
    }

    private func monitor() async {
        while true {
            try? await Task.sleep(for: Self.resolution)
            let keepRunning = state.withLock { state -> Bool in
                let now = NIODeadline.now()
                for (id, entry) in state.entries where entry.deadline <= now {
                    entry.watch.expire()
                    entry.task.task?.cancel()
                    state.entries[id] = nil
                }
                if state.entries.isEmpty {
                    state.monitorRunning = false
                    return false
                }
                return true
            }
            if !keepRunning { return }
        }
    }
}
