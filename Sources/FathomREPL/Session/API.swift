/// An API the session talks to: everything the session deliberately applies to requests to one
/// origin (RFC 6454: scheme, host and port). `base URL` names an API — the one on that URL's
/// origin, made when there is none — and default headers and query items, `auth`, a loaded
/// description and its `validate` mode belong to the API that was current when they were set.
///
/// A request gets its API's state only when it goes to that API's origin (or one shared with
/// it on purpose, `api share URL`); a request to any other origin carries its own items, the
/// cookies RFC 6265 gives it, and nothing else. An environment (`env use`) moves the current API
/// to its base, so dev and staging are one API with one set of credentials templates.
struct API: Equatable, Sendable {
    /// The base URL as written (`{{demo}}`, `https://api.example.com/v1`); the API's origin is
    /// this URL's, with variables expanded when a request is matched.
    var base: String
    var defaultHeaders: [Draft.Header] = []
    var defaultQuery: [Draft.QueryPair] = []
    var auth: AuthSpec = .none
    /// The API description requests to this API are checked against (`spec`).
    var spec: LoadedSpec?
    /// How requests to this API are checked before they go (`validate`).
    var validation = ValidationMode.warn
    /// Other origins (URLs as written) that get this API's state on purpose (`api share URL`).
    var shared: [String] = []

    init(base: String) {
        self.base = base
    }

    /// Whether anything of this API would stay behind when a request goes elsewhere.
    var hasState: Bool {
        auth != .none || !defaultHeaders.isEmpty || !defaultQuery.isEmpty || spec != nil
    }
}
