import Synchronization

/// A value behind a lock that tests can share between tasks and closures (a `Mutex` cannot be
/// captured by escaping closures or stored in tuples, being non-copyable).
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) {
        mutex = Mutex(value)
    }

    public func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }

    public var value: Value { mutex.withLock { $0 } }
}

extension Locked where Value == Int {
    /// Adds one and returns the new count.
    @discardableResult
    public func increment() -> Int {
        withLock { value in
            value += 1
            return value
        }
    }
}
