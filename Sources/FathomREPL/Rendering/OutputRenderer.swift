@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// Turns outputs into text for a terminal (colored) or a script (plain). Every secret the
/// session knows is masked here, once, on the whole text — except a value `reveal` was asked for.
struct OutputRenderer: Sendable {
    let palette: Palette
    let redactor: Redactor
    /// The terminal's width that sentences wrap to at blanks; 0 does not wrap (scripts, files).
    var width = 0
    private let errors = ErrorRenderer()

    init(palette: Palette, redactor: Redactor, width: Int = 0) {
        self.palette = palette
        self.redactor = redactor
        self.width = width
    }

    func render(_ output: Output) -> RenderedOutput {
        switch output {
        case .revealed(_, let value):
            // Asked for by name: the one place a secret is printed unmasked (its control
            // characters still visible).
            return RenderedOutput(text: TerminalText.finish(TerminalText.visible(value) + "\n"))
        case .failure(let failure):
            return RenderedOutput(text: masked(palette.red(errors.line(failure))), stream: .standardError)
        case .webSocket(let output):
            let (text, error) = WebSocketRenderer(palette: palette).render(output)
            return RenderedOutput(text: masked(text), stream: error ? .standardError : .standardOutput)
        case .grpcStream(let output):
            return RenderedOutput(text: masked(GRPCStreamRenderer(palette: palette).render(output)))
        case .expectation(let expectation) where !expectation.result.passed:
            let result = expectation.result
            let line =
                (expectation.location.map { "\($0): " } ?? "")
                + "✗ \(expectation.line) — expected \(result.expected), got \(result.actual)"
            return RenderedOutput(text: masked(palette.red(line)), stream: .standardError)
        default:
            let (text, pageable) = unmasked(output)
            return RenderedOutput(text: masked(text), pageable: pageable)
        }
    }

    /// Masked, ending in a line break (an empty text is an empty line), finished for the terminal.
    private func masked(_ text: String) -> String {
        let masked = redactor.redact(text)
        return TerminalText.finish(masked.hasSuffix("\n") ? masked : masked + "\n")
    }

    private func unmasked(_ output: Output) -> (String, pageable: Bool) {
        switch output {
        case .response(let response):
            let renderer = ResponseRenderer(
                palette: palette, decoder: response.decoder, showHeaders: response.showHeaders, redactor: redactor)
            if response.stream != nil
                || (response.decoder == .auto && StreamFormat(contentType: response.response.contentType) != nil)
            {
                return (streamed(response, renderer), response.stream?.shownLive != true)
            }
            return (
                renderer.render(
                    response.response, label: response.label, schema: response.schema,
                    graphQLErrors: response.graphQLErrors ?? [], grpc: response.grpc), true
            )
        case .streamHead(let head): return (StreamRenderer(palette: palette, redactor: redactor).head(head), false)
        case .streamEvent(let event): return (StreamRenderer(palette: palette, redactor: redactor).event(event), false)
        case .batch(let summary): return (BatchRenderer(palette: palette, redactor: redactor).render(summary), true)
        case .request(let preview): return (request(preview), true)
        case .listing(let listing): return (self.listing(listing), false)
        case .setting(let setting): return (self.setting(setting.name, setting.value), false)
        case .export(let export): return (export.text, false)
        case .session(let overview): return (session(overview), true)
        case .inspection(let inspection):
            guard !inspection.nodes.isEmpty else {
                return (palette.dim("no match for \(inspection.expression) in \(inspection.label)"), false)
            }
            return (self.inspection(inspection), true)
        case .diff(let diff): return (self.diff(diff), true)
        case .expectation(let expectation): return (palette.green("✓ ") + expectation.line, false)
        case .capture(let capture):
            let value = capture.secret ? Redactor.masked(capture.value) + palette.dim("  (secret)") : capture.value
            return (palette.cyan(capture.name) + " = " + value, false)
        case .event(let event): return (self.event(event), false)
        case .help(let spec): return help(spec)
        case .operation(let detail): return (operation(detail), true)
        case .revealed, .failure, .webSocket, .grpcStream: return ("", false)
        }
    }

    // MARK: - Pieces

