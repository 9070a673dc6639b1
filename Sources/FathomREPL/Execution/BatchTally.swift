@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation
import Histogram

/// What a batch came to so far, kept in bounded memory whatever its size: counts by status and
/// by kind of error, latencies in HdrHistograms, and the responses grouped into classes by
/// status and body — a body kept once per class, never per request.
struct BatchTally {
    /// A group of responses with the same status and the same body (volatile fields left out).
    struct BodyClass {
        var status: Int
        var count: Int
        /// The first response of the class.
        var response: NetworkResponse<Data>
        /// Its body as JSON without the volatile fields, when it is JSON.
        var json: JSON?
    }

    /// A class's identity: its status and its body, as canonical JSON or as bytes.
    private enum BodyKey: Hashable {
        case json(JSON)
        case bytes(Data)
    }

    private struct ClassKey: Hashable {
        var status: Int
        var body: BodyKey
    }

    private struct RawKey: Hashable {
        var status: Int
        var body: Data
    }

    /// Classes past this many are counted, not kept: a body that differs on every request (a
    /// timestamp not marked `volatile`) must not grow the tally without bound.
    static let classLimit = 50
    /// Distinct raw bodies remembered, so that the same bytes are parsed once.
    static let rawLimit = 4096
    /// Latencies are recorded in microseconds, up to an hour.
    static let highestLatency: UInt64 = 3_600_000_000

    let volatile: [JSONPath]
    private(set) var responses = 0
    private(set) var statuses: [Int: Int] = [:]
    /// Each status's name as the answers gave it, when ``keepsReasons`` (a gRPC batch's: `404`
    /// is `NOT_FOUND` there); HTTP's standard reason phrases otherwise.
    private(set) var reasons: [Int: String] = [:]
    var keepsReasons = false
    /// By kind (``errorKind(_:)``): how many, and the first such error.
    private(set) var errors: [String: (count: Int, first: NetworkError)] = [:]
    private(set) var latency = Histogram<UInt64>(
        highestTrackableValue: BatchTally.highestLatency, numberOfSignificantValueDigits: .three)
    private(set) var firstByte = Histogram<UInt64>(
        highestTrackableValue: BatchTally.highestLatency, numberOfSignificantValueDigits: .three)
    private(set) var classes: [BodyClass] = []
    /// Responses in classes past ``classLimit``.
    private(set) var unclassified = 0
    /// With a rate: latency counts from each request's time on the schedule, not its actual start.
    let fromSchedule: Bool
    /// The latest any request started after its time on the schedule.
    private(set) var maxLag = Duration.zero
    private var classIndex: [ClassKey: Int] = [:]
    private var rawIndex: [RawKey: Int] = [:]

    init(volatile: [JSONPath], fromSchedule: Bool = false) {
        self.volatile = volatile
        self.fromSchedule = fromSchedule
    }

    var errorCount: Int { errors.values.reduce(0) { $0 + $1.count } }
    var completed: Int { responses + errorCount }

    mutating func add(_ result: BatchResult) {
        // On a schedule, a request that starts late was waiting: that wait is latency too
        // (coordinated omission otherwise hides a stalled server behind the requests it delayed).
        latency.record(Self.microseconds(fromSchedule ? result.elapsed + result.lag : result.elapsed))
        maxLag = max(maxLag, result.lag)
        switch result.result {
        case .success(let response):
            responses += 1
            statuses[response.status.code, default: 0] += 1
            if keepsReasons, reasons[response.status.code] == nil {
                reasons[response.status.code] = response.status.reasonPhrase
            }
            firstByte.record(Self.microseconds(response.timing.firstByte))
            classify(response)
        case .failure(let error):
            let kind = Self.errorKind(error)
            if let known = errors[kind] {
                errors[kind] = (known.count + 1, known.first)
            } else {
                errors[kind] = (1, error)
            }
        }
    }

    private mutating func classify(_ response: NetworkResponse<Data>) {
        let status = response.status.code
        let raw = RawKey(status: status, body: response.body)
        if let index = rawIndex[raw] {
            classes[index].count += 1
            return
        }
        var json = response.body.isEmpty ? nil : try? JSON(parsing: response.body)
        if let parsed = json { json = Self.canonical(removingVolatile(parsed)) }
        let key = ClassKey(status: status, body: json.map(BodyKey.json) ?? .bytes(response.body))
        if let index = classIndex[key] {
            classes[index].count += 1
            if rawIndex.count < Self.rawLimit { rawIndex[raw] = index }
            return
        }
        guard classes.count < Self.classLimit else {
            unclassified += 1
            return
        }
        classIndex[key] = classes.count
        if rawIndex.count < Self.rawLimit { rawIndex[raw] = classes.count }
        classes.append(BodyClass(status: status, count: 1, response: response, json: json))
    }

    /// `document` without what the volatile paths select.
    private func removingVolatile(_ document: JSON) -> JSON {
        guard !volatile.isEmpty else { return document }
        // Deepest first, and later array elements before earlier ones: each removal leaves the
        // paths still to remove as they were.
        let paths = volatile.flatMap { $0.query(document).map(\.path) }
            .filter { !$0.components.isEmpty }
            .sorted { Self.precedes($1, $0) }
        var result = document
        for path in paths {
            if let removed = try? JSONPatch([.remove(JSONPointer(path))]).apply(to: result) { result = removed }
        }
        return result
    }

    /// Paths in document order, an index by its number: sorted the other way, a path comes
    /// after those under it and after later elements of its array.
    private static func precedes(_ a: NormalizedPath, _ b: NormalizedPath) -> Bool {
        for (x, y) in zip(a.components, b.components) where x != y {
            switch (x, y) {
            case (.index(let i), .index(let j)): return i < j
            case (.name(let m), .name(let n)): return m < n
            case (.index, .name): return true
            case (.name, .index): return false
            }
        }
        return a.components.count < b.components.count
    }

    /// The same value with every object's members in key order, so that member order never
    /// makes two classes of one body.
    static func canonical(_ value: JSON) -> JSON {
        switch value {
        case .object(let members):
            .object(
                members.map { JSON.Member(key: $0.key, value: canonical($0.value)) }
                    .sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) })
        case .array(let elements): .array(elements.map(canonical))
        default: value
        }
    }

    static func microseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        let value = max(0, seconds) * 1_000_000 + max(0, attoseconds) / 1_000_000_000_000
        return min(UInt64(value), highestLatency)
    }

    /// A short name for what kind of failure `error` is, as the summary groups them.
    static func errorKind(_ error: NetworkError) -> String {
        switch error {
        case .connectionRefused: "refused"
        case .timeout(.connect, _): "connect timeout"
        case .timeout: "timeout"
        case .connectionClosed: "reset"
        case .tls: "tls"
        case .dnsFailure: "dns"
        case .tooManyRedirects: "redirects"
        case .bodyTooLarge: "too large"
        case .invalidURL, .invalidRequest: "invalid request"
        case .cancelled: "cancelled"
        case .file: "file"
        case .noMock: "no mock"
        case .httpStatus, .decodingFailed, .transport: "other"
        }
    }
}
