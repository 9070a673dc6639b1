@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// `show [request|response|#N|session|headers on|off]`: the request as it would be sent, a
/// response again, or the whole session.
struct ShowCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "show", synopsis: "show [request|response|#N|session|headers on|off] [> FILE]",
        summary: "preview the request (secrets masked) or show a response again",
        details: """
            `show #N > FILE` writes a response's body whole (JSON pretty-printed, secrets masked) to \
            FILE, however long: the prompt cuts bodies that print longer than 4 MiB.
            """,
        completion: .words(["request", "response", "session", "headers"]), group: .draft)

    enum Target: Equatable, Sendable {
        case request
        case response(Int?)
        case session
        case headers(Bool)
    }

    var target: Target
    /// `> FILE`: the response's body goes to this file instead of the screen.
    var file: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        // `show #3 > out.json`: the redirection is read first, then the target before it.
        var file: String?
        if let arrow = arguments.raw.firstIndex(of: ">") {
            var rest = Arguments(
                raw: arguments.raw[arguments.raw.index(after: arrow)...],
                column: arguments.column + arguments.raw.distance(from: arguments.raw.startIndex, to: arrow) + 1,
                command: arguments.command)
            file = try rest.single("a file after '>'").text
            arguments = Arguments(
                raw: arguments.raw[..<arrow], column: arguments.column, command: arguments.command)
        }
        let target = try show(&arguments)
        if file != nil, case .request = target {
            throw CommandError("only a response's body can be written to a file", hint: "show #N > FILE")
        }
        if file != nil, case .session = target {
            throw CommandError("only a response's body can be written to a file", hint: "show #N > FILE")
        }
        return ShowCommand(target: target, file: file)
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch target {
        case .request:
            let prepared = try await executor.prepare(executor.session.draft, preview: true)
            var tokenFetchedOnSend = false
            if case .oauth2ClientCredentials = executor.session.auth { tokenFetchedOnSend = true }
            return .shows(.request(RequestPreview(request: prepared, tokenFetchedOnSend: tokenFetchedOnSend)))
        case .response(let number):
            let entry = try executor.session.responses.entry(number)
            guard let file else { return .shows(.response(executor.responseOutput(entry))) }
            let path = Executor.expandTilde(try executor.session.variables.expand(file))
            let size = try Self.writeBody(of: entry.response, to: path, redactor: executor.redactor)
            return .shows(
                .notice(Notice(text: "wrote the body of #\(entry.number) to \(path) (\(ByteCount.format(size)))")))
        case .session:
            return .shows(.listing(Self.session(executor)))
        case .headers(let on):
            executor.session.settings.showHeaders = on
            return .done
        }
    }

    /// The body, secrets masked, JSON pretty-printed as it streams (a small body that prints
    /// huge never sits in memory whole), written atomically; returns the bytes written.
    private static func writeBody(of response: NetworkResponse<Data>, to path: String, redactor: Redactor) throws -> Int
    {
        let body = redactor.redact(bytes: response.body)
        var size = 0
        do {
            let json = MediaType.isJSON(response.contentType) || BodyText.startsLikeJSON(body)
            do {
                guard json else { throw CancellationError() }
                try AtomicFile.write(to: path) { emit in
                    let result: Result<Void, JSONError> = body.withUnsafeBytes { raw in
                        do throws(JSONError) {
                            try JSONFormatter.format(raw.bindMemory(to: UInt8.self), options: .lenient) { block in
                                size += block.count
                                _ = emit(UnsafeRawBufferPointer(block))
                            }
                            return .success(())
                        } catch {
                            return .failure(error)
                        }
                    }
                    try result.get()
                }
            } catch is JSONError, is CancellationError {
                // Not JSON after all (or not JSON at all): the bytes as they came.
                try AtomicFile.write(body, to: path)
                size = body.count
            }
        } catch let error as POSIXError {
            let reason = String(cString: strerror(error.code.rawValue)).lowercased()
            throw CommandError("cannot write to \(path): \(reason)", hint: "the file as it was is unchanged")
        }
        return size
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
