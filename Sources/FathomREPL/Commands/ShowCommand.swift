@_spi(Fathom) import FathomHTTP

/// `show [request|response|#N|session|headers on|off]`: the request as it would be sent, a
/// response again, or the whole session.
struct ShowCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "show", synopsis: "show [request|response|#N|session|headers on|off]",
        summary: "preview the request (secrets masked) or show a response again",
        completion: .words(["request", "response", "session", "headers"]), group: .draft)

    enum Target: Equatable, Sendable {
        case request
        case response(Int?)
        case session
        case headers(Bool)
    }

    var target: Target

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        ShowCommand(target: try show(&arguments))
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch target {
        case .request:
            let prepared = try await executor.prepare(executor.session.draft, preview: true)
            var tokenFetchedOnSend = false
            if case .oauth2ClientCredentials = executor.session.auth { tokenFetchedOnSend = true }
            return .shows(.request(RequestPreview(request: prepared, tokenFetchedOnSend: tokenFetchedOnSend)))
        case .response(let number):
            return .shows(.response(executor.responseOutput(try executor.session.responses.entry(number))))
        case .session:
            return .shows(.listing(Self.session(executor)))
        case .headers(let on):
            executor.session.settings.showHeaders = on
            return .done
        }
    }

    private static func session(_ executor: isolated Executor) -> Listing {
        let session = executor.session
        var items: [Listing.Item] = []
        func add(_ name: String, _ value: String) { items.append(Listing.Item(name: name, value: value)) }
        add("base", session.base ?? "(none)")
        if let environment = session.currentEnvironment { add("env", environment) }
        add("auth", executor.describe(session.auth))
        for header in session.defaultHeaders {
            add("default", "header \(header.name): \(executor.shownHeaderValue(header))")
        }
        for pair in session.defaultQuery { add("default", "query \(pair.name)\(pair.value.map { "=\($0)" } ?? "")") }
        for name in session.variables.names { add("var", "\(name) = \(executor.displayValue(of: name))") }
        let settings = session.settings
        add("decoder", settings.decoder.rawValue)
        add("log", "\(settings.logDetail.rawValue)\(settings.logFile.map { " \($0)" } ?? "")")
        add("timeout", settings.timeout?.shortDescription ?? "60 s (default)")
        add("redirects", settings.redirectLimit.map(String.init) ?? "off")
        add("insecure", settings.insecure ? "on" : "off")
        add("proxy", settings.proxy ?? "from the environment")
        add("cookies", settings.cookies ? "on (\(executor.cookieJar.cookies.count))" : "off")
        add("pager", settings.pager.rawValue)
        add("responses", "\(session.responses.entries.count) kept, last #\(session.responses.lastNumber)")
        return Listing(kind: .session, items: items, empty: "")
    }

    private static func show(_ a: inout Arguments) throws(CommandError) -> Target {
        guard let word = try a.optionalWord() else { return .request }
        switch word.text.lowercased() {
        case "request":
            try a.end()
            return .request
        case "response":
            try a.end()
            return .response(nil)
        case "session":
            try a.end()
            return .session
        case "headers":
            guard let on = try a.optionalSwitch() else {
                throw CommandError("expected on or off", column: a.column, hint: "show headers on|off")
            }
            return .headers(on)
        default:
            if word.text.hasPrefix("#"), let number = Int(word.text.dropFirst()), number > 0 {
                try a.end()
                return .response(number)
            }
            throw a.badChoice(word, ["request", "response", "session", "headers", "#N"])
        }
    }
}
