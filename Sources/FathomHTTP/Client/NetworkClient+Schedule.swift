import Foundation

/// How a scheduled batch sends: how many requests, for how long, how fast, how many at once.
///
/// With neither a count nor a duration the batch sends one request. With both, it stops at
/// whichever comes first.
public struct BatchPlan: Hashable, Sendable {
    /// The most requests to send; `nil` for no limit but the duration.
    public var count: Int?
    /// How long to start new requests for; `nil` for no limit but the count.
    public var duration: Duration?
    /// Requests started per second, on a fixed schedule (request *i* starts at *i* / rate);
    /// `nil` to start each as soon as a place in flight is free.
    public var rate: Double?
    /// The most requests in flight at once, at least 1.
    public var maxConcurrent: Int

    /// A plan; see the properties.
    public init(count: Int? = nil, duration: Duration? = nil, rate: Double? = nil, maxConcurrent: Int = 1) {
        self.count = count
        self.duration = duration
        // A rate that is no number of requests a second is no rate.
        self.rate = rate.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        self.maxConcurrent = max(1, maxConcurrent)
    }

    /// Whether request `index` may start `elapsed` into the batch.
    func allows(_ index: Int, after elapsed: Duration) -> Bool {
        if let count, index >= count { return false }
        if count == nil, duration == nil { return index == 0 }
        if let duration, elapsed >= duration { return false }
        return true
    }

    /// When request `index` is due, from the batch's start; `nil` without a rate.
    func due(_ index: Int) -> Duration? {
        // At most a century away: a very slow rate never overflows the clock.
        rate.map { .nanoseconds(Int64(min(Double(index) / $0, 3.15e9) * 1e9)) }
    }
}

/// One request of a scheduled batch, done.
public struct BatchResult: Sendable {
    /// The request's place in the batch, from 0.
    public var index: Int
    /// The response, or why there is none.
    public var result: Result<NetworkResponse<Data>, NetworkError>
    /// From the request starting to its result: its latency, whether or not a response came.
    public var elapsed: Duration
    /// How late the request started after its time on the plan's schedule.
    ///
    /// With `elapsed`, its latency as the schedule saw it (wrk2's and vegeta's measure). Zero
    /// without a rate.
    public var lag: Duration = .zero
}

/// How a scheduled batch ended.
public enum BatchEnd: Sendable {
    /// Every request the plan asked for was sent and answered (or failed).
    case finished(sent: Int)
    /// The calling task was cancelled: `sent` requests had started, `abandoned` of them were
    /// still in flight and are not among the results.
    case cancelled(sent: Int, abandoned: Int)
    /// Making request `index` threw `error`: none was started after it; those in flight ended.
    case stopped(sent: Int, index: Int, error: any Error)

    /// How many requests started.
    public var sent: Int {
        switch self {
        case .finished(let sent), .cancelled(let sent, _), .stopped(let sent, _, _): sent
        }
    }
}

extension NetworkClient {
    /// Opens the connections a batch of requests like `request` will use, before its clock starts.
    ///
    /// As many as `plan` keeps in flight (or sends, when fewer). Call it just before
    /// ``send(_:isolation:through:makeRequest:handle:)`` so that the batch's first requests
    /// do not each wait for a handshake. A transport that makes connections only as requests
    /// need them ignores it; a failure is met by the requests.
    public func openConnections(for request: PreparedRequest, plan: BatchPlan) async {
        let count = min(plan.maxConcurrent, plan.count ?? plan.maxConcurrent)
        guard count > 1 else { return }
        await transport.openConnections(for: request, count: count)
    }

