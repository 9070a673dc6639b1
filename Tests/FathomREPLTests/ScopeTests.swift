import FathomOpenAPI
import Foundation
import Testing

@testable import FathomREPL

/// The scoping rules as a table, without an executor: which API a request to an origin belongs
/// to, and what it gets from it (``ScopeRules``, ``Scope``).
@Suite struct ScopeTests {
    /// A description whose `servers` name `servers` and which has `GET /users/{id}`.
    static func spec(servers: [String] = []) throws -> LoadedSpec {
        let document = """
            {"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
             "servers": [\(servers.map { "{\"url\": \"\($0)\"}" }.joined(separator: ","))],
             "paths": {"/users/{id}": {"get": {"responses": {"200": {"description": "ok"}}}}}}
            """
        let description = try APIDescription(data: Data(document.utf8), name: "t.json", checkStructure: false)
        return LoadedSpec(description: description, source: "t.json")
    }

    static func api(_ base: String, auth: AuthSpec = .none, spec: LoadedSpec? = nil, shares: [String] = []) -> API {
        var api = API(base: base, origin: Origin(url: base)!)
        api.auth = auth
        api.spec = spec
        api.validation = .strict
        api.shared = shares.map { API.Share(url: $0, origin: Origin(url: $0)!) }
        return api
    }

    /// One row: the APIs (the first current), where the request goes, and what its scope must be.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var apis: [API]
        var request: String
        /// The index of the API the request belongs to, `nil` for none.
        var api: Int?
        var auth: String?
        var described: Bool
        var basePath: String?