    /// A streamed response: its status line with how the stream ended — alone when its events
    /// were shown as they came, else with its headers and events from the body as kept.
    private func streamed(_ output: ResponseOutput, _ renderer: ResponseRenderer) -> String {
        let streams = StreamRenderer(palette: palette, redactor: redactor)
        let response = output.response
        var line = renderer.statusLine(response, label: output.label, schema: output.schema, grpc: output.grpc)
        if let summary = output.stream { line += palette.dim(" · ") + streams.ending(summary) }
        var text = line + "\n"
        // Each event or line that breaks the description's `itemSchema`, at `$[i]`.
        if let schema = output.schema { text += renderer.violations(schema) }
        if let call = output.grpc { text += renderer.grpcStatus(call) }
        if output.stream?.shownLive == true { return text }
        if output.showHeaders {
            for field in redactor.redact(response.headers) {
                text += palette.dim("\(field.name.rawName): \(field.value)") + "\n"
            }
        }
        let events = streams.events(of: output.parsedStream ?? ParsedStream(response))
        if !events.isEmpty { text += (output.showHeaders ? "\n" : "") + events }
        return text
    }

    /// `describe`: the operation, its parameters, body, responses and security.
    private func operation(_ detail: OperationDetail) -> String {
        var lines = [palette.bold(detail.title) + (detail.operationID.map { "  " + palette.cyan($0) } ?? "")]
        if detail.deprecated { lines.append(palette.red("deprecated")) }
        if let summary = detail.summary { lines.append(TextWrap.wrap(summary, width: width)) }
        if let description = detail.description, description != detail.summary {
            lines.append(
                palette.dim(TextWrap.wrap(description.trimmingCharacters(in: .whitespacesAndNewlines), width: width)))
        }
        if !detail.parameters.isEmpty {
            lines.append("")
            lines.append(palette.bold("parameters"))
            let nameWidth = detail.parameters.map { $0.name.count + ($0.required ? 1 : 0) }.max() ?? 0
            let typeWidth = detail.parameters.map(\.type.count).max() ?? 0
            for parameter in detail.parameters {
                let name = (parameter.name + (parameter.required ? "*" : ""))
                    .padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                var line =
                    "  " + parameter.location.padding(toLength: 6, withPad: " ", startingAt: 0) + " "
                    + palette.cyan(name) + "  "
                    + parameter.type.padding(toLength: min(typeWidth, 40), withPad: " ", startingAt: 0)
                if let value = parameter.defaultValue { line += palette.dim("  default \(value)") }
                if parameter.deprecated { line += palette.red("  deprecated") }
                if let text = parameter.description?.split(separator: "\n").first { line += palette.dim("  " + text) }
                lines.append(TextWrap.wrap(line, width: width, indent: String(repeating: " ", count: 10)))
            }
        }
        if !detail.body.isEmpty {
            lines.append("")
            lines.append(palette.bold("body") + (detail.bodyRequired ? " (required)" : " (optional)"))
            for content in detail.body {
                // Wrapped at blanks, as every line here: the terminal would break a schema mid-word.
                lines.append(
                    TextWrap.wrap(
                        "  \(palette.dim(content.mediaType))  \(content.schema)", width: width, indent: "    "))
            }
        }
        if !detail.responses.isEmpty {
            lines.append("")
            lines.append(palette.bold("responses"))
            for response in detail.responses {
                lines.append(
                    TextWrap.wrap(
                        "  " + palette.bold(response.status) + (response.description.map { "  " + $0 } ?? ""),
                        width: width, indent: "      "))
                for content in response.content {
                    lines.append(
                        TextWrap.wrap(
                            "      \(palette.dim(content.mediaType))  \(content.schema)", width: width,
                            indent: "        "))
                }
            }
        }
        if let security = detail.security {
            lines.append("")
            let text = security.map { $0.isEmpty ? "none" : $0.joined(separator: " + ") }.joined(separator: " or ")
            lines.append(palette.bold("security") + "  " + (text.isEmpty ? "none" : text))
        }
        return lines.joined(separator: "\n")
    }

