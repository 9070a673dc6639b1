@_spi(Fathom) import FathomHTTP

/// `cookies [clear|on|off]`: the cookie jar; bare, lists its cookies.
struct CookiesCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "cookies", synopsis: "cookies [clear|on|off]", summary: "the cookie jar (on by default); lists cookies",
        completion: .words(["clear", "on", "off"]), group: .client)

    enum Action: Equatable, Sendable {
        case list, clear, on, off
    }

    var action: Action

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        guard let word = try arguments.optionalWord() else { return CookiesCommand(action: .list) }
        try arguments.end()
        switch word.text.lowercased() {
        case "clear": return CookiesCommand(action: .clear)
        case "on": return CookiesCommand(action: .on)
        case "off": return CookiesCommand(action: .off)
        default: throw arguments.badChoice(word, ["clear", "on", "off"])
        }
    }

    var logKind: SessionLog.Kind? { action == .list ? nil : .setting }

    var line: String {
        switch action {
        case .list: "cookies"
        case .clear: "cookies clear"
        case .on: "cookies on"
        case .off: "cookies off"
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch action {
        case .list:
            let items = executor.cookieJar.cookies.map { cookie in
                Listing.Item(
                    name: cookie.name, value: executor.redactor.redactHeaderValue(cookie.value, name: .cookie),
                    detail: "\(cookie.domain)\(cookie.path)")
            }
            return .shows(.listing(Listing(kind: .cookies, items: items, off: !executor.session.settings.cookies)))
        case .clear: executor.cookieJar.removeAll()
        case .on: executor.session.settings.cookies = true
        case .off: executor.session.settings.cookies = false
        }
        return .done
    }
}
