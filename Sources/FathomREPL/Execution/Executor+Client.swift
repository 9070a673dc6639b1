import FathomHTTP
import FathomJSON
import Foundation
import Logging

/// The client the session sends through, rebuilt only when a setting it depends on changes (so
/// connections and an OAuth2 token survive everything else).
struct ClientCache {
    struct Key: Equatable {
        var transport: AsyncHTTPClientTransport.Configuration
        var mocks: [ClientSettings.MockRoute]
        var logDetail: LogDetail
        var logFile: String?
        var oauth: [String]?
    }

    var key: Key?
    /// What the key was computed from: while these stay the same (and no OAuth2 values need
    /// expanding) the cached client serves without building a key per request.
    var inputs: (settings: ClientSettings, auth: AuthSpec)?
    var client: NetworkClient?
    var transport: AsyncHTTPClientTransport?
}

extension Executor {
    // MARK: - Settings

    func setDecoder(_ mode: DecoderMode?) {
        guard let mode else { return say(session.settings.decoder.rawValue) }
        session.settings.decoder = mode
    }

    func setLog(_ detail: LogDetail?, file: String?) throws {
        guard let detail else {
            return say(session.settings.logDetail.rawValue + (session.settings.logFile.map { " → \($0)" } ?? ""))
        }
        if let file {
            let path = Self.expandTilde(file)
            guard
                FileManager.default.fileExists(atPath: path)
                    || FileManager.default.createFile(
                        atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            else {
                throw CommandError("cannot create log file '\(file)'")
            }
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw CommandError("cannot write to log file '\(file)'")
            }
            try? handle.close()
            session.settings.logFile = path
        } else {
            session.settings.logFile = nil
        }
        session.settings.logDetail = detail
    }

    func setTimeout(_ setting: Setting<Duration>) {
        switch setting {
        case .show: say(session.settings.timeout?.shortDescription ?? "60 s (default)")
        case .set(let duration): session.settings.timeout = duration
        case .off: session.settings.timeout = nil
        }
    }

    func setRedirects(_ setting: Setting<Int>) {
        switch setting {
        case .show: say(session.settings.redirectLimit.map { "follow up to \($0)" } ?? "off")
        case .set(let limit): session.settings.redirectLimit = limit
        case .off: session.settings.redirectLimit = nil
        }
    }

    func setInsecure(_ on: Bool?) {
        guard let on else { return say(session.settings.insecure ? "on" : "off") }
        session.settings.insecure = on
    }

    func setProxy(_ setting: Setting<String>) throws {
        switch setting {
        case .show:
            say(
                session.settings.proxy.map { redactor.redact($0) }
                    ?? "from the environment (HTTP_PROXY, HTTPS_PROXY, NO_PROXY)")
        case .set(let url):
            let proxy = try ProxyServer(parsing: url)
            if let password = proxy.password { redactor.addSecret(password) }
            session.settings.proxy = url
        case .off: session.settings.proxy = nil
        }
    }

    func setPager(_ mode: PagerMode?) {
        guard let mode else { return say(session.settings.pager.rawValue) }
        session.settings.pager = mode
    }

    func cookies(_ action: CookiesAction) {
        switch action {
        case .list:
            let cookies = cookieJar.cookies
            guard !cookies.isEmpty else {
                return say(session.settings.cookies ? "no cookies" : "the cookie jar is off")
            }
            say(
                cookies.map { cookie in
                    let value = redactor.redactHeaderValue(cookie.value, name: .cookie)
                    return "\(cookie.name)=\(value)  " + palette.dim("\(cookie.domain)\(cookie.path)")
                }.joined(separator: "\n"))
        case .clear: cookieJar.removeAll()
        case .on: session.settings.cookies = true
        case .off: session.settings.cookies = false
        }
    }

    func mock(_ action: MockAction) throws {
        switch action {
        case .list:
            let routes = session.settings.mocks
            say(
                routes.isEmpty
                    ? "no mocks"
                    : routes.map { "\($0.path) → \($0.status)\($0.file.map { " @\($0)" } ?? "")" }.joined(
                        separator: "\n"))
        case .off: session.settings.mocks = []
        case .file(let path, let file):
            let expanded = Self.expandTilde(try session.variables.expand(file))
            guard FileManager.default.isReadableFile(atPath: expanded) else {
                throw CommandError("cannot read '\(file)'", hint: "give a readable file after @")
            }
            addMock(ClientSettings.MockRoute(path: try session.variables.expand(path), status: 200, file: expanded))
        case .status(let path, let code):
            addMock(ClientSettings.MockRoute(path: try session.variables.expand(path), status: code, file: nil))
        }
    }

    private func addMock(_ route: ClientSettings.MockRoute) {
        session.settings.mocks.removeAll { $0.path == route.path }
        session.settings.mocks.append(route)
    }

    // MARK: - The client