    private func request(_ preview: RequestPreview) -> String {
        let prepared = preview.request
        var text = palette.bold("\(prepared.method) \(prepared.url)") + "\n"
        let fields = Array(redactor.redact(prepared.headers))
        let width = fields.map { $0.name.rawName.count + $0.value.count + 2 }.max() ?? 0
        for (index, field) in fields.enumerated() {
            let line = "\(field.name.rawName): \(field.value)"
            guard index < preview.sources.count else {
                text += line + "\n"
                continue
            }
            let padding = String(repeating: " ", count: max(0, min(width, 70) - line.count) + 2)
            text += line + padding + palette.dim("(\(preview.sources[index].rawValue))") + "\n"
        }
        if preview.tokenFetchedOnSend {
            text += palette.dim("Authorization: Bearer (OAuth2 token, fetched when sent)") + "\n"
        }
        if let origin = preview.origin, preview.api == nil {
            text += palette.dim("(\(origin) is no API of this session: no defaults or credentials of one)") + "\n"
        }
        switch prepared.body {
        case .bytes(let data):
            let renderer = ResponseRenderer(palette: palette, decoder: .auto, showHeaders: false, redactor: redactor)
            text += "\n" + renderer.renderBody(data, contentType: prepared.headers[.contentType])
        case .file(let path, let length):
            text += "\n" + palette.dim("<\(path), \(ByteCount.format(length))>") + "\n"
        case .pieces(let pieces, _):
            // The text as it goes, each file by its name and size: read when sent, not here.
            text += "\n"
            for piece in pieces {
                switch piece {
                case .bytes(let data): text += String(decoding: data, as: UTF8.self)
                case .file(let path, let length, _): text += palette.dim("<\(path), \(ByteCount.format(length))>")
                }
            }
            text += "\n"
        case nil:
            break
        }
        return text
    }

    /// The values a JSONPath selected, pretty-printed up to the display limit: each value goes
    /// through the streaming formatter from its compact form, so a value that prints huge (deep
    /// nesting) costs the limit, not its output.
    private func inspection(_ inspection: Inspection) -> String {
        let limit = ResponseRenderer.displayLimit
        var text = ""
        for node in inspection.nodes {
            if inspection.showPaths { text += palette.cyan(node.path.description) + "\n" }
            let compact = Data(node.value.formatted(.compactText).utf8)
            let room = max(0, limit - text.utf8.count)
            let (formatted, complete) =
                (try? JSONFormatter.formatted(compact, as: palette.json, limit: room))
                ?? (String(decoding: compact, as: UTF8.self) + "\n", true)
            text += TerminalText.adopting(formatted)
            if !complete {
                let how = "narrow the expression, or `show \(inspection.label) > FILE` for the whole body"
                return text + palette.dim("… cut at \(ByteCount.format(limit)) of output: \(how)")
            }
        }
        return text
    }

    /// What an empty listing of each kind means.
    private func empty(_ listing: Listing) -> String {
        switch listing.kind {
        case .query: "no query items"
        case .headers: "no draft headers"
        case .defaults:
            listing.source == nil ? "no defaults (and no base URL: defaults belong to an API)" : "no defaults"
        case .variables: "no variables — `set NAME = VALUE` or `secret NAME`"
        case .environments: "no environments — write them in \(listing.source ?? "fathom.env.json")"
        case .history: ""
        case .cookies: listing.off ? "the cookie jar is off" : "no cookies"
        case .mocks: "no mocks"
        case .volatile: "no volatile fields — `volatile $.updatedAt`"
        case .responses: "no responses yet — `send` or `get PATH`"
        case .paths: "nothing under \(listing.source ?? "/")"
        case .coverage: "the description has no operations"
        case .apis: "no APIs yet — `base URL` names one"
        case .problems: "no structure problems in \(listing.source ?? "the description")"
        case .schema: "\(listing.source ?? "the type") has nothing to list"
        case .services: "\(listing.source ?? "the server") has nothing to list"
        case .archive: listing.source.map { "none: \($0)" } ?? "the response archive is empty"
        }
    }

