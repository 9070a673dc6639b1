@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation
import Histogram

/// What a batch (`send --repeat`, `get /x --repeat 100 -c 10`) came to: one entry in the
/// history, shown by its renderers, read by `inspect` and `expect batch` as ``json``.
struct BatchSummary: Sendable {
    /// Latencies at the percentiles the summary shows.
    struct Latencies: Sendable, Equatable {
        var min: Duration
        var p50: Duration
        var p90: Duration
        var p99: Duration
        var p999: Duration
        var max: Duration
        var mean: Duration

        init?(_ histogram: Histogram<UInt64>) {
            guard histogram.totalCount > 0 else { return nil }
            func at(_ percentile: Double) -> Duration { .microseconds(histogram.valueAtPercentile(percentile)) }
            min = .microseconds(histogram.min)
            p50 = at(50)
            p90 = at(90)
            p99 = at(99)
            p999 = at(99.9)
            max = .microseconds(histogram.max)
            mean = .microseconds(Int64(histogram.mean.rounded()))
        }

        /// By the names `expect batch` and the JSON use.
        var named: [(name: String, value: Duration)] {
            [("min", min), ("p50", p50), ("p90", p90), ("p99", p99), ("p999", p999), ("max", max), ("mean", mean)]
        }
    }

    /// Responses with one status and one body.
    struct BodyClass: Sendable {
        var status: Int
        var count: Int
        /// The first response of the class, as it came.
        var response: NetworkResponse<Data>
        /// Its body as JSON without the volatile fields, when it is JSON.
        var json: JSON?
        /// The class against the largest, when both are JSON and this is not the largest.
        var diff: JSONDiff?

        /// The body as text when it is text (or empty), else its size.
        var bodyText: String {
            let body = response.body
            if body.isEmpty { return "" }
            if let text = BodyText.decode(body, contentType: response.contentType) { return text }
            return "(\(ByteCount.format(body.count)) binary)"
        }
    }

    /// Failures of one kind.
    struct Errors: Sendable {
        var kind: String
        var count: Int
        /// The first of them, as the error line words it.
        var first: NetworkError
    }

    /// How the batch ended.
    enum Ending: Sendable, Equatable {
        case finished
        /// Ctrl-C: `abandoned` requests were in flight.
        case cancelled(abandoned: Int)
        /// Making request `index` failed (a data row without a column…): none was sent after it.
        case stopped(index: Int, reason: String)
    }

    var number: Int
    var method: String
    /// The request's URL as lists show it (``Executor/shownPath(_:)``), of the first request.
    var shownPath: String
    var options: BatchOptions
    var ending: Ending
    var sent: Int
    var completed: Int
    var elapsed: Duration
    /// Statuses by code, ascending.
    var statuses: [(code: Int, count: Int)]
    /// A status's own name where it is not HTTP's (a gRPC batch's `NOT_FOUND` for 404).
    var reasons: [Int: String] = [:]
    var errors: [Errors]
    var latency: Latencies?
    var firstByte: Latencies?
    /// With a rate: the latest a request started after its time on the schedule.
    var maxLag: Duration?
    /// Largest first.
    var classes: [BodyClass]
    /// Responses in classes past the tally's limit, counted only.
    var unclassified: Int

    init(
        number: Int, method: String, shownPath: String, options: BatchOptions, end: BatchEnd, elapsed: Duration,
        tally: BatchTally
    ) {
        self.number = number
        self.method = method
        self.shownPath = shownPath
        self.options = options
        self.elapsed = elapsed
        sent = end.sent
        completed = tally.completed
        switch end {
        case .finished: ending = .finished
        case .cancelled(_, let abandoned): ending = .cancelled(abandoned: abandoned)
        case .stopped(_, let index, let error):
            ending = .stopped(index: index, reason: (error as? CommandError)?.message ?? "\(error)")
        }
        statuses = tally.statuses.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        reasons = tally.reasons
        errors = tally.errors.sorted {
            $0.value.count > $1.value.count || ($0.value.count == $1.value.count && $0.key < $1.key)
        }
        .map { Errors(kind: $0.key, count: $0.value.count, first: $0.value.first) }
        latency = Latencies(tally.latency)
        firstByte = Latencies(tally.firstByte)
        maxLag = tally.fromSchedule ? tally.maxLag : nil
        unclassified = tally.unclassified
        let sorted = tally.classes.enumerated().sorted {
            $0.element.count > $1.element.count || ($0.element.count == $1.element.count && $0.offset < $1.offset)
        }.map(\.element)
        let largest = sorted.first?.json
        let ignore = tally.volatile
        classes = sorted.enumerated().map { index, tallied in
            var diff: JSONDiff?
            if index > 0, let largest, let json = tallied.json {
                diff = JSONDiff(from: largest, to: json, options: JSONDiff.Options(ignore: ignore))
            }
            return BodyClass(
                status: tallied.status, count: tallied.count, response: tallied.response, json: tallied.json, diff: diff
            )
        }
    }

