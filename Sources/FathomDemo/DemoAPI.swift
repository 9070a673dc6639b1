import CZlib
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The demo API: users and their to-dos with login, OAuth 2 client credentials, pagination,
/// problem+json errors, and endpoints for slow, failing, redirecting, large and gzip responses.
///
/// Reading is open; changing data (`POST`, `PUT`, `PATCH`, `DELETE` on `/users`) and `/me` need
/// `Authorization: Bearer <token>` from `POST /login` (`{"username":"ada","password":"difference-engine"}`)
/// or `POST /oauth/token` (client `fathom-demo`, secret `demo-client-secret`).
public enum DemoAPI {
    /// The credentials the demo accepts, for tours and tests.
    public static let username = DemoStore.username
    public static let password = DemoStore.password
    public static let clientID = DemoStore.clientID
    public static let clientSecret = DemoStore.clientSecret

    /// Starts the demo API on 127.0.0.1, and its gRPC service (``DemoGRPCServer``, on a port of its
    /// own: ``LoopbackServer/grpc``) over the same users and todos.
    ///
    /// - Parameter port: 0 (the default) picks a free port.
    ///
    /// - Parameter accessLog: Called with one line per request (`POST /users?x=1 {"name":"Lin"}`):
    ///   what `fathom serve --access-log` prints, so a person (or a test) sees what arrived.
    public static func start(
        port: Int = 0, accessLog: (@Sendable (String) -> Void)? = nil
    ) async throws
        -> LoopbackServer
    {
        let store = DemoStore()
        let http = try await LoopbackServer.start(
            router: makeRouter(accessLog: accessLog, store: store), port: port,
            server: DemoWebSocket.server(store: store))
        do {
            return http.with(try await DemoGRPCServer.start(store: store))
        } catch {
            await http.stop()
            throw error
        }
    }

    /// A router with every demo route, fresh data and fresh credentials.
    ///
    /// Its WebSocket, `/ws`, is served beside the router (``DemoWebSocket``), by ``start(port:accessLog:)``.
    public static func makeRouter(accessLog: (@Sendable (String) -> Void)? = nil) -> Router<BasicRequestContext> {
        makeRouter(accessLog: accessLog, store: DemoStore())
    }

    static func makeRouter(accessLog: (@Sendable (String) -> Void)?, store: DemoStore) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        // Before any route: middleware applies to the routes added after it.
        if let accessLog { router.add(middleware: AccessLogMiddleware(log: accessLog)) }

        router.get("/") { request, _ in
            DemoResponse.json([
                "name": "Fathom demo API",
                "users": "/users",
                "login": "POST /login {\"username\":\"ada\",\"password\":\"difference-engine\"}",
                "oauth": "POST /oauth/token (client credentials)",
                "echo": "/echo", "slow": "/slow?ms=500", "status": "/status/418", "redirect": "/redirect/3",
                "large": "/large?mb=1", "gzip": "/gzip", "problem": "/users/9999", "openapi": "/openapi.json",
                "events": "/events?count=5", "stream": "/stream?count=5", "websocket": "ws /ws?ticks=3",
                "graphql": "/graphql",
            ])
        }
        router.get("/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: DemoOpenAPI.json)))
        }