    private func listing(_ listing: Listing) -> String {
        let items = listing.items
        guard !items.isEmpty else { return empty(listing) }
        var footer: String?
        var lines: [String]
        switch listing.kind {
        case .query: lines = items.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }
        case .headers: lines = items.map { "\($0.name): \($0.value ?? "")" }
        case .defaults:
            lines = items.map { item in
                item.detail == "query"
                    ? "query \(item.name)\(item.value.map { "=\($0)" } ?? "")"
                    : "header \(item.name): \(item.value ?? "")"
            }
            footer = listing.source.map { "(for \($0))" }
        case .variables:
            let width = items.map(\.name.count).max() ?? 0
            lines = items.map { item in
                let padded = item.name.padding(toLength: width, withPad: " ", startingAt: 0)
                return "\(palette.cyan(padded)) = \(item.value ?? "")" + (item.marked ? palette.dim("  (secret)") : "")
            }
        case .environments:
            lines = items.map { ($0.marked ? "* " : "  ") + $0.name + ($0.detail.map { palette.dim("  \($0)") } ?? "") }
            footer = listing.source.map { "(from \($0))" }
        case .history:
            let width = String(items.count).count
            lines = items.map { item in
                String(repeating: " ", count: width - item.name.count) + "\(item.name)  "
                    + (item.value ?? "").replacingOccurrences(
                        of: "\n", with: "\n" + String(repeating: " ", count: width + 2))
            }
        case .cookies: lines = items.map { "\($0.name)=\($0.value ?? "")  " + palette.dim($0.detail ?? "") }
        case .mocks: lines = items.map { "\($0.name) → \($0.value ?? "")\($0.detail.map { " \($0)" } ?? "")" }
        case .volatile: lines = items.map(\.name)
        case .paths:
            let width = items.map(\.name.count).max() ?? 0
            let idWidth = items.compactMap(\.value).map(\.count).max() ?? 0
            lines = items.map { item in
                let name = item.name.padding(toLength: width, withPad: " ", startingAt: 0)
                guard let id = item.value else {
                    let count = item.count ?? 0
                    return palette.cyan(name) + "  " + palette.dim("\(count) operation\(count == 1 ? "" : "s")")
                }
                return palette.bold(name) + "  " + id.padding(toLength: idWidth, withPad: " ", startingAt: 0) + "  "
                    + palette.dim(item.detail ?? "")
            }
        case .coverage:
            let width = items.map(\.name.count).max() ?? 0
            lines = items.map { item in
                let mark = item.marked ? palette.green("✓ ") : palette.dim("· ")
                let seen = item.value.map { "seen \($0)" } ?? "not called"
                let declared = (item.detail ?? "").isEmpty ? "none" : item.detail ?? ""
                return mark + item.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + seen
                    + palette.dim("  (declared \(declared))")
            }
            footer = "\(items.filter(\.marked).count) of \(items.count) operations called"
        case .schema, .services:
            let width = min(items.map(\.name.count).max() ?? 0, 48)
            lines = items.map { item in
                palette.bold(item.name.padding(toLength: max(width, item.name.count), withPad: " ", startingAt: 0))
                    + "  "
                    + palette.cyan(item.value ?? "") + (item.detail.map { palette.dim("  — \($0)") } ?? "")
            }
            if let source = listing.source { lines.insert(palette.dim(source), at: 0) }
        case .problems:
            lines = items.map { item in palette.yellow(item.name) + ": " + (item.value ?? "") }
            footer =
                "\(items.count) structure problem\(items.count == 1 ? "" : "s") in \(listing.source ?? "the description"), in its order"
        case .apis:
            lines = items.map { item in
                (item.marked ? "* " : "  ") + item.name + (item.value.map { palette.dim("  \($0)") } ?? "")
                    + (item.detail.map { palette.dim("  auth \($0)") } ?? "")
            }
        case .archive:
            let width = items.map(\.name.count).max() ?? 1
            let when = items.map { ($0.detail ?? "").count }.max() ?? 0
            lines = items.map { item in
                palette.bold(item.name.padding(toLength: width, withPad: " ", startingAt: 0)) + "  "
                    + palette.dim((item.detail ?? "").padding(toLength: when, withPad: " ", startingAt: 0)) + "  "
                    + (item.value ?? "")
            }
            footer = listing.source.map { $0 + (items.contains(where: \.marked) ? "; #N: this session's" : "") }
        case .responses:
            let width = (items.last?.name.count ?? 1)
            lines = items.map { item in
                guard let entry = item.response else {
                    // Another kind of exchange: its line as it gave it.
                    let name = palette.bold(item.name.padding(toLength: width, withPad: " ", startingAt: 0))
                    return [name, item.value ?? ""].joined(separator: " ")
                }
                let response = entry.response
                var parts = [palette.bold(item.name.padding(toLength: width, withPad: " ", startingAt: 0))]
                if let call = entry.grpc {
                    // A gRPC call as it was made — `call pkg.Service/Method NOT_FOUND` — not HTTP/2's POST and 200.
                    let status = call.status.codeName
                    parts += ["call", call.method, call.status.isOK ? palette.green(status) : palette.red(status)]
                } else {
                    parts += [response.request.method.rawValue, item.value ?? "", palette.status(response.status)]
                }
                parts += [
                    palette.dim(response.timing.total.shortDescription),
                    palette.dim(ByteCount.format(response.body.count)),
                ]
                return parts.joined(separator: " ")
            }
        }
        return lines.joined(separator: "\n") + (footer.map { palette.dim("\n" + $0) } ?? "")
    }

    /// A setting as its command without arguments shows it.
    private func setting(_ name: String, _ value: SettingValue) -> String {
        switch value {
        case .text(let text): return text
        case .toggle(let on): return name == "record" ? "record \(on ? "on" : "off")" : (on ? "on" : "off")
        case .unset:
            switch name {
            case "base": return "no base URL — set one with `base URL`"
            case "proxy": return "from the environment (HTTP_PROXY, HTTPS_PROXY, NO_PROXY)"
            case "body": return "no body"
            case "auth": return "none (the API's)"
            default: return "not set"
            }
        case .duration(let duration): return duration?.shortDescription ?? "60 s (default)"
        case .count(let count): return count.map { "follow up to \($0)" } ?? "off"
        case .log(let level, let file): return level + (file.map { " → \($0)" } ?? "")
        }
    }

    /// `show session`: the APIs and what each applies, then variables and settings.
    private func session(_ overview: SessionOverview) -> String {
        var lines: [String] = []
        func add(_ name: String, _ value: String) {
            lines.append(name.padding(toLength: 10, withPad: " ", startingAt: 0) + value)
        }
        if overview.apis.isEmpty { add("api", palette.dim("none — `base URL` names one")) }
        for api in overview.apis {
            let origin = api.origin.flatMap { $0 == api.base ? nil : palette.dim("  \($0)") } ?? ""
            add(
                "api",
                (api.current ? palette.bold(api.base) : api.base) + origin
                    + (api.current ? palette.dim("  (the base)") : ""))
            add("  auth", api.auth ?? "none")
            for header in api.defaultHeaders { add("  default", "header \(header.name): \(header.value)") }
            for pair in api.defaultQuery { add("  default", "query \(pair.name)\(pair.value.map { "=\($0)" } ?? "")") }
            if let spec = api.spec { add("  spec", "\(spec) (validate \(api.validation))") }
            if let graphQL = api.graphQL { add("  graphql", graphQL) }
            if let grpc = api.grpc { add("  grpc", grpc) }
            for shared in api.shared { add("  shared", shared) }
        }
        if let environment = overview.environment { add("env", environment) }
        for variable in overview.variables { add("var", "\(variable.name) = \(variable.value)") }
        add("decoder", overview.decoder)
        add("log", setting("log", overview.log))
        add("timeout", setting("timeout", .duration(overview.timeout)))
        add("redirects", overview.redirects.map(String.init) ?? "off")
        add("insecure", overview.insecure ? "on" : "off")
        add("proxy", overview.proxy ?? "from the environment")
        add("cookies", overview.cookies.map { "on (\($0))" } ?? "off")
        add("pager", overview.pager)
        add("responses", "\(overview.responsesKept) kept, last #\(overview.lastResponse)")
        return lines.joined(separator: "\n")
    }

    /// What a command did or noticed, as a sentence.
    private func event(_ event: Event) -> String {
        switch event {
        case .oauth2Browser(let prompt):
            let minutes = Int(prompt.wait.components.seconds / 60)
            return
                (prompt.opened
                ? "opened in the browser — if it did not open, open:" : "open in a browser to authorize:")
                + "\n  " + prompt.url + "\n"
                + palette.dim(
                    "waiting up to \(minutes) min for it to come back to \(prompt.redirectURI) — Ctrl-C stops")
        case .oauth2DeviceCode(let prompt):
            return "enter the code " + palette.bold(prompt.userCode) + " at " + prompt.verificationURI
                + (prompt.complete.map { "\n  or open " + $0 } ?? "") + "\n"
                + palette.dim(
                    "waiting for it to be approved (the code expires in \(prompt.expiresIn / 60) min) — Ctrl-C stops")
        case .oauth2Authorized(let authorized):
            let from =
                switch authorized.source {
                case "browser": "in the browser"
                case "device": "with the device code"
                default: "from \(DotEnv.secretKey(for: authorized.source))"
                }
            var details: [String] = []
            if let scope = authorized.scope, !scope.isEmpty { details.append("scope \(scope)") }
            if let seconds = authorized.expiresIn {
                details.append("expires in \(DurationText.word(.milliseconds(Int64(seconds * 1000))))")
            }
            details.append(authorized.renews ? "renewed with its refresh token" : "no refresh token")
            return "authorized \(from) for \(authorized.api)"
                + palette.dim(" (" + details.joined(separator: ", ") + ")")
        case .requestWarning(let problem): return palette.dim("warning: \(problem)")
        case .specShown(nil): return palette.dim("no description loaded — `spec FILE|URL`")
        case .specShown(let summary?): return spec(summary)
        case .specLoaded(let summary, let base):
            return "loaded " + spec(summary)
                + (base.map {
                    palette.dim("\nbase \($0) (from the description's servers, until you set a base of your own)")
                } ?? "")
        case .graphQLShown(nil):
            return palette.dim("no GraphQL endpoint — `graphql /graphql` (or its path) sets it and loads its schema")
        case .graphQLShown(let summary?): return graphQL(summary)
        case .graphQLLoaded(let summary): return "loaded " + graphQL(summary)
        case .grpcShown(nil):
            return palette.dim("no gRPC services — `grpc HOST:PORT [--plaintext]` loads a server's by reflection")
        case .grpcShown(let summary?): return grpc(summary)
        case .grpcLoaded(let summary): return "loaded " + grpc(summary) + palette.dim(" — `ls` lists the methods")
        case .structureProblems(let title, let count, let first):
            return palette.yellow(
                "\(ErrorRenderer.cut(title)): OpenAPIKit's structure check found \(count) problem\(count == 1 ? "" : "s"), the first at \(ErrorRenderer.longWordsCut(first.description))"
            ) + palette.dim(" — `spec problems` lists them; `validate strict` refuses the operations they touch")
        case .wroteBody(let number, let archived, let path, let bytes):
            let label = archived.map { "@\($0)" } ?? "#\(number)"
            return "wrote the body of \(label) to \(path) (\(ByteCount.format(bytes)))"
        case .wroteHAR(let path, let entries):
            return "wrote \(entries) entr\(entries == 1 ? "y" : "ies") to \(path) (HAR 1.2)"
        case .recordingOn:
            return palette.dim("recording: responses from now on are written beside the file by `save FILE`")
        case .pasteExpected(let format):
            let what =
                switch format {
                case .curl: "the curl command: it ends where the command does"
                case .har: "the HAR log: it ends where its JSON does"
                case .postman: "the collection: it ends where its JSON does"
                }
            return palette.dim("paste \(what) (Ctrl-C to cancel)")
        case .importedIntoDraft(let source):
            return "imported \(source ?? "the pasted command") into the draft; `send` sends it"
        case .notImported(let note): return palette.dim("not imported: \(note)")
        case .importCancelled: return palette.dim("import cancelled: nothing was imported")
        case .curlURLs(let count, let sentInTurn):
            return palette.dim(
                sentInTurn
                    ? "the curl line has \(count) URLs: each is sent in turn, as curl does"
                    : "the line has \(count) URLs: the draft is the first")
        case .curlSettings(let lines):
            return palette.dim("from the curl line, for the session: " + lines.joined(separator: ", "))
        case .curlIgnored(let flags):
            return palette.dim("ignored (curl's own output and transfer): " + flags.joined(separator: " "))
        case .curlShellVariables(let names):
            return palette.dim(
                "sent as written, as curl would without a shell to expand it: "
                    + names.map { "$\($0)" }.joined(separator: ", "))
        case .exportTokenOnSend:
            return palette.dim("the OAuth2 token is fetched when Fathom sends; export #N to include it")
        case .saved(let saved):
            var text = "saved \(saved.requests) request\(saved.requests == 1 ? "" : "s") to \(saved.path)"
            if let recording = saved.recording {
                text +=
                    " and \(recording.responses) recorded response\(recording.responses == 1 ? "" : "s") to \(recording.path)"
            } else if saved.recordedNothing {
                text += palette.dim(" (nothing recorded: `record on` keeps the responses sent after it)")
            }
            if !saved.namedSecrets.isEmpty {
                let keys = saved.namedSecrets.map { "\($0) (\(DotEnv.secretKey(for: $0)))" }.joined(separator: ", ")
                text += "\n" + palette.dim("credentials typed into lines are saved by name only: \(keys)")
            }
            return text
        case .loaded(let path, let lines): return palette.dim("loaded \(path): \(lines) line\(lines == 1 ? "" : "s")")
        case .otherOrigin(let other):
            var stayed: [String] = []
            if let auth = other.auth { stayed.append("its auth (\(auth))") }
            if other.defaults > 0 { stayed.append("\(other.defaults) default\(other.defaults == 1 ? "" : "s")") }
            if other.description { stayed.append("its description's checks") }
            let list =
                stayed.count > 1 ? stayed.dropLast().joined(separator: ", ") + " and " + stayed.last! : stayed.joined()
            return palette.dim(
                "\(other.origin) is not \(other.api): \(list) stayed behind — `api share \(other.origin)` shares them")
        case .baseChanged(let change):
            var state: [String] = []
            if let auth = change.auth { state.append("auth (\(auth))") }
            if change.defaults > 0 { state.append("\(change.defaults) default\(change.defaults == 1 ? "" : "s")") }
            if let title = change.description { state.append("the description \(ErrorRenderer.cut(title))") }
            let list = Self.list(state)
            switch change.kind {
            case .moved:
                return palette.dim("\(list) moved from \(change.from) to \(change.to) with the base")
            case .stayed:
                return palette.dim(
                    "\(list) stayed with \(change.from) — `base \(change.base)` returns to them; "
                        + "`base --move URL` from there takes them along")
            }
        case .environmentSwitched(let switched):
            var parts: [String] = []
            if let base = switched.base { parts.append("base \(base)") }
            let plain = switched.variables.filter { !switched.secrets.contains($0) }
            if !plain.isEmpty { parts.append("variables " + plain.joined(separator: ", ")) }
            if !switched.secrets.isEmpty { parts.append("secrets " + switched.secrets.joined(separator: ", ")) }
            if !switched.removed.isEmpty {
                parts.append("no longer set: " + switched.removed.joined(separator: ", "))
            }
            let from = switched.previous.map { " (was \($0))" } ?? ""
            return "environment \(switched.name)\(from)"
                + (parts.isEmpty ? "" : palette.dim(": " + parts.joined(separator: " · ")))
        }
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        items.count > 1 ? items.dropLast().joined(separator: ", ") + " and " + items.last! : items.joined()
    }

    /// `Swagger Petstore 1.0.0 (OpenAPI 3.0.0, petstore.yaml): 3 operations on 2 paths`; a
    /// description split over files says how many more it read.
    private func grpc(_ summary: GRPCSummary) -> String {
        "gRPC \(summary.target) (from \(ErrorRenderer.cut(summary.source))): \(summary.services) service\(summary.services == 1 ? "" : "s"), \(summary.methods) method\(summary.methods == 1 ? "" : "s")"
    }

    private func graphQL(_ summary: GraphQLSummary) -> String {
        guard let counts = summary.counts, let source = summary.source else {
            return "GraphQL \(summary.endpoint) (no schema: operations are sent unchecked)"
        }
        func count(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
        return "GraphQL \(summary.endpoint) (schema from \(ErrorRenderer.cut(source))): "
            + [
                count(counts.types, "type", "types"), count(counts.queries, "query", "queries"),
                count(counts.mutations, "mutation", "mutations"),
                count(counts.subscriptions, "subscription", "subscriptions"),
            ].joined(separator: ", ")
    }

    private func spec(_ summary: SpecSummary) -> String {
        let others = summary.documents
        let files =
            others == 0 ? summary.source : "\(summary.source) and \(others) document\(others == 1 ? "" : "s") it names"
        // A title or version the size of a book is the description's doing: shown cut.
        let title = ErrorRenderer.cut(summary.title)
        let version = ErrorRenderer.cut(summary.version)
        return "\(title) \(version) (OpenAPI \(summary.openAPIVersion), \(files)): "
            + "\(summary.operations) operation\(summary.operations == 1 ? "" : "s") on \(summary.paths) path\(summary.paths == 1 ? "" : "s")"
    }

    private func diff(_ diff: ResponseDiff) -> String {
        let a = diff.old
        let b = diff.new
        var text =
            palette.bold(a.label) + " \(TerminalText.visible(a.title)) → " + palette.bold(b.label) + " "
            + TerminalText.visible(b.title) + "\n"
        if let status = diff.status {
            text += "status  \(palette.status(status.old)) → \(palette.status(status.new))\n"
        }
        if !diff.headers.isEmpty {
            text +=
                diff.headers.map { change in
                    let name = NetworkHeaders.Name(change.name)
                    let old = change.old.map { redactor.redactHeaderValue($0, name: name) } ?? ""
                    let new = change.new.map { redactor.redactHeaderValue($0, name: name) } ?? ""
                    switch change.kind {
                    case .changed:
                        return "\(palette.yellow("~")) \(change.name): \(palette.red(old)) → \(palette.green(new))"
                    case .removed: return palette.red("- \(change.name): \(old)")
                    case .added: return palette.green("+ \(change.name): \(new)")
                    }
                }.joined(separator: "\n") + "\n"
        }
        switch diff.body {
        case .json(let json): text += TerminalText.adopting(json.tree(colors: palette.enabled))
        case .text(let lines):
            // Painted here, line by line: the lines are outside text, and FathomJSON's colors
            // would be indistinguishable from escapes they hold.
            for line in lines.unified(colors: false).split(separator: "\n") {
                if line.hasPrefix("+") {
                    text += palette.green(String(line))
                } else if line.hasPrefix("-") {
                    text += palette.red(String(line))
                } else if line.hasPrefix("@@") {
                    text += palette.cyan(String(line))
                } else {
                    text += String(line)
                }
                text += "\n"
            }
        case .binary(let oldSize, let newSize):
            text += "bodies differ: \(ByteCount.format(oldSize)) → \(ByteCount.format(newSize)) (binary)\n"
        case nil: break
        }
        if diff.isEmpty {
            let what = diff.scope == .all ? "no differences" : "no differences in the \(diff.scope.rawValue)"
            text += palette.dim(what) + "\n"
        }
        if !diff.ignored.isEmpty {
            text += palette.dim("ignoring \(diff.ignored.joined(separator: ", "))") + "\n"
        }
        return text
    }

    private func help(_ spec: CommandSpec?) -> (String, pageable: Bool) {
        if let spec {
            var text =
                palette.bold(spec.synopsis) + "\n" + TextWrap.wrap("  " + spec.summary, width: width, indent: "  ")
            if !spec.details.isEmpty { text += "\n" + TextWrap.wrap("  " + spec.details, width: width, indent: "  ") }
            if !spec.aliases.isEmpty { text += "\n  also: " + spec.aliases.joined(separator: ", ") }
            return (text, false)
        }
        var text = ""
        let indent = String(repeating: " ", count: 12)
        for group in CommandSpec.Group.allCases {
            text += palette.bold(group.rawValue) + "\n"
            for spec in CommandRegistry.all where spec.group == group {
                let line =
                    "  " + palette.cyan(spec.name.padding(toLength: 10, withPad: " ", startingAt: 0)) + spec.summary
                text += TextWrap.wrap(line, width: width, indent: indent) + "\n"
            }
        }
        text += palette.dim("`help COMMAND` for one command; {{name}} expands variables in every argument.")
        return (text, true)
    }
}
