import Foundation

/// What to do after a failed attempt.
public enum RetryDecision: Hashable, Sendable {
    case retry(after: Duration)
    case doNotRetry
}

/// Retries idempotent requests on connection errors and on 502, 503 and 504, with exponential
/// backoff and jitter, honouring `Retry-After`
/// ([RFC 9110 §10.2.3](https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3)).
///
/// Attempt *n* (from 1) waits a random time between half and all of `baseDelay × 2ⁿ⁻¹`, at most
/// `maxDelay`. A `Retry-After` within `maxDelay` replaces that wait; a longer one is not waited for —
/// the response is returned. Non-idempotent methods (`POST`, `PATCH`) are never retried.
public struct RetryPolicy: Interceptor {
    /// How many times a request is sent at most, the first time included.
    ///
    /// 3 by default.
    public var maxAttempts: Int
    /// The wait before the first retry, before jitter.
    ///
    /// 200 ms by default.
    public var baseDelay: Duration
    /// The longest wait.
    ///
    /// 10 s by default.
    public var maxDelay: Duration
    /// Statuses that are retried.
    ///
    /// 502, 503 and 504 by default.
    public var retryableStatuses: Set<Int>
    /// How waiting is done; `Task.sleep` by default (tests replace it).
    public var sleep: @Sendable (Duration) async throws -> Void

    /// A policy; every part has the default its property states.
    public init(
        maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(10),
        retryableStatuses: Set<Int> = [502, 503, 504],
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        precondition(maxAttempts >= 1, "maxAttempts must be at least 1")
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.retryableStatuses = retryableStatuses
        self.sleep = sleep
    }

    /// Sends the request, again after a back-off while it fails in a way the policy retries.
    public func intercept(_ request: PreparedRequest, next: @escaping Next) async throws -> NetworkResponse<Data> {
        var attempt = 1
        while true {
            let outcome: Result<NetworkResponse<Data>, any Error>
            do {
                outcome = .success(try await next(request))
            } catch {
                outcome = .failure(error)
            }
            switch decision(for: request, outcome: outcome, attempt: attempt) {
            case .doNotRetry:
                return try outcome.get()
            case .retry(let delay):
                try await sleep(delay)
                attempt += 1
            }
        }
    }

    /// Whether attempt number `attempt` (from 1) should be followed by another, and after how long.
    public func decision(
        for request: PreparedRequest, outcome: Result<NetworkResponse<Data>, any Error>, attempt: Int
    ) -> RetryDecision {
        guard attempt < maxAttempts, request.method.isIdempotent else { return .doNotRetry }
        switch outcome {
        case .success(let response):
            guard retryableStatuses.contains(response.status.code) else { return .doNotRetry }
            if let retryAfter = response.headers[.retryAfter] {
                guard let wait = Self.parseRetryAfter(retryAfter, now: Date()) else {
                    return .retry(after: backoff(attempt))
                }
                return wait <= maxDelay ? .retry(after: wait) : .doNotRetry
            }
            return .retry(after: backoff(attempt))
        case .failure(let error):
            guard let error = error as? NetworkError, error.isTransient else { return .doNotRetry }
            return .retry(after: backoff(attempt))
        }
    }

    /// The jittered wait after attempt `attempt`.
    func backoff(_ attempt: Int) -> Duration {
        let exponential = baseDelay * (1 << min(attempt - 1, 30))
        let capped = min(exponential, maxDelay)
        let half = capped / 2
        return half + half * Double.random(in: 0...1)
    }

    /// Parses `Retry-After` as seconds or an HTTP date.
    static func parseRetryAfter(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingWhitespace()
        if let seconds = Int(trimmed), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
    }
}

extension Interceptor where Self == RetryPolicy {
    /// Retries idempotent requests on connection errors and 502/503/504; see ``RetryPolicy``.
    public static func retry(maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(200)) -> RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, baseDelay: baseDelay)
    }
}