    /// Whether the schedule of a rate could not be kept: fewer sent than planned (and it was not
    /// cancelled or stopped), or a request started later than a tenth of a second — or one period
    /// of the rate, when that is longer — after its time.
    var scheduleSlipped: Bool {
        guard let rate = options.rate else { return false }
        if case .finished = ending, let planned = options.planned, sent < planned { return true }
        let allowed = max(Duration.milliseconds(100), .seconds(1 / max(rate, 1e-9)))
        return (maxLag ?? .zero) > allowed
    }

    /// Requests per second that completed.
    var rate: Double {
        elapsed.seconds > 0 ? Double(completed) / elapsed.seconds : 0
    }

    var errorCount: Int { errors.reduce(0) { $0 + $1.count } }

    /// How many responses had a status `pattern` matches.
    func count(matching pattern: StatusPattern) -> Int {
        statuses.filter { pattern.matches($0.code) }.reduce(0) { $0 + $1.count }
    }
}

extension BatchSummary {
    /// The summary as a JSON document: what `inspect #N` and `let` read and `--output json`
    /// prints (with its `type` and `version`). Durations are milliseconds.
    ///
    /// ```
    /// {"number": 4, "request": {"method": "POST", "url": "/accounts/1/withdraw"},
    ///  "sent": 50, "completed": 50, "durationMs": 412.5, "rate": 121.2, "ending": "finished",
    ///  "status": {"200": 3, "409": 47}, "errors": {}, "latency": {"min": …, "p50": …, …},
    ///  "firstByte": {…}, "classes": [{"status": 409, "count": 47, "body": {…}}, …]}
    /// ```
    var json: JSON {
        func member(_ key: String, _ value: JSON) -> JSON.Member { JSON.Member(key: key, value: value) }
        func integer(_ value: Int) -> JSON { .number(String(value)) }
        func milliseconds(_ duration: Duration) -> JSON { .number(JSONOutputRenderer.milliseconds(duration)) }
        func latencies(_ values: Latencies?) -> JSON {
            guard let values else { return .null }
            return .object(values.named.map { member($0.name, milliseconds($0.value)) })
        }
        var ending: [JSON.Member]
        switch self.ending {
        case .finished: ending = [member("ending", .string("finished"))]
        case .cancelled(let abandoned):
            ending = [member("ending", .string("cancelled")), member("abandoned", integer(abandoned))]
        case .stopped(let index, let reason):
            ending = [
                member("ending", .string("stopped")), member("stoppedAt", integer(index)),
                member("reason", .string(reason)),
            ]
        }
        let classes: [JSON] = self.classes.map { bodyClass in
            var members = [member("status", integer(bodyClass.status)), member("count", integer(bodyClass.count))]
            if let json = bodyClass.json {
                members.append(member("body", json))
            } else {
                members.append(member("body", .string(bodyClass.bodyText)))
            }
            if let diff = bodyClass.diff { members.append(member("diff", diff.summaryJSON)) }
            return .object(members)
        }
        var schedule: [JSON.Member] = []
        if let maxLag {
            // Latency counts from the schedule; these say how well it was kept.
            if let planned = options.planned { schedule.append(member("planned", integer(planned))) }
            schedule.append(member("maxLagMs", milliseconds(maxLag)))
            schedule.append(member("scheduleSlipped", .bool(scheduleSlipped)))
        }
        var plan: [JSON.Member] = []
        if let count = options.count { plan.append(member("repeat", integer(count))) }
        plan.append(member("concurrency", integer(options.maxConcurrent)))
        if let duration = options.duration { plan.append(member("durationMs", milliseconds(duration))) }
        if let rate = options.rate { plan.append(member("rate", .number(Self.decimal(rate)))) }
        if let data = options.data { plan.append(member("data", .string(data))) }
        return .object(
            [
                member("number", integer(number)),
                member("request", .object([member("method", .string(method)), member("url", .string(shownPath))])),
                member("plan", .object(plan)),
                member("sent", integer(sent)),
                member("completed", integer(completed)),
                member("durationMs", milliseconds(elapsed)),
                member("rate", .number(Self.decimal(rate))),
            ] + ending + schedule + [
                member("status", .object(statuses.map { member(String($0.code), integer($0.count)) })),
                member("errors", .object(errors.map { member($0.kind, integer($0.count)) })),
                member("latency", latencies(latency)),
                member("firstByte", latencies(firstByte)),
                member("classes", .array(classes)),
                member("unclassified", integer(unclassified)),
            ])
    }

    /// A number as JSON text with at most three decimals.
    static func decimal(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }
}

extension BatchSummary: Exchange {
    func document() -> JSON { json }

    var listed: String { "batch \(method) \(shownPath) × \(completed)" }

    func notAResponse(last: Bool) -> CommandError {
        let requests = "\(completed) request\(completed == 1 ? "" : "s")"
        return CommandError(
            .session,
            last
                ? "the last entry is batch #\(number) (\(requests)), not one response"
                : "#\(number) is a batch of \(requests), not one response",
            hint: "`expect batch p99 < 200ms` checks it; `inspect #\(number) $.latency` reads its summary")
    }
}