        addAuthRoutes(router, store: store)
        addUserRoutes(router, store: store)
        DemoGraphQL.addRoutes(router, store: store)
        addAccountRoutes(router, store: store)
        addUtilityRoutes(router)
        return router
    }

    // MARK: - Authentication

    private static func addAuthRoutes(_ router: Router<BasicRequestContext>, store: DemoStore) {
        router.post("/login") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            struct Login: Decodable {
                var username: String
                var password: String
            }
            guard let login = try? JSONDecoder().decode(Login.self, from: Data(buffer: body)) else {
                return DemoResponse.problem(
                    400, title: "Bad Request", detail: "send {\"username\": …, \"password\": …}")
            }
            guard login.username == DemoStore.username, login.password == DemoStore.password else {
                return DemoResponse.problem(401, title: "Unauthorized", detail: "wrong username or password")
            }
            let token = await store.issueToken(lifetime: 3600)
            return DemoResponse.json(["token": token, "token_type": "Bearer", "expires_in": 3600])
        }

        router.post("/oauth/token") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            var fields = Form.parse(String(buffer: body))
            if let header = request.headers[.authorization], header.lowercased().hasPrefix("basic "),
                let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({
                    String(decoding: $0, as: UTF8.self)
                })
            {
                let pair = decoded.split(separator: ":", maxSplits: 1).map(String.init)
                if pair.count == 2 {
                    fields["client_id"] = pair[0]
                    fields["client_secret"] = pair[1]
                }
            }
            guard fields["grant_type"] == "client_credentials" else {
                return DemoResponse.json(
                    ["error": "unsupported_grant_type", "error_description": "use grant_type=client_credentials"],
                    status: 400)
            }
            guard fields["client_id"] == DemoStore.clientID, fields["client_secret"] == DemoStore.clientSecret else {
                return DemoResponse.json(
                    ["error": "invalid_client", "error_description": "unknown client or wrong secret"], status: 401)
            }
            let lifetime = fields["ttl"].flatMap(Int.init) ?? 3600
            let token = await store.issueToken(lifetime: TimeInterval(lifetime))
            return DemoResponse.json([
                "access_token": token, "token_type": "Bearer", "expires_in": lifetime,
                "scope": fields["scope"] ?? "users",
            ])
        }

        router.post("/logout") { request, _ -> Response in
            if let token = bearerToken(request) { await store.revoke(token) }
            return Response(status: .noContent)
        }

        router.get("/me") { request, _ -> Response in
            if let denied = await authorize(request, store: store) { return denied }
            return DemoResponse.encode(await store.user(1))
        }
    }

    static func bearerToken(_ request: Request) -> String? { bearerToken(request.headers) }

    static func bearerToken(_ headers: HTTPFields) -> String? {
        guard let header = headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            return nil
        }
        return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    /// `nil` when the request carries a valid token, else the 401 to return.
    static func authorize(_ request: Request, store: DemoStore) async -> Response? {
        guard let token = bearerToken(request) else {
            var response = DemoResponse.problem(
                401, title: "Unauthorized", detail: "this endpoint needs Authorization: Bearer <token> (POST /login)")
            response.headers[.wwwAuthenticate] = "Bearer realm=\"fathom-demo\""
            return response
        }
        guard await store.isValid(token) else {
            var response = DemoResponse.problem(401, title: "Unauthorized", detail: "the token is invalid or expired")
            response.headers[.wwwAuthenticate] = "Bearer realm=\"fathom-demo\", error=\"invalid_token\""
            return response
        }
        return nil
    }

    // MARK: - Users and to-dos

    private struct UserInput: Decodable {
        var name: String?
        var email: String?
        var role: String?
        var active: Bool?
    }

    private static func addUserRoutes(_ router: Router<BasicRequestContext>, store: DemoStore) {
        router.get("/users") { request, _ -> Response in
            let page = max(1, request.uri.queryParameters["page"].flatMap { Int($0) } ?? 1)
            let perPage = min(100, max(1, request.uri.queryParameters["per_page"].flatMap { Int($0) } ?? 10))
            var users = await store.users
            if let role = request.uri.queryParameters["role"] {
                users = users.filter { $0.role == role }
            }
            let total = users.count
            let pages = max(1, (total + perPage - 1) / perPage)
            let slice = users.dropFirst((page - 1) * perPage).prefix(perPage)
            struct Page: Encodable {
                var data: [DemoUser]
                var page: Int
                var per_page: Int
                var total: Int
                var total_pages: Int
            }
            var response = DemoResponse.encode(
                Page(data: Array(slice), page: page, per_page: perPage, total: total, total_pages: pages))
            let base = "http://\(request.head.authority ?? "127.0.0.1")/users"
            var links: [String] = []
            if page < pages { links.append("<\(base)?page=\(page + 1)&per_page=\(perPage)>; rel=\"next\"") }
            if page > 1 { links.append("<\(base)?page=\(page - 1)&per_page=\(perPage)>; rel=\"prev\"") }
            links.append("<\(base)?page=1&per_page=\(perPage)>; rel=\"first\"")
            links.append("<\(base)?page=\(pages)&per_page=\(perPage)>; rel=\"last\"")
            response.headers[HTTPField.Name("Link")!] = links.joined(separator: ", ")
            response.headers[HTTPField.Name("X-Total-Count")!] = String(total)
            return response
        }

        router.get("/users/:id") { _, context -> Response in
            let id = context.parameters.get("id", as: Int.self) ?? -1
            guard let user = await store.user(id) else { return notFound("user", id) }
            return DemoResponse.encode(user)
        }

        router.post("/users") { request, _ -> Response in
            if let denied = await authorize(request, store: store) { return denied }
            let input: UserInput
            switch await decode(UserInput.self, request) {
            case .success(let value): input = value
            case .failure(let failure): return failure.response
            }
            var errors: [[String: String]] = []
            if (input.name ?? "").isEmpty { errors.append(["field": "name", "message": "name is required"]) }
            if !(input.email ?? "").contains("@") {
                errors.append(["field": "email", "message": "email must contain @"])
            }
            guard errors.isEmpty else {
                return DemoResponse.problem(
                    422, title: "Unprocessable Entity", detail: errors.map { $0["message"]! }.joined(separator: "; "),
                    extra: ["errors": errors])
            }
            let user = await store.addUser(name: input.name!, email: input.email!, role: input.role ?? "member")
            var response = DemoResponse.encode(user, status: .created)
            response.headers[.location] = "/users/\(user.id)"
            return response
        }

        for method in [HTTPRequest.Method.put, .patch] {
            router.on("/users/:id", method: method) { request, context -> Response in
                if let denied = await authorize(request, store: store) { return denied }
                let id = context.parameters.get("id", as: Int.self) ?? -1
                guard var user = await store.user(id) else { return notFound("user", id) }
                let input: UserInput
                switch await decode(UserInput.self, request) {
                case .success(let value): input = value
                case .failure(let failure): return failure.response
                }
                if method == .put, input.name == nil || input.email == nil {
                    return DemoResponse.problem(
                        422, title: "Unprocessable Entity", detail: "PUT replaces the user: send name and email")
                }
                if let name = input.name { user.name = name }
                if let email = input.email { user.email = email }
                if let role = input.role { user.role = role }
                if let active = input.active { user.active = active }
                _ = await store.replaceUser(user)
                return DemoResponse.encode(user)
            }
        }

        router.delete("/users/:id") { request, context -> Response in
            if let denied = await authorize(request, store: store) { return denied }
            let id = context.parameters.get("id", as: Int.self) ?? -1
            guard await store.deleteUser(id) else { return notFound("user", id) }
            return Response(status: .noContent)
        }

        router.get("/users/:id/todos") { _, context -> Response in
            let id = context.parameters.get("id", as: Int.self) ?? -1
            guard await store.user(id) != nil else { return notFound("user", id) }
            return DemoResponse.encode(await store.todos(of: id))
        }

        router.post("/users/:id/todos") { request, context -> Response in
            if let denied = await authorize(request, store: store) { return denied }
            let id = context.parameters.get("id", as: Int.self) ?? -1
            guard await store.user(id) != nil else { return notFound("user", id) }
            struct TodoInput: Decodable { var title: String }
            switch await decode(TodoInput.self, request) {
            case .success(let input):
                return DemoResponse.encode(await store.addTodo(userID: id, title: input.title), status: .created)
            case .failure(let failure):
                return failure.response
            }
        }
    }

    /// A stream's `count` (default 5, at most 100,000; 0 is endless) and `ms` between items
    /// (default 200, at most a minute).
    static func streamParameters(_ request: Request) -> (count: Int, ms: Int) {
        let count = min(100_000, max(0, request.uri.queryParameters["count"].flatMap { Int($0) } ?? 5))
        let ms = min(60_000, max(0, request.uri.queryParameters["ms"].flatMap { Int($0) } ?? 200))
        return (count, ms)
    }

    static func notFound(_ what: String, _ id: Int) -> Response {
        DemoResponse.problem(404, title: "Not Found", detail: "no \(what) with id \(id)")
    }

    static func decode<T: Decodable>(_ type: T.Type, _ request: Request) async -> Result<T, DemoResponse.Failure> {
        guard let body = try? await request.body.collect(upTo: 1 << 20) else {
            return .failure(
                .init(DemoResponse.problem(413, title: "Content Too Large", detail: "the body is over 1 MiB")))
        }
        do {
            return .success(try JSONDecoder().decode(T.self, from: Data(buffer: body)))
        } catch {
            return .failure(
                .init(
                    DemoResponse.problem(
                        400, title: "Bad Request", detail: "the body is not the JSON expected: \(error)")))
        }
    }

    // MARK: - Utilities

    private struct Withdrawal: Decodable {
        var amount: Int
    }

    private struct BalanceInput: Decodable {
        var balance: Int
    }

    /// Accounts with a deliberate race, for `send --repeat … -c …` to find: a withdrawal checks
    /// the balance, takes a while, then subtracts from whatever the balance is by then, with no
    /// lock between. One at a time, an account of 100 pays 60 once and refuses the next; two at
    /// once both pass the check, and the account ends at -20.
    private static func addAccountRoutes(_ router: Router<BasicRequestContext>, store: DemoStore) {
        router.get("/accounts/:id") { _, context -> Response in
            let id = context.parameters.get("id", as: Int.self) ?? -1
            guard let balance = await store.balance(id) else { return notFound("account", id) }
            return DemoResponse.json(["id": id, "balance": balance])
        }

        router.put("/accounts/:id") { request, context -> Response in
            let id = context.parameters.get("id", as: Int.self) ?? -1
            let input: BalanceInput
            switch await decode(BalanceInput.self, request) {
            case .success(let value): input = value
            case .failure(let failure): return failure.response
            }
            guard await store.setBalance(id, input.balance) else { return notFound("account", id) }
            return DemoResponse.json(["id": id, "balance": input.balance])
        }

        router.post("/accounts/:id/withdraw") { request, context -> Response in
            let id = context.parameters.get("id", as: Int.self) ?? -1
            let input: Withdrawal
            switch await decode(Withdrawal.self, request) {
            case .success(let value): input = value
            case .failure(let failure): return failure.response
            }
            guard input.amount > 0 else {
                return DemoResponse.problem(400, title: "Bad Request", detail: "amount must be above 0")
            }
            guard let seen = await store.balance(id) else { return notFound("account", id) }
            guard seen >= input.amount else {
                return DemoResponse.problem(
                    409, title: "Conflict", detail: "insufficient funds", extra: ["balance": seen])
            }
            // The window: checked, not yet paid. Another withdrawal passes the same check here.
            try await Task.sleep(for: .milliseconds(50))
            let balance = await store.subtract(id, input.amount)
            return DemoResponse.json(["id": id, "balance": balance])
        }
    }

    private static func addUtilityRoutes(_ router: Router<BasicRequestContext>) {
        let echo: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            try await Echo.response(for: request)
        }
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete, .options] {
            router.on("/echo", method: method, use: echo)
            router.on("/echo/**", method: method, use: echo)
        }

        // An upload of any size, read as it arrives and never held: its length and CRC-32.
        let upload: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            var count = 0
            var crc = crc32(0, nil, 0)
            for try await buffer in request.body {
                buffer.withUnsafeReadableBytes { bytes in
                    crc = crc32(crc, bytes.bindMemory(to: UInt8.self).baseAddress, uInt(bytes.count))
                }
                count += buffer.readableBytes
            }
            return DemoResponse.json(["bytes": count, "crc32": String(format: "%08x", UInt32(crc))])
        }
        router.put("/upload", use: upload)
        router.post("/upload", use: upload)

        router.get("/slow") { request, _ -> Response in
            let ms = min(60_000, max(0, request.uri.queryParameters["ms"].flatMap { Int($0) } ?? 1000))
            try await Task.sleep(for: .milliseconds(ms))
            return DemoResponse.json(["slept_ms": ms])
        }

        // Server-sent events: `count` events (0: until the client goes), one every `ms`. The
        // first says how soon to reconnect; the third's data spans two lines; the last is `done`.
        router.get("/events") { request, _ -> Response in
            let (count, ms) = streamParameters(request)
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: ": the Fathom demo's events\n\n"))
                    var n = 1
                    while count == 0 || n <= count {
                        if n > 1 { try await Task.sleep(for: .milliseconds(ms)) }
                        var event = "id: \(n)\n"
                        if n == 1 { event += "retry: 3000\n" }
                        if count != 0, n == count {
                            event += "event: done\ndata: {\"n\": \(n), \"of\": \(count)}\n\n"
                        } else if n == 3 {
                            event += "event: tick\ndata: {\"n\": 3,\ndata:  \"note\": \"data on two lines\"}\n\n"
                        } else {
                            event += "event: tick\ndata: {\"n\": \(n)}\n\n"
                        }
                        try await writer.write(ByteBuffer(string: event))
                        n += 1
                    }
                    try await writer.finish(nil)
                })
        }

        // JSON Lines: `count` log lines (0: until the client goes), one every `ms`; each line's
        // message is `message` when given.
        router.get("/stream") { request, _ -> Response in
            let (count, ms) = streamParameters(request)
            let given = request.uri.queryParameters["message"].map(String.init)
            // `stamp=1` adds the time each line is written (`t`, nanoseconds since 1970), for
            // measuring how soon a client shows it.
            let stamped = request.uri.queryParameters["stamp"] == "1"
            let message: @Sendable (Int) -> String = { n in
                DemoJSON.serialize(given ?? "line \(n)")
                    + (stamped ? ",\"t\":\(UInt64(Date().timeIntervalSince1970 * 1e9))" : "")
            }
            return Response(
                status: .ok, headers: [.contentType: "application/x-ndjson"],
                body: ResponseBody { writer in
                    var n = 1
                    while count == 0 || n <= count {
                        if n > 1 { try await Task.sleep(for: .milliseconds(ms)) }
                        let level = n % 4 == 0 ? "warn" : "info"
                        try await writer.write(
                            ByteBuffer(string: "{\"n\":\(n),\"level\":\"\(level)\",\"message\":\(message(n))}\n"))
                        n += 1
                    }
                    try await writer.finish(nil)
                })
        }

        // Without an upgrade, `/ws` says how to get one.
        router.get("/ws") { _, _ in
            DemoResponse.problem(
                426, title: "Upgrade Required", detail: "/ws is a WebSocket: open it with `ws /ws` (Upgrade: websocket)"
            )
        }

        router.get("/status/:code") { _, context -> Response in
            let code = context.parameters.get("code", as: Int.self) ?? 400
            guard (200...599).contains(code) else {
                return DemoResponse.problem(400, title: "Bad Request", detail: "status must be 200–599")
            }
            let status = HTTPResponse.Status(code: code)
            if code >= 400 {
                let title = status.reasonPhrase.isEmpty ? "Error \(code)" : status.reasonPhrase
                return DemoResponse.problem(code, title: title, detail: "you asked for status \(code)")
            }
            return Response(status: status)
        }

        router.get("/redirect/:n") { _, context -> Response in
            let n = max(0, context.parameters.get("n", as: Int.self) ?? 1)
            let location = n <= 1 ? "/echo" : "/redirect/\(n - 1)"
            return Response(status: .found, headers: [.location: location])
        }

        router.get("/large") { request, _ -> Response in
            let megabytes = min(512, max(0, request.uri.queryParameters["mb"].flatMap { Double($0) } ?? 1))
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(data: LargeDocument.make(bytes: Int(megabytes * 1_048_576)))))
        }

        router.get("/gzip") { request, _ -> Response in
            let document = DemoResponse.jsonData([
                "gzipped": true, "message": String(repeating: "Fathom compresses well. ", count: 40),
            ])
            let accepts = request.headers[.acceptEncoding]?.lowercased().contains("gzip") ?? false
            guard accepts else {
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(data: document)))
            }
            return Response(
                status: .ok,
                headers: [.contentType: "application/json", .contentEncoding: "gzip", .vary: "Accept-Encoding"],
                body: .init(byteBuffer: ByteBuffer(data: Gzip.compress(document))))
        }
    }
}

/// One line per request: method, URI, and the body when it is short text (else its size).
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let log: @Sendable (String) -> Void

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var request = request
        var line = "\(request.method) \(request.uri)"
        // A large body is not held to be logged: its length is.
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > 1 << 20 {
            log(line + " (\(length) bytes)")
            return try await next(request, context)
        }
        let body = try await request.collectBody(upTo: 1 << 20)
        if body.readableBytes > 0 {
            let text = String(buffer: body)
            line += text.utf8.count <= 200 && !text.contains("\n") ? " \(text)" : " (\(body.readableBytes) bytes)"
        }
        log(line)
        return try await next(request, context)
    }
}