        var testDescription: String { name }
    }

    static let bearer = AuthSpec.bearer("{{token}}")

    static func rows() throws -> [Row] {
        let described = try spec(servers: ["https://prod.example.com"])
        let a = "http://127.0.0.1:8080"
        return [
            Row(
                name: "its own origin", apis: [api(a, auth: bearer, spec: described)], request: a + "/users/1", api: 0,
                auth: "bearer", described: true, basePath: "/"),
            Row(
                name: "another port is another origin", apis: [api(a, auth: bearer)],
                request: "http://127.0.0.1:8081/users/1", api: nil, auth: nil, described: false, basePath: nil),
            Row(
                name: "another scheme is another origin", apis: [api(a, auth: bearer)],
                request: "https://127.0.0.1:8080/users/1", api: nil, auth: nil, described: false, basePath: nil),
            Row(
                name: "host case and the default port are the same origin",
                apis: [api("https://api.example.com/v1", auth: bearer)], request: "HTTPS://API.Example.COM:443/v1/x",
                api: 0, auth: "bearer", described: false, basePath: "/v1"),
            Row(
                name: "a description's servers claim nothing",
                apis: [api(a, auth: bearer, spec: described)], request: "https://prod.example.com/users/1", api: nil,
                auth: nil, described: false, basePath: nil),
            Row(
                name: "shared on purpose", apis: [api(a, auth: bearer, spec: described, shares: ["http://gw.test:9"])],
                request: "http://gw.test:9/users/1", api: 0, auth: "bearer", described: true, basePath: "/"),
            Row(
                name: "a second API is its own",
                apis: [api(a, auth: bearer), api("http://b.test/v2", spec: described)],
                request: "http://b.test/v2/users/1", api: 1, auth: nil, described: true, basePath: "/v2"),
            Row(
                name: "an API on the origin wins over one that shares with it",
                apis: [api(a, auth: bearer, shares: ["http://b.test"]), api("http://b.test")],
                request: "http://b.test/x", api: 1, auth: nil, described: false, basePath: "/"),
            Row(
                name: "no APIs at all", apis: [], request: a + "/x", api: nil, auth: nil, described: false,
                basePath: nil),
        ]
    }

    @Test(arguments: try rows())
    func aRequestGetsWhatItsOriginsAPIHas(row: Row) throws {
        let rules = ScopeRules(apis: row.apis, current: row.apis.isEmpty ? nil : 0, variables: Variables())
        let scope = try #require(rules.scope(forURL: row.request))
        #expect(scope.api == row.api)
        #expect(scope.auth.kindName == row.auth)
        #expect((scope.description != nil) == row.described)
        #expect(scope.validation == (row.described ? .strict : .off))
        #expect(scope.basePath == row.basePath)
        if row.api == nil {
            #expect(scope.defaultHeaders.isEmpty && scope.defaultQuery.isEmpty && scope.state == nil)
        }
    }

    @Test func theDraftsOwnCredentialsGoInPlaceOfTheAPIs() {
        let rules = ScopeRules(apis: [Self.api("http://a.test", auth: Self.bearer)], current: 0, variables: Variables())
        let origin = Origin(url: "http://a.test/x")!
        #expect(rules.scope(for: origin, draftAuth: .basic(user: "u", password: nil)).auth.kindName == "basic")
        // Elsewhere too: the draft's credentials are the draft's, wherever it goes.
        let elsewhere = rules.scope(for: Origin(url: "http://b.test/x")!, draftAuth: .basic(user: "u", password: nil))
        #expect(elsewhere.api == nil && elsewhere.auth.kindName == "basic")
    }

    @Test func aPathGoesToTheBaseAsItExpandsNow() {
        var variables = Variables()
        _ = variables.set("host", "a.test")
        var api = API(base: "http://{{host}}/v1", origin: Origin(url: "http://a.test")!)
        api.auth = Self.bearer
        var rules = ScopeRules(apis: [api], current: 0, variables: variables)
        #expect(rules.origin(ofTarget: "/users") == Origin(url: "http://a.test"))
        #expect(rules.origin(ofTarget: "https://x.test/y") == Origin(url: "https://x.test"))
        // The variable now names another origin: requests go there, and get nothing of the API.
        _ = rules.variables.set("host", "b.test")
        let origin = rules.origin(ofTarget: "/users")
        #expect(origin == Origin(url: "http://b.test"))
        #expect(rules.scope(for: origin!).api == nil)
        #expect(ScopeRules(apis: [], current: nil, variables: Variables()).origin(ofTarget: "/users") == nil)
    }

    @Test func theDescriptionCommandsReadIsTheDraftsAPIsElseTheCurrents() throws {
        let spec = try Self.spec()
        let apis = [
            Self.api("http://a.test", spec: spec), Self.api("http://b.test", spec: spec), Self.api("http://c.test"),
        ]
        var draft = Draft()
        draft.target = "http://b.test/users/1"
        #expect(ScopeRules(apis: apis, current: 0, variables: Variables()).describingAPI(for: draft) == 1)
        draft.target = "http://c.test/users/1"
        #expect(ScopeRules(apis: apis, current: 0, variables: Variables()).describingAPI(for: draft) == 0)
        #expect(ScopeRules(apis: apis, current: 2, variables: Variables()).describingAPI(for: draft) == nil)
    }

    @Test func aScopeRoutesUnderItsBasePath() throws {
        let rules = ScopeRules(
            apis: [Self.api("http://a.test/v1", spec: try Self.spec())], current: 0, variables: Variables())
        let scope = try #require(rules.scope(forURL: "http://a.test/v1/users/7"))
        #expect(scope.route(method: "GET", path: "/v1/users/7")?.relative == "/users/7")
        #expect(scope.operation(method: "GET", path: "/v1/users/7")?.title == "GET /users/{id}")
        #expect(scope.operation(method: "DELETE", path: "/v1/users/7") == nil)
        #expect(scope.covers(Origin(url: "http://A.test:80/other")!))
        #expect(!scope.covers(Origin(url: "http://a.test:81")!))
    }

    @Test(arguments: [
        ("https://api.test/openapi.json", "https://api.test/schemas/a.json", true),
        ("https://api.test/openapi.json", "https://cdn.test/a.json", false),
        ("https://api.test/openapi.json", "http://api.test/a.json", false),
        ("file:///tmp/openapi.json", "https://api.test/a.json", false),
    ])
    func aRefGoesWithCredentialsOnlyToTheDescriptionsOrigin(location: String, reference: String, expected: Bool) {
        #expect(
            ScopeRules.refGoesWithCredentials(URL(string: reference)!, descriptionAt: URL(string: location)!)
                == expected)
    }
}
