@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// `show [request|response|#N|@ID|session|headers on|off]`: the request as it would be sent, a
/// response again (this session's, or one the archive kept), or the whole session.
struct ShowCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "show", synopsis: "show [request|response|#N|@ID|session|headers on|off] [> FILE]",
        summary: "preview the request (secrets masked) or show a response again",
        details: """
            `show request` labels each header with where it comes from (the draft, the API's defaults or \
            auth, the cookie jar) and names the API whose state the request gets. `show session` lists the \
            APIs and what each applies. `show #N > FILE` writes a response's body whole (JSON pretty-printed, secrets masked) to \
            FILE, however long: the prompt cuts bodies that print longer than 4 MiB. `show @ID` shows a response \
            the archive kept, from this session or an earlier one (`responses --all` lists them), masked as it was.
            """,
        completion: .words(["request", "response", "session", "headers"]), group: .draft)

    enum Target: Equatable, Sendable {
        case request
        case response(ResponseReference?)
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
            throw CommandError(.session, "only a response's body can be written to a file", hint: "show #N > FILE")
        }
        if file != nil, case .session = target {
            throw CommandError(.session, "only a response's body can be written to a file", hint: "show #N > FILE")
        }
        return ShowCommand(target: target, file: file)
    }

    var logKind: SessionLog.Kind? {
        if case .headers = target { return .setting }
        return nil
    }

    var line: String {
        var writer = LineWriter("show")
        switch target {
        case .request: writer.raw("request")
        case .response(nil): writer.raw("response")
        case .response(let reference?): writer.raw(reference.description)
        case .session: writer.raw("session")
        case .headers(let on): writer.raw("headers \(on ? "on" : "off")")
        }
        if let file {
            writer.raw(">")
            writer.word(file)
        }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch target {
        case .request:
            return .shows(.request(try await executor.preview(executor.session.draft, shownOnly: true)))
        case .response(let reference):
            if file == nil, reference?.number != nil || reference == nil,
                let batch = executor.record.responses.exchange(reference?.number, as: BatchSummary.self)
            {
                return .shows(.batch(batch.exchange))
            }
            let entry: ResponseHistory.Entry
            switch try executor.read(reference) {
            case .response(let read): entry = read
            case .document(let number, let archived, _, let document) where file == nil:
                // Any other exchange whole, as `inspect #N $` reads it.
                let nodes = try JSONPath("$").query(document)
                return .shows(
                    .inspection(
                        Inspection(number: number, archived: archived, expression: "$", nodes: nodes, showPaths: false))
                )
            case .document(_, let archived?, let title, _):
                throw CommandError(
                    .session, "@\(archived) is \(title), not a response",
                    hint: "`show @\(archived)` shows it; only a response's body is written to a file")
            case .document:
                // `show #N > FILE` of a batch or a conversation: what reading it as a response says.
                entry = try executor.record.responses.entry(reference?.number)
            }
            guard let file else {
                return .shows(.response(executor.responseOutput(entry, checked: entry.archived == nil)))
            }
            let path = executor.resolvePath(try executor.session.variables.expand(file))
            let size = try Self.writeBody(of: entry.response, to: path, redactor: executor.redactor)
            return .shows(.event(.wroteBody(response: entry.number, archived: entry.archived, path: path, bytes: size)))
        case .session:
            return .shows(.session(Self.session(executor)))
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
            throw CommandError(.file, .cannotWrite(path: path, reason: reason), hint: "the file as it was is unchanged")
        }
        return size
    }

    private static func session(_ executor: isolated Executor) -> SessionOverview {
        let session = executor.session
        let apis = session.apis.enumerated().map { index, api in
            SessionOverview.APIState(
                base: api.base, origin: api.origin.description, current: index == session.current,
                auth: api.auth == .none ? nil : executor.shown.auth(api.auth),
                defaultHeaders: api.defaultHeaders.map { ($0.name, executor.shown.headerValue($0)) },
                defaultQuery: api.defaultQuery.map { ($0.name, $0.value) }, spec: api.spec?.source,
                graphQL: api.graphQL.map { "\($0.path) (schema \($0.schema?.source ?? "none"))" },
                grpc: api.grpc.map { service in
                    let count = service.descriptors.services.count
                    return "\(count) service\(count == 1 ? "" : "s") (from \(service.descriptors.source))"
                },
                validation: api.validation.rawValue, shared: api.shared.map(\.url),
                baseFromDescription: api.baseFromDescription)
        }
        let variables = session.variables.names.map { name in
            SessionOverview.Variable(
                name: name, value: executor.shown.value(of: name), secret: session.variables.isSecret(name))
        }
        let settings = session.settings
        return SessionOverview(
            apis: apis, environment: session.currentEnvironment, variables: variables,
            decoder: settings.decoder.rawValue,
            log: .log(level: settings.logDetail.rawValue, file: settings.logFile), timeout: settings.timeout,
            redirects: settings.redirectLimit, insecure: settings.insecure, proxy: settings.proxy,
            cookies: settings.cookies ? executor.cookieJar.cookies.count : nil, pager: settings.pager.rawValue,
            responsesKept: executor.record.responses.entries.count, lastResponse: executor.record.responses.lastNumber)
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
                throw CommandError(.parse, "expected on or off", column: a.column, hint: "show headers on|off")
            }
            return .headers(on)
        default:
            if word.text.hasPrefix("#") || word.text.hasPrefix("@"),
                let reference = try CommandParser.responseReference(word)
            {
                try a.end()
                return .response(reference)
            }
            throw a.badChoice(word, ["request", "response", "session", "headers", "#N", "@ID"])
        }
    }
}