    /// The client for the current settings, built or reused.
    func client() async throws -> NetworkClient {
        let settings = session.settings
        if let client = clients.client, let inputs = clients.inputs, inputs.settings == settings,
            inputs.auth == session.auth
        {
            if case .oauth2ClientCredentials = session.auth {} else { return client }
        }
        clients.inputs = (settings, session.auth)
        var transportConfiguration = AsyncHTTPClientTransport.Configuration()
        transportConfiguration.verifyCertificates = !settings.insecure
        transportConfiguration.redirectLimit = settings.redirectLimit
        if let timeout = settings.timeout { transportConfiguration.timeout = timeout }
        if let proxy = settings.proxy { transportConfiguration.proxy = .server(try ProxyServer(parsing: proxy)) }
        if settings.cookies { transportConfiguration.cookieJar = cookieJar }

        var oauth: [String]?
        if case .oauth2ClientCredentials(let url, let id, let secret, let scope) = session.auth {
            let variables = session.variables
            var tokenURL = try variables.expand(url)
            if !tokenURL.contains("://") {
                // A relative token URL resolves against the base, as request paths do.
                guard let base = baseURL() else {
                    throw CommandError(
                        "no base URL for the token URL '\(tokenURL)'", hint: "set one with `base http://…`")
                }
                tokenURL = try NetworkRequest(tokenURL).prepared(baseURL: base).url.description
            }
            oauth =
                [tokenURL, try variables.expand(id), try variables.expand(secret)]
                + (try scope.map { [try variables.expand($0)] } ?? [])
        }
        let key = ClientCache.Key(
            transport: transportConfiguration, mocks: settings.mocks,
            logDetail: settings.logDetail, logFile: settings.logFile, oauth: oauth)
        if let client = clients.client, clients.key == key { return client }

        let transport: AsyncHTTPClientTransport
        if let existing = clients.transport, existing.configuration == transportConfiguration {
            transport = existing
        } else {
            transport = AsyncHTTPClientTransport(configuration: transportConfiguration)
            if let old = clients.transport {
                Task.detached { try? await old.shutdown() }
            }
            clients.transport = transport
        }
        var wire: any Transport = transport
        if !settings.mocks.isEmpty {
            let mocks = MockTransport(fallback: transport)
            for route in settings.mocks {
                let response =
                    if let file = route.file { try MockResponse.file(file, status: route.status) } else {
                        MockResponse.status(route.status)
                    }
                mocks.register(route.path, response)
            }
            wire = mocks
        }

        var interceptors: [any Interceptor] = []
        if let oauth {
            interceptors.append(.authenticator(oauthAuthenticator(oauth, transport: wire)))
        }
        var logger: Logger?
        if settings.logDetail > .off {
            logger = WireLogSink.logger(file: settings.logFile, redactor: redactor)
        }
        let client = NetworkClient(
            configuration: NetworkClient.Configuration(
                interceptors: interceptors, logger: logger, logDetail: settings.logDetail, redactor: redactor),
            transport: wire)
        clients.client = client
        clients.key = key
        return client
    }

    /// OAuth2 client credentials ([RFC 6749 §4.4](https://www.rfc-editor.org/rfc/rfc6749#section-4.4)):
    /// a token fetched on first use, cached, fetched again after a 401.
    private func oauthAuthenticator(_ values: [String], transport: any Transport) -> BearerTokenAuthenticator {
        let tokenClient = NetworkClient(configuration: .init(redactor: redactor), transport: transport)
        let redactor = self.redactor
        return BearerTokenAuthenticator {
            var form = [QueryItem("grant_type", "client_credentials")]
            form.append(QueryItem("client_id", values[1]))
            form.append(QueryItem("client_secret", values[2]))
            if values.count > 3 { form.append(QueryItem("scope", values[3])) }
            let response = try await tokenClient.send(NetworkRequest.post(values[0]).body(form: form))
            guard response.status.isSuccess else {
                let message = ErrorMessage.extract(from: response) ?? "HTTP \(response.status)"
                throw NetworkError.transport("the OAuth2 token request failed: \(message)")
            }
            guard let document = try? JSON(parsing: response.body), case .string(let token)? = document["access_token"]
            else {
                throw NetworkError.transport("the OAuth2 token response has no access_token")
            }
            redactor.addSecret(token)
            return token
        }
    }
}

/// Where the wire log goes: standard error, or appended to a file. Each line starts with the
/// time; the library has already masked the data, and the line is masked once more as a whole.
enum WireLogSink {
    static func logger(file: String?, redactor: Redactor) -> Logger {
        Logger(label: "fathom.wire") { _ in
            LineLogHandler { line in
                let time = Date().formatted(.iso8601.time(includingFractionalSeconds: true))
                let data = Data(redactor.redact("\(time) \(line)\n").utf8)
                guard let file else { return FileHandle.standardError.write(data) }
                guard let handle = FileHandle(forWritingAtPath: file) else { return }
                handle.seekToEndOfFile()
                handle.write(data)
                try? handle.close()
            }
        }
    }
}
