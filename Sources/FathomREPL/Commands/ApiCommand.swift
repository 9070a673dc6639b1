import FathomHTTP

/// `api [share URL | unshare URL]`: the APIs the session talks to, and sharing one's state with
/// another origin on purpose (see ``API``).
struct ApiCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "api", synopsis: "api [share URL | unshare URL]",
        summary: "list the APIs (one per origin) and what each applies; share the base's API with another origin",
        details: """
            Default headers, `auth`, a description and `validate` belong to the API the base named when \
            they were set, and go only to its origin. `api share URL` gives requests to URL's origin the \
            base's API's state too (a gateway, a second host of the same API); `api unshare URL` stops it. \
            `base URL` switches APIs, `show session` lists what each holds.
            """,
        completion: .subcommands([.init("share", then: .none), .init("unshare", then: .none)]), group: .session)

    enum Action: Equatable, Sendable {
        case list
        case share(String)
        case unshare(String)
    }

    var action: Action

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        guard let word = try arguments.optionalWord() else { return ApiCommand(action: .list) }
        switch word.quoted ? "" : word.text.lowercased() {
        case "share": return ApiCommand(action: .share(try arguments.single("a URL to share with").text))
        case "unshare": return ApiCommand(action: .unshare(try arguments.single("a URL").text))
        default: throw arguments.badChoice(word, ["share", "unshare"])
        }
    }

    var logKind: SessionLog.Kind? { action == .list ? nil : .setting }

    var line: String {
        switch action {
        case .list: "api"
        case .share(let url): "api share " + Quoting.word(url)
        case .unshare(let url): "api unshare " + Quoting.word(url)
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch action {
        case .list:
            let session = executor.session
            var items: [Listing.Item] = []
            for (index, api) in session.apis.enumerated() {
                items.append(
                    Listing.Item(
                        name: api.base, value: api.origin.description, detail: api.auth.kindName,
                        marked: index == session.current))
                // What it shares with, under it: those origins get its state too.
                for share in api.shared {
                    // The origin beside it only when the URL as written is not that origin already.
                    items.append(
                        Listing.Item(
                            name: "  shared with " + share.url,
                            value: share.url == share.origin.description ? nil : share.origin.description))
                }
            }
            return .shows(.listing(Listing(kind: .apis, items: items)))
        case .share(let url):
            let index = try executor.currentAPIIndex(for: "api share")
            let rules = executor.session.scopeRules
            // The URL's own origin, variables expanded (`api share {{gateway}}`); a path names none.
            let expanded = try executor.session.variables.expand(url)
            guard let origin = Origin(url: expanded) else {
                _ = try RequestURL(parsing: expanded)
                throw CommandError(.session, "'\(url)' is not an http(s) URL", hint: "api share https://host:port")
            }
            if let other = rules.api(for: origin), other == index {
                throw CommandError(.session, "\(origin) is the base's API already", hint: "`api` lists the APIs")
            }
            if !executor.session.apis[index].shared.contains(where: { $0.origin == origin }) {
                executor.session.apis[index].shared.append(API.Share(url: url, origin: origin))
            }
        case .unshare(let url):
            let index = try executor.currentAPIIndex(for: "api unshare")
            let origin = (try? executor.session.variables.expand(url)).flatMap { Origin(url: $0) }
            // Origins are read before the list changes: reading the session inside a closure that
            // changes it would be an overlapping access (a crash, not an error).
            let shared = executor.session.apis[index].shared
            let kept = shared.filter { $0.origin != origin && $0.url != url }
            guard kept.count < shared.count else {
                throw CommandError(
                    .session, "the base's API is not shared with '\(url)'", hint: "`show session` lists what is")
            }
            executor.session.apis[index].shared = kept
        }
        return .done
    }
}
