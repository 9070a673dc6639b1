@_spi(Fathom) import FathomHTTP
import FathomJSON
import FathomOpenAPI
import Foundation

/// `--output json`: each output as one JSON object on one line (NDJSON), for scripts that read
/// what Fathom did. Masked as everything else: secrets in text and JSON bodies, secret header
/// values, and binary bodies before they are encoded as base64.
struct JSONOutputRenderer: Sendable {
    let redactor: Redactor
    private let errors = ErrorRenderer()

    /// One line: the object and a line break.
    func render(_ output: Output) -> String {
        if case .revealed(let name, let value) = output {
            // Asked for by name: not masked, as at the prompt.
            return Self.line(.object([member("type", "revealed"), member("name", name), member("value", value)]))
        }
        return redactor.redact(Self.line(object(output)))
    }

    static func line(_ json: JSON) -> String {
        let text = json.formatted(.compactText)
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    private func object(_ output: Output) -> JSON {
        switch output {
        case .response(let output): return response(output)
        case .request(let preview):
            var members = [member("type", "request")] + request(preview.request)
            if preview.tokenFetchedOnSend {
                members.append(JSON.Member(key: "oauth2_token_on_send", value: .bool(true)))
            }
            return .object(members)
        case .listing(let listing):
            let items: [JSON] = listing.items.map { item in
                var members = [member("name", item.name)]
                if let value = item.value { members.append(member("value", value)) }
                if let detail = item.detail { members.append(member("detail", detail)) }
                if item.marked {
                    members.append(
                        JSON.Member(key: listing.kind == .variables ? "secret" : "current", value: .bool(true)))
                }
                if let entry = item.response {
                    members.append(JSON.Member(key: "number", value: .number(String(entry.number))))
                    members.append(member("method", entry.response.request.method.rawValue))
                    members.append(JSON.Member(key: "status", value: .number(String(entry.response.status.code))))
                }
                return .object(members)
            }
            return .object([
                member("type", "listing"), member("kind", listing.kind.rawValue),
                JSON.Member(key: "items", value: .array(items)),
            ])
        case .value(let name, let value):
            return .object([member("type", "value"), member("name", name), member("value", value)])
        case .inspection(let inspection):
            let matches: [JSON] = inspection.nodes.map { node in
                .object([member("path", node.path.description), JSON.Member(key: "value", value: node.value)])
            }
            return .object([
                member("type", "inspection"), JSON.Member(key: "number", value: .number(String(inspection.number))),
                member("expression", inspection.expression), JSON.Member(key: "matches", value: .array(matches)),
            ])
        case .diff(let diff): return self.diff(diff)
        case .expectation(let expectation):
            var members = [
                member("type", "expectation"), member("line", expectation.line),
                JSON.Member(key: "passed", value: .bool(expectation.result.passed)),
                member("expected", expectation.result.expected), member("actual", expectation.result.actual),
            ]
            members += location(expectation.location)
            return .object(members)
        case .capture(let capture):
            return .object([
                member("type", "capture"), member("name", capture.name),
                member("value", capture.secret ? Redactor.masked(capture.value) : capture.value),
                JSON.Member(key: "secret", value: .bool(capture.secret)),
            ])
        case .notice(let notice):
            return .object([member("type", "notice"), member("text", notice.text + (notice.aside ?? ""))])
        case .operation(let detail):
            var members = [member("type", "operation"), member("operation", detail.title)]
            if let id = detail.operationID { members.append(member("operationId", id)) }
            if let summary = detail.summary { members.append(member("summary", summary)) }
            let parameters: [JSON] = detail.parameters.map { parameter in
                .object([
                    member("in", parameter.location), member("name", parameter.name),
                    JSON.Member(key: "required", value: .bool(parameter.required)), member("schema", parameter.type),
                ])
            }
            members.append(JSON.Member(key: "parameters", value: .array(parameters)))
            func content(_ list: [OperationDetail.Content]) -> JSON {
                .array(list.map { .object([member("media_type", $0.mediaType), member("schema", $0.schema)]) })
            }
            if !detail.body.isEmpty {
                members.append(
                    JSON.Member(
                        key: "body",
                        value: .object([
                            JSON.Member(key: "required", value: .bool(detail.bodyRequired)),
                            JSON.Member(key: "content", value: content(detail.body)),
                        ])))
            }
            let responses: [JSON] = detail.responses.map { response in
                .object([
                    member("status", response.status), JSON.Member(key: "content", value: content(response.content)),
                ])
            }
            members.append(JSON.Member(key: "responses", value: .array(responses)))
            return .object(members)
        case .help(let spec):
            let specs = spec.map { [$0] } ?? CommandRegistry.all
            let commands: [JSON] = specs.map { spec in
                .object([member("name", spec.name), member("synopsis", spec.synopsis), member("summary", spec.summary)])
            }
            return .object([member("type", "help"), JSON.Member(key: "commands", value: .array(commands))])
        case .failure(let failure):
            var members = [member("type", "failure"), member("message", errors.message(failure.reason))]
            if case .command(let error) = failure.reason {
                members.append(member("reason", error.message))
                if let hint = error.hint { members.append(member("hint", hint)) }
                if let column = error.column {
                    members.append(JSON.Member(key: "column", value: .number(String(column))))
                }
            }
            members += location(failure.location)
            return .object(members)
        case .revealed: return .null
        }
    }

    private func response(_ output: ResponseOutput) -> JSON {
        let response = output.response
        var members = [
            member("type", "response"), JSON.Member(key: "number", value: .number(String(output.number))),
            member("method", response.request.method.rawValue), member("url", redactor.redact(response.url)),
            JSON.Member(key: "status", value: .number(String(response.status.code))),
            member("reason", response.status.reasonPhrase), member("protocol", response.httpVersion),
            JSON.Member(key: "headers", value: headers(response.headers)),
        ]
        members += body(response.body, contentType: response.contentType)
        let milliseconds =
            Double(response.timing.total.components.attoseconds) / 1e15
            + Double(response.timing.total.components.seconds) * 1000
        members.append(JSON.Member(key: "time_ms", value: .number(String(format: "%.3f", milliseconds))))
        if let schema = output.schema { members.append(JSON.Member(key: "schema", value: Self.schema(schema))) }
        return .object(members)
    }

    /// A schema check: the operation, whether it passed, each violation.
    static func schema(_ check: SchemaCheck) -> JSON {
        var members: [JSON.Member] = []
        if let operation = check.operation { members.append(JSON.Member(key: "operation", value: .string(operation))) }
        members.append(JSON.Member(key: "valid", value: .bool(check.passed)))
        members.append(
            JSON.Member(
                key: "violations",
                value: .array(
                    check.violations.map {
                        .object([
                            JSON.Member(key: "path", value: .string($0.path)),
                            JSON.Member(key: "message", value: .string($0.message)),
                        ])
                    })))
        return .object(members)
    }

    private func request(_ request: PreparedRequest) -> [JSON.Member] {
        var members = [
            member("method", request.method.rawValue), member("url", redactor.redact(request.url)),
            JSON.Member(key: "headers", value: headers(request.headers)),
        ]
        if case .bytes(let data) = request.body { members += body(data, contentType: request.headers[.contentType]) }
        if case .file(let path, _) = request.body { members.append(member("body_file", path)) }
        return members
    }

    private func headers(_ headers: NetworkHeaders) -> JSON {
        .array(redactor.redact(headers).map { .array([.string($0.name.rawName), .string($0.value)]) })
    }

    /// A JSON body as JSON, text as a string, anything else as base64 of its masked bytes.
    private func body(_ data: Data, contentType: String?) -> [JSON.Member] {
        guard !data.isEmpty else { return [JSON.Member(key: "body", value: .null)] }
        if let json = try? JSON(parsing: data) { return [JSON.Member(key: "body", value: json)] }
        if let text = BodyText.decode(data, contentType: contentType), BodyText.looksLikeText(text) {
            return [member("body", text)]
        }
        return [member("body", redactor.redact(bytes: data).base64EncodedString()), member("encoding", "base64")]
    }

    private func diff(_ diff: ResponseDiff) -> JSON {
        var members = [
            member("type", "diff"), JSON.Member(key: "old", value: .number(String(diff.old.number))),
            JSON.Member(key: "new", value: .number(String(diff.new.number))), member("scope", diff.scope.rawValue),
        ]
        if let status = diff.status {
            members.append(
                JSON.Member(
                    key: "status", value: .array([.number(String(status.old.code)), .number(String(status.new.code))])))
        }
        let headerChanges: [JSON] = diff.headers.map { change in
            let name = NetworkHeaders.Name(change.name)
            var members = [member("name", change.name)]
            if let old = change.old { members.append(member("old", redactor.redactHeaderValue(old, name: name))) }
            if let new = change.new { members.append(member("new", redactor.redactHeaderValue(new, name: name))) }
            return .object(members)
        }
        members.append(JSON.Member(key: "headers", value: .array(headerChanges)))
        switch diff.body {
        case .json(let json): members.append(JSON.Member(key: "patch", value: json.patch.json))
        case .text(let lines): members.append(member("unified", lines.unified(colors: false)))
        case .binary(let oldSize, let newSize):
            members.append(
                JSON.Member(key: "binary", value: .array([.number(String(oldSize)), .number(String(newSize))])))
        case nil: break
        }
        members.append(JSON.Member(key: "ignored", value: .array(diff.ignored.map(JSON.string))))
        members.append(JSON.Member(key: "same", value: .bool(diff.isEmpty)))
        return .object(members)
    }

    /// `FILE:LINE` as `file` and `line`.
    private func location(_ location: String?) -> [JSON.Member] {
        guard let location, let colon = location.lastIndex(of: ":"),
            let line = Int(location[location.index(after: colon)...])
        else { return location.map { [member("location", $0)] } ?? [] }
        return [member("file", String(location[..<colon])), JSON.Member(key: "line", value: .number(String(line)))]
    }

    private func member(_ key: String, _ value: String) -> JSON.Member { JSON.Member(key: key, value: .string(value)) }
}
