import FathomHTTP

/// How requests are sent and responses shown.
struct ClientSettings: Equatable, Sendable {
    var decoder: DecoderMode = .auto
    var logDetail: LogDetail = .off
    var logFile: String?
    var timeout: Duration?
    /// The most redirects followed; `nil` returns 3xx responses as they are.
    var redirectLimit: Int? = 5
    var insecure = false
    /// `nil` uses the environment's proxy settings.
    var proxy: String?
    var cookies = true
    var mocks: [MockRoute] = []
    var pager: PagerMode = .auto
    var showHeaders = true
    /// The `validate` mode each API the session names starts with (`validate --default`).
    var defaultValidation = ValidationMode.warn
    /// `stream on`: any chunked response is shown as it arrives, not only the stream types.
    var streamAll = false
    /// `stream limit N`: a stream ends after N events.
    var streamLimit: Int?

    init() {}

    /// A mocked path and what answers it: only requests to the API it was set for.
    struct MockRoute: Equatable, Sendable {
        /// The origin of the API the mock belongs to.
        var origin: Origin
        var path: String
        var status: Int
        /// A file whose contents answer, or `nil` for an empty body.
        var file: String?
    }
}

/// A setting that is shown, set, or turned off.
enum Setting<Value: Equatable & Sendable>: Equatable, Sendable {
    case show
    case set(Value)
    case off
}

enum DecoderMode: String, CaseIterable, Equatable, Sendable {
    case auto, json, text, hex, raw
}

enum PagerMode: String, CaseIterable, Equatable, Sendable {
    case auto, on, off
}
