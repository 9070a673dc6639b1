@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// Turns outputs into text for a terminal (colored) or a script (plain). Every secret the
/// session knows is masked here, once, on the whole text — except a value `reveal` was asked for.
struct OutputRenderer: Sendable {
    let palette: Palette
    let redactor: Redactor
    private let errors = ErrorRenderer()

    init(palette: Palette, redactor: Redactor) {
        self.palette = palette
        self.redactor = redactor
    }

    func render(_ output: Output) -> RenderedOutput {
        switch output {
        case .revealed(_, let value):
            // Asked for by name: the one place a secret is printed as it is.
            return RenderedOutput(text: value + "\n")
        case .failure(let failure):
            return RenderedOutput(text: masked(palette.red(errors.line(failure))), stream: .standardError)
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

    /// Masked, ending in a line break (an empty text is an empty line).
    private func masked(_ text: String) -> String {
        let masked = redactor.redact(text)
        return masked.hasSuffix("\n") ? masked : masked + "\n"
    }

    private func unmasked(_ output: Output) -> (String, pageable: Bool) {
        switch output {
        case .response(let response):
            let renderer = ResponseRenderer(
                palette: palette, decoder: response.decoder, showHeaders: response.showHeaders, redactor: redactor)
            return (renderer.render(response.response, number: response.number, schema: response.schema), true)
        case .request(let preview): return (request(preview), true)
        case .listing(let listing): return (self.listing(listing), false)
        case .value(_, let value): return (value, false)
        case .inspection(let inspection):
            guard !inspection.nodes.isEmpty else {
                return (palette.dim("no match for \(inspection.expression) in #\(inspection.number)"), false)
            }
            return (self.inspection(inspection), true)
        case .diff(let diff): return (self.diff(diff), true)
        case .expectation(let expectation): return (palette.green("✓ ") + expectation.line, false)
        case .capture(let capture):
            let value = capture.secret ? Redactor.masked(capture.value) + palette.dim("  (secret)") : capture.value
            return (palette.cyan(capture.name) + " = " + value, false)
        case .notice(let notice):
            let text = notice.style == .aside ? palette.dim(notice.text) : notice.text
            return (text + (notice.aside.map(palette.dim) ?? ""), false)
        case .help(let spec): return help(spec)
        case .operation(let detail): return (operation(detail), true)
        case .revealed, .failure: return ("", false)
        }
    }

    // MARK: - Pieces

    /// `describe`: the operation, its parameters, body, responses and security.
    private func operation(_ detail: OperationDetail) -> String {
        var lines = [palette.bold(detail.title) + (detail.operationID.map { "  " + palette.cyan($0) } ?? "")]
        if detail.deprecated { lines.append(palette.red("deprecated")) }
        if let summary = detail.summary { lines.append(summary) }
        if let description = detail.description, description != detail.summary {
            lines.append(palette.dim(description.trimmingCharacters(in: .whitespacesAndNewlines)))
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
                lines.append(line)
            }
        }
        if !detail.body.isEmpty {
            lines.append("")
            lines.append(palette.bold("body") + (detail.bodyRequired ? " (required)" : " (optional)"))
            for content in detail.body { lines.append("  \(palette.dim(content.mediaType))  \(content.schema)") }
        }
        if !detail.responses.isEmpty {
            lines.append("")
            lines.append(palette.bold("responses"))
            for response in detail.responses {
                lines.append("  " + palette.bold(response.status) + (response.description.map { "  " + $0 } ?? ""))
                for content in response.content {
                    lines.append("      \(palette.dim(content.mediaType))  \(content.schema)")
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
        for field in redactor.redact(prepared.headers) {
            text += "\(field.name.rawName): \(field.value)\n"
        }
        if preview.tokenFetchedOnSend {
            text += palette.dim("Authorization: Bearer (OAuth2 token, fetched when sent)") + "\n"
        }
        switch prepared.body {
        case .bytes(let data):
            let renderer = ResponseRenderer(palette: palette, decoder: .auto, showHeaders: false, redactor: redactor)
            text += "\n" + renderer.renderBody(data, contentType: prepared.headers[.contentType])
        case .file(let path, let length):
            text += "\n" + palette.dim("<\(path), \(ByteCount.format(length))>") + "\n"
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
            text += formatted
            if !complete {
                let how = "narrow the expression, or `show #\(inspection.number) > FILE` for the whole body"
                return text + palette.dim("… cut at \(ByteCount.format(limit)) of output: \(how)")
            }
        }
        return text
    }

    private func listing(_ listing: Listing) -> String {
        let items = listing.items
        guard !items.isEmpty else { return listing.empty }
        let lines: [String]
        switch listing.kind {
        case .query: lines = items.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }
        case .headers: lines = items.map { "\($0.name): \($0.value ?? "")" }
        case .defaults: lines = items.map { "\($0.name) \($0.value ?? "")" }
        case .variables:
            let width = items.map(\.name.count).max() ?? 0
            lines = items.map { item in
                let padded = item.name.padding(toLength: width, withPad: " ", startingAt: 0)
                return "\(palette.cyan(padded)) = \(item.value ?? "")" + (item.marked ? palette.dim("  (secret)") : "")
            }
        case .environments:
            lines = items.map { ($0.marked ? "* " : "  ") + $0.name + ($0.detail.map { palette.dim("  \($0)") } ?? "") }
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
                guard let id = item.value else { return palette.cyan(name) + "  " + palette.dim(item.detail ?? "") }
                return palette.bold(name) + "  " + id.padding(toLength: idWidth, withPad: " ", startingAt: 0) + "  "
                    + palette.dim(item.detail ?? "")
            }
        case .coverage:
            let width = items.map(\.name.count).max() ?? 0
            lines = items.map { item in
                let mark = item.marked ? palette.green("✓ ") : palette.dim("· ")
                let seen = item.value.map { "seen \($0)" } ?? "not called"
                return mark + item.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + seen
                    + palette.dim("  (\(item.detail ?? ""))")
            }
        case .session:
            lines = items.map { $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + ($0.value ?? "") }
        case .responses:
            let width = (items.last?.name.count ?? 1)
            lines = items.map { item in
                guard let response = item.response?.response else { return item.name }
                return [
                    palette.bold(item.name.padding(toLength: width, withPad: " ", startingAt: 0)),
                    response.request.method.rawValue, item.value ?? "", palette.status(response.status),
                    palette.dim(response.timing.total.shortDescription),
                    palette.dim(ByteCount.format(response.body.count)),
                ].joined(separator: " ")
            }
        }
        return lines.joined(separator: "\n") + (listing.footer.map { palette.dim("\n" + $0) } ?? "")
    }

    private func diff(_ diff: ResponseDiff) -> String {
        let a = diff.old
        let b = diff.new
        var text =
            palette.bold("#\(a.number)") + " \(a.response.request.method) \(a.shownPath) → "
            + palette.bold("#\(b.number)") + " \(b.response.request.method) \(b.shownPath)\n"
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
        case .json(let json): text += json.tree(colors: palette.enabled)
        case .text(let lines): text += lines.unified(colors: palette.enabled)
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
            var text = palette.bold(spec.synopsis) + "\n  " + spec.summary
            if !spec.details.isEmpty { text += "\n  " + spec.details }
            if !spec.aliases.isEmpty { text += "\n  also: " + spec.aliases.joined(separator: ", ") }
            return (text, false)
        }
        var text = ""
        for group in CommandSpec.Group.allCases {
            text += palette.bold(group.rawValue) + "\n"
            for spec in CommandRegistry.all where spec.group == group {
                text +=
                    "  " + palette.cyan(spec.name.padding(toLength: 10, withPad: " ", startingAt: 0)) + spec.summary
                    + "\n"
            }
        }
        text += palette.dim("`help COMMAND` for one command; {{name}} expands variables in every argument.")
        return (text, true)
    }
}