    /// Sends requests on a plan — a count, a duration, a rate, at most so many in flight — and
    /// hands each result to `handle` as it arrives, so that a batch of any size keeps no
    /// response it does not want.
    ///
    /// `makeRequest` is asked for each request as its turn comes (its index from 0), so each may
    /// differ; returning `nil` ends the batch there (data ran out). Both closures run in the
    /// caller's isolation, one at a time: they may keep state without locks. Cancelling the calling
    /// task cancels every request in flight and starts no more; the results so far have been
    /// handed over, and the end says how many were abandoned.
    ///
    /// ```swift
    /// var statuses: [Int: Int] = [:]
    /// let end = await client.send(BatchPlan(count: 1_000, maxConcurrent: 32)) { index in
    ///     try NetworkRequest.get("/users/\(index)").prepared(baseURL: base)
    /// } handle: { done in
    ///     if case .success(let response) = done.result { statuses[response.status.code, default: 0] += 1 }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - plan: How many, how long, how fast, how many at once.
    ///   - isolation: Where the closures run; the caller's by default.
    ///   - ending: Sends each request in place of the transport, through the interceptors
    ///     (``send(_:through:)``): a batch of another protocol's calls (gRPC's); `nil` sends them.
    ///   - makeRequest: Request `index`, or `nil` to send no more.
    ///   - handle: Each result, in the order they arrive.
    /// - Returns: How the batch ended.
    public func send(
        _ plan: BatchPlan,
        isolation: isolated (any Actor)? = #isolation,
        through ending: Next? = nil,
        makeRequest: (Int) throws -> PreparedRequest?,
        handle: (BatchResult) -> Void
    ) async -> BatchEnd {
        enum Step: Sendable {
            case done(BatchResult)
            /// A request's start time has come (with a rate).
            case due
        }
        let clock = ContinuousClock()
        let start = clock.now
        return await withTaskGroup(of: Step.self, isolation: isolation) { group in
            // Captured, the isolated parameter makes this closure run where the caller runs,
            // and so the caller's closures with it.
            _ = isolation
            var next = 0
            var inFlight = 0
            var waiting = false
            var failure: (index: Int, error: any Error)?
            var exhausted = false

            /// Starts every request the plan allows now.
            func fill() {
                while failure == nil, !exhausted, inFlight < plan.maxConcurrent {
                    let elapsed = clock.now - start
                    guard plan.allows(next, after: elapsed) else { return }
                    if let due = plan.due(next), due > elapsed {
                        if !waiting {
                            waiting = true
                            group.addTask {
                                try? await clock.sleep(until: start + due)
                                return .due
                            }
                        }
                        return
                    }
                    let request: PreparedRequest
                    do {
                        guard let made = try makeRequest(next) else {
                            exhausted = true
                            return
                        }
                        request = made
                    } catch {
                        failure = (next, error)
                        return
                    }
                    let index = next
                    next += 1
                    inFlight += 1
                    let scheduled = plan.due(index).map { start + $0 }
                    group.addTask {
                        let began = ContinuousClock.now
                        let lag = scheduled.map { max(.zero, began - $0) } ?? .zero
                        let result: Result<NetworkResponse<Data>, NetworkError>
                        // This task sends one request and ends: a body's deadline may cancel it.
                        result = await BodyDeadlines.$ownsTask.withValue(true) {
                            await HTTP1Engine.$batched.withValue(true) {
                                do throws(NetworkError) {
                                    if let ending { return .success(try await self.send(request, through: ending)) }
                                    return .success(try await self.send(request))
                                } catch {
                                    return .failure(error)
                                }
                            }
                        }
                        return .done(
                            BatchResult(index: index, result: result, elapsed: ContinuousClock.now - began, lag: lag))
                    }
                }
            }

            fill()
            var cancelled = false
            var abandoned = 0
            while let step = await group.next() {
                switch step {
                case .due:
                    waiting = false
                case .done(let done):
                    inFlight -= 1
                    if cancelled || Task.isCancelled, case .failure(.cancelled) = done.result {
                        abandoned += 1
                    } else {
                        handle(done)
                    }
                }
                if Task.isCancelled {
                    if !cancelled { group.cancelAll() }
                    cancelled = true
                } else {
                    fill()
                }
            }
            if cancelled { return .cancelled(sent: next, abandoned: abandoned) }
            if let failure { return .stopped(sent: next, index: failure.index, error: failure.error) }
            return .finished(sent: next)
        }
    }
}
