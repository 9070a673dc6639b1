import FathomHTTP

/// How requests are sent and responses shown.
public struct ClientSettings: Equatable, Sendable {
    public var decoder: DecoderMode = .auto
    public var logDetail: LogDetail = .off
    public var logFile: String?
    public var timeout: Duration?
    /// The most redirects followed; `nil` returns 3xx responses as they are.
    public var redirectLimit: Int? = 5
    public var insecure = false
    /// `nil` uses the environment's proxy settings.
    public var proxy: String?
    public var cookies = true
    public var mocks: [MockRoute] = []
    public var pager: PagerMode = .auto
    public var showHeaders = true

    public init() {}

    /// A mocked path and what answers it.
    public struct MockRoute: Equatable, Sendable {
        public var path: String
        public var status: Int
        /// A file whose contents answer, or `nil` for an empty body.
        public var file: String?
    }
}

/// A setting that is shown, set, or turned off.
public enum Setting<Value: Equatable & Sendable>: Equatable, Sendable {
    case show
    case set(Value)
    case off
}

public enum DecoderMode: String, CaseIterable, Equatable, Sendable {
    case auto, json, text, hex, raw
}

public enum PagerMode: String, CaseIterable, Equatable, Sendable {
    case auto, on, off
}
