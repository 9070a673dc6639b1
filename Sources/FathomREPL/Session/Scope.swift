@_spi(Fathom) import FathomHTTP
import FathomOpenAPI
import Foundation

/// An origin (RFC 6454): scheme, host and port, as RFC 6454 §6.2 serializes them
/// (`http://127.0.0.1:8080`, the port always written). The identity of an API, and of where a
/// request goes; two URLs are on the same origin exactly when their `Origin`s are equal.
struct Origin: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// `scheme://host:port`.
    let description: String

    /// The origin of an absolute http(s) or ws(s) URL; `nil` for anything else.
    init?(url: String) {
        guard url.contains("://"), let parsed = try? RequestURL(parsing: url) else { return nil }
        description = parsed.origin
    }

    /// The origin of a parsed URL.
    init(_ url: RequestURL) {
        description = url.origin
    }

    /// The origin of a Foundation URL; `nil` for a file or anything not http(s).
    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil,
            let parsed = Origin(url: url.absoluteString)
        else { return nil }
        self = parsed
    }

    /// The host it names (a Unix socket's encoded path for `http+unix`).
    var host: String? { (try? RequestURL(parsing: description))?.host }

    static func < (a: Origin, b: Origin) -> Bool { a.description < b.description }
}

/// Everything that follows from which API a request belongs to, decided once per request by
/// ``ScopeRules`` and carried with it: the API whose state it gets, its defaults and
/// credentials, the description that checks it, how strictly, and under which base path.
///
/// A request gets its API's state only on that API's origin (or one shared with it on purpose);
/// on any other origin its scope is empty — its own items, the cookies RFC 6265 gives it, and
/// nothing else. Every later step (the check before sending, the client, the stream's `Accept`
/// and item checks, the response's schema check, coverage, a batch's rows, the notice about
/// state that stayed behind) reads the scope, never the session's APIs.
struct Scope: Equatable, Sendable {
    /// Where the request goes.
    var origin: Origin
    /// The index in the session's APIs of the API whose state the request gets; `nil` when no API
    /// claims its origin.
    var api: Int?
    /// That API as it was when the scope was decided.
    var state: API?
    /// The draft's own credentials (`auth draft …`), which go in place of the API's.
    var draftAuth: AuthSpec?
    /// The path of the API's base, expanded (`/v1`): request paths carry it before the
    /// description's own. `nil` without an API or when the base has no path.
    var basePath: String?

    /// The credentials the request goes with: the draft's own, else its API's.
    var auth: AuthSpec { draftAuth ?? state?.auth ?? .none }

    /// The description that checks the request, when its API has one.
    var description: LoadedSpec? { state?.spec }

    /// How the request is checked before it goes: its API's mode when a description checks it,
    /// `off` when none does.
    var validation: ValidationMode { description == nil ? .off : state?.validation ?? .off }

    /// The GraphQL endpoint and schema of the request's API, when it has one.
    var graphQL: GraphQLEndpoint? { state?.graphQL }

    /// The gRPC services of the request's API, when it has them.
    var grpc: GRPCService? { state?.grpc }

    /// How a GraphQL operation is checked before it goes: its API's mode when a schema checks
    /// it, `off` when none does.
    var graphQLValidation: ValidationMode { graphQL?.schema == nil ? .off : state?.validation ?? .off }

    /// The default headers the request gets from its API.
    var defaultHeaders: [Draft.Header] { state?.defaultHeaders ?? [] }

    /// The default query items the request gets from its API.
    var defaultQuery: [Draft.QueryPair] { state?.defaultQuery ?? [] }

    /// Whether a request to `other` (a redirect, a batch's next row) belongs to this scope: the
    /// same origin, so the same API and credentials.
    func covers(_ other: Origin) -> Bool { other == origin }

