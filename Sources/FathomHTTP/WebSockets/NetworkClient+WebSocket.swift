import Foundation
import Synchronization

extension NetworkClient {
    /// Opens a WebSocket to `request`'s URL (`ws://`, `wss://`, or `http(s)://` taken as them)
    /// through this client: the upgrade request goes through the interceptors as any request does
    /// — an ``Authenticator`` adds its credentials, and after a `401` answer to the upgrade
    /// authenticates once and tries again — and is logged by the client's logger, masked.
    ///
    /// ```swift
    /// let client = NetworkClient(interceptors: [.authenticator(.bearer(token))])
    /// let socket = try await client.webSocket(.get("wss://api.example.com/feed"))
    /// try await socket.send(.text("hello"))
    /// for await event in socket.events { print(event) }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The upgrade request: a `GET` of the WebSocket's URL, with any headers of its own.
    ///   - configuration: How the connection is made (TLS, proxy, timeouts, message size). Its
    ///     headers are sent under the request's own; an unset logger is the client's.
    ///   - cookies: A jar whose cookies for the URL go with the upgrade, unless the request sets
    ///     its own `Cookie`.
    /// - Returns: The open connection.
    /// - Throws: ``NetworkError``: refused, timed out, TLS, or the server did not switch protocols.
    public func webSocket(
        _ request: NetworkRequest, configuration: WebSocketConnection.Configuration = .init(),
        cookies: CookieJar? = nil
    ) async throws(NetworkError) -> WebSocketConnection {
        var request = request
        // Prepared as the HTTP request the upgrade is.
        request.target = Self.httpTarget(request.target)
        return try await webSocket(try prepared(request), configuration: configuration, cookies: cookies)
    }

    /// `ws://…` as `http://…` and `wss://…` as `https://…` (the upgrade is an HTTP request);
    /// anything else as it is.
    @_spi(Fathom) public static func httpTarget(_ target: String) -> String {
        let lower = target.lowercased()
        if lower.hasPrefix("ws://") { return "http://" + target.dropFirst(5) }
        if lower.hasPrefix("wss://") { return "https://" + target.dropFirst(6) }
        return target
    }

    /// Opens a WebSocket for a request that is already prepared, as
    /// ``webSocket(_:configuration:cookies:)-(NetworkRequest,_,_)`` does.
    ///
    /// - Parameters:
    ///   - request: The upgrade request, an `http(s)` URL for the `ws(s)` one.
    ///   - configuration: How the connection is made; its headers go under the request's own.
    ///   - cookies: A jar whose cookies for the URL go with the upgrade.
    /// - Returns: The open connection.
    /// - Throws: ``NetworkError``: refused, timed out, TLS, or the server did not switch protocols.
    public func webSocket(
        _ request: PreparedRequest, configuration: WebSocketConnection.Configuration = .init(),
        cookies: CookieJar? = nil
    ) async throws(NetworkError) -> WebSocketConnection {
        var connectionConfiguration = configuration
        if connectionConfiguration.logger == nil, let logger = self.configuration.logger {
            connectionConfiguration.logger = logger
            connectionConfiguration.logDetail = self.configuration.logDetail
            connectionConfiguration.redactor = self.configuration.redactor
        }
        let upgrade = Upgrade(configuration: connectionConfiguration, cookies: cookies)
        let chain = InterceptorChain.make(self.configuration.interceptors, ending: upgrade.open)
        do {
            _ = try await chain(request)
        } catch {
            throw upgrade.failure ?? Self.normalize(error, elapsed: nil)
        }
        guard let connection = upgrade.connection else {
            throw upgrade.failure ?? .transport("the WebSocket to \(request.url.authority) did not open")
        }
        return connection
    }

    /// The end of the chain for an upgrade.
    ///
    /// Opens the connection with the request as the interceptors left it. A refused upgrade is answered as a response with its status, so that
    /// an authenticator sees a `401`; the error it came with is what the opening throws.
    private final class Upgrade: Sendable {
        let configuration: WebSocketConnection.Configuration
        let cookies: CookieJar?
        private let state = Mutex<(connection: WebSocketConnection?, failure: NetworkError?)>((nil, nil))

        init(configuration: WebSocketConnection.Configuration, cookies: CookieJar?) {
            self.configuration = configuration
            self.cookies = cookies
        }

        var connection: WebSocketConnection? { state.withLock { $0.connection } }
        var failure: NetworkError? { state.withLock { $0.failure } }

        var open: Next {
            { @Sendable request in
                var configuration = self.configuration
                var headers = request.headers
                for field in configuration.headers where !headers.contains(field.name) {
                    headers.add(field.name, field.value)
                }
                if !headers.contains(.cookie), let cookies = self.cookies?.header(for: request.url) {
                    headers.add(.cookie, cookies)
                }
                configuration.headers = headers
                // The TLS identity and trust the request carries (its API's), as an HTTP request's.
                if configuration.clientIdentity == nil { configuration.clientIdentity = request.clientIdentity }
                if configuration.trustRootsFile == nil { configuration.trustRootsFile = request.trustRootsFile }
                let refused = Mutex<Int?>(nil)
                do {
                    let connection = try await WebSocketConnection.open(
                        request.url.description, configuration: configuration,
                        refused: { status in refused.withLock { $0 = status } })
                    self.state.withLock { $0 = (connection, nil) }
                    return NetworkResponse(
                        status: HTTPStatus(code: 101), headers: NetworkHeaders(), body: Data(), httpVersion: "HTTP/1.1",
                        request: request, redirects: [], timing: .init(firstByte: .zero, total: .zero))
                } catch {
                    let failure = error as? NetworkError ?? NetworkClient.normalize(error, elapsed: nil)
                    self.state.withLock { $0.failure = failure }
                    guard let status = refused.withLock({ $0 }) else { throw error }
                    return NetworkResponse(
                        status: HTTPStatus(code: status), headers: NetworkHeaders(), body: Data(),
                        httpVersion: "HTTP/1.1", request: request, redirects: [],
                        timing: .init(firstByte: .zero, total: .zero))
                }
            }
        }
    }
}
