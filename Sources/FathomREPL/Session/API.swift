import FathomHTTP

/// An API the session talks to: everything the session deliberately applies to requests to one
/// origin (RFC 6454: scheme, host and port). `base URL` names an API — the one on that URL's
/// origin, made when there is none — and default headers and query items, `auth`, a loaded
/// description and its `validate` mode belong to the API that was current when they were set.
///
/// A request gets its API's state only when it goes to that API's origin (or one shared with
/// it on purpose, `api share URL`); a request to any other origin carries its own items, the
/// cookies RFC 6265 gives it, and nothing else. An environment (`env use`) moves the current API
/// to its base, so dev and staging are one API with one set of credentials templates.
///
/// The origin is resolved when the base is set, variables expanded then: a base written with a
/// variable (`base http://{{host}}`) that later names another origin sends requests there, but
/// never this API's state.
struct API: Equatable, Sendable {
    /// The base URL as written (`{{demo}}`, `https://api.example.com/v1`).
    var base: String
    /// The origin the base named when it was set (`http://127.0.0.1:8080`): the API's identity.
    var origin: Origin
    var defaultHeaders: [Draft.Header] = []
    var defaultQuery: [Draft.QueryPair] = []
    var auth: AuthSpec = .none
    /// The API description requests to this API are checked against (`spec`).
    var spec: LoadedSpec?
    /// How requests to this API are checked before they go (`validate`).
    var validation = ValidationMode.warn
    /// Other origins that get this API's state on purpose (`api share URL`).
    var shared: [Share] = []
    /// The base came from a description's servers, not from the person: the next `base` they set
    /// moves this API there (a description is usually tried against a local mock or a dev server).
    var baseFromDescription = false
    /// The certificate its server is shown when it asks for one (`cert FILE`), paths resolved.
    var clientIdentity: ClientIdentity?
    /// A CA its server's certificate is trusted by (`cert --ca FILE`), resolved.
    var trustRootsFile: String?
    /// Its GraphQL endpoint and schema (`graphql`).
    var graphQL: GraphQLEndpoint?
    /// Its gRPC services and their descriptors (`grpc`).
    var grpc: GRPCService?

    /// An origin shared with on purpose: the URL as written, its origin resolved when shared.
    struct Share: Equatable, Sendable {
        var url: String
        var origin: Origin
    }

    init(base: String, origin: Origin) {
        self.base = base
        self.origin = origin
    }

    /// Whether anything of this API would stay behind when a request goes elsewhere.
    var hasState: Bool {
        auth != .none || !defaultHeaders.isEmpty || !defaultQuery.isEmpty || spec != nil || clientIdentity != nil
            || graphQL?.schema != nil || grpc != nil
    }

    /// Whether requests to `origin` get this API's state: its own origin, or one it shares with.
    func claims(_ origin: Origin) -> Bool {
        self.origin == origin || shared.contains { $0.origin == origin }
    }
}