    /// A request path as the description writes it (the base's path taken off), and the
    /// operation there; `nil` when no description checks this scope.
    func route(method: String, path: String) -> (relative: String, operation: APIOperation?)? {
        guard let description = description?.description else { return nil }
        let relative = description.relativePath(path, basePath: basePath)
        return (relative, description.operation(method: method, path: relative))
    }

    /// The operation `method` `path` calls in this scope's description.
    func operation(method: String, path: String) -> APIOperation? {
        route(method: method, path: path)?.operation
    }
}

/// The rules that decide a request's ``Scope``, over the session's APIs and variables: the one
/// place that says which API a request belongs to. Decided once per request, in `prepare`.
///
/// - A request belongs to the API on its origin — the current API first when several could —
///   else to the API that shares its state with that origin on purpose (`api share`).
/// - A description's `servers` claim nothing: they only name the base a session without one
///   starts from. Checks, like credentials, belong to the API's origin.
/// - A relative target goes to the current API's base; a full URL to its own origin.
/// - The description commands read (`ls`, `describe`, `op`, `body example`) is the draft's API's
///   when it has one, else the current API's.
struct ScopeRules: Sendable {
    var apis: [API]
    var current: Int?
    var variables: Variables

    /// The API whose state a request to `origin` gets: the one on that origin (the current one
    /// first), else one that shares its state with that origin on purpose.
    func api(for origin: Origin) -> Int? {
        if let current, apis.indices.contains(current), apis[current].origin == origin { return current }
        return api(on: origin) ?? apis.firstIndex { $0.claims(origin) }
    }

    /// The API on `origin` itself (not one that shares with it): the one `base` switches to.
    /// `except` leaves one out (the API being moved there).
    func api(on origin: Origin, except: Int? = nil) -> Int? {
        apis.indices.first { $0 != except && apis[$0].origin == origin }
    }

    /// The scope of a request to `origin`, with the draft's own credentials when it has them.
    func scope(for origin: Origin, draftAuth: AuthSpec? = nil) -> Scope {
        let index = api(for: origin)
        let state = index.map { apis[$0] }
        return Scope(
            origin: origin, api: index, state: state, draftAuth: draftAuth, basePath: state.flatMap(basePath(of:)))
    }

    /// The scope of a request to an absolute URL; `nil` when it has no http(s) origin.
    func scope(forURL url: String) -> Scope? {
        Origin(url: url).map { scope(for: $0) }
    }

    /// The expanded path of an API's base, `nil` when it has none.
    func basePath(of api: API) -> String? {
        let base = (try? variables.expand(api.base)) ?? api.base
        let (prefix, path) = Draft.splitTarget(base)
        return prefix.isEmpty ? nil : path
    }

    /// The origin a target goes to: a full URL's own, or the current base's for a path, variables
    /// expanded now (a base written with a variable that names another origin since goes there,
    /// and gets none of this API's state). `nil` when it has none (a path with no base, a URL
    /// that does not parse).
    func origin(ofTarget target: String) -> Origin? {
        let expanded = (try? variables.expand(target)) ?? target
        if expanded.contains("://") { return Origin(url: expanded) }
        guard let current, apis.indices.contains(current) else { return nil }
        return Origin(url: (try? variables.expand(apis[current].base)) ?? apis[current].base)
    }

    /// The API whose description `ls`, `describe`, `op` and `body example` read for `draft`: the
    /// draft's API when it has a description, else the current API when it has one.
    func describingAPI(for draft: Draft) -> Int? {
        let draftAPI = origin(ofTarget: draft.target).flatMap { api(for: $0) }
        return [draftAPI, current].compactMap { $0 }.first { apis[$0].spec != nil }
    }

    /// Whether a document a description's `$ref` names is read with the description's own
    /// client (its API's credentials): only on the origin the description came from.
    static func refGoesWithCredentials(_ reference: URL, descriptionAt location: URL) -> Bool {
        guard let origin = Origin(location) else { return false }
        return Origin(reference) == origin
    }
}
