import FathomGraphQL
@_spi(Fathom) import FathomHTTP
import FathomJSON
import FathomOpenAPI
import Foundation

/// `--output json`: each output as one JSON object on one line (NDJSON), for scripts that read
/// what Fathom did. A documented interface: every object has a `type` and the `version` of the
/// format, its fields are values (never sentences to parse), and `docs/output.schema.json`
/// describes them (a test validates every line the end-to-end suite prints against it). Masked as
/// everything else: secrets in text and JSON bodies, secret header values, and binary bodies
/// before they are encoded as base64.
struct JSONOutputRenderer: Sendable {
    /// The format's version: a field is added in a minor change; a field removed or changed in
    /// meaning makes a new version.
    static let version = 1

    let redactor: Redactor
    private let errors = ErrorRenderer()

    /// One line: the object and a line break.
    func render(_ output: Output) -> String {
        if case .revealed(let name, let value) = output {
            // Asked for by name: not masked, as at the prompt.
            return Self.line(
                Self.versioned(.object([member("type", "revealed"), member("name", name), member("value", value)])))
        }
        return redactor.redact(Self.line(Self.versioned(object(output))))
    }

    /// The object with `version` after its `type`.
    static func versioned(_ json: JSON) -> JSON {
        guard case .object(var members) = json else { return json }
        members.insert(JSON.Member(key: "version", value: .number(String(version))), at: members.isEmpty ? 0 : 1)
        return .object(members)
    }

    static func line(_ json: JSON) -> String {
        let text = escapingC1(json.formatted(.compactText))
        return text.hasSuffix("\n") ? text : text + "\n"
    }

    /// `text` with the C1 control characters (U+0080–U+009F; U+009B is CSI to many terminals)
    /// written as `\u0080`…`\u009f`: JSON allows them raw, but a line of NDJSON read at a
    /// terminal must not drive it. They can stand only inside strings, where the escape means the same.
    static func escapingC1(_ text: String) -> String {
        var utf8 = text.utf8.makeIterator()
        var afterC2 = false
        var found = false
        while let byte = utf8.next() {
            if afterC2, (0x80...0x9F).contains(byte) {
                found = true
                break
            }
            afterC2 = byte == 0xC2
        }
        guard found else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0x80...0x9F).contains(scalar.value) {
                result.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private func object(_ output: Output) -> JSON {
        switch output {
        case .response(let output): return response(output)
        case .streamHead(let head):
            return .object([
                member("type", "stream_head"), JSON.Member(key: "status", value: .number(String(head.status.code))),
                member("reason", head.status.reasonPhrase), member("format", head.format.rawValue),
                JSON.Member(key: "headers", value: headers(head.headers)),
            ])
        case .streamEvent(let output):
            var members = [
                member("type", "stream_event"), JSON.Member(key: "index", value: .number(String(output.index))),
                member("format", output.format.rawValue),
            ]
            // A server-sent event's own fields, or a line's value as its data.
            let event = StreamDocument.json(output.event, format: output.format)
            if output.format == .serverSentEvents, case .object(let fields) = event {
                members += fields
            } else {
                members.append(JSON.Member(key: "data", value: event))
            }
            // As sent: `data` is read as JSON when it is JSON, so `"x"` and `x` read the same there.
            members.append(JSON.Member(key: "raw", value: .string(output.event.data)))
            if let elapsed = output.elapsed {
                members.append(JSON.Member(key: "ms", value: .number(Self.milliseconds(elapsed))))
            }
            if let violations = output.violations {
                members.append(JSON.Member(key: "schema", value: Self.schema(violations)))
            }
            return .object(members)
        case .webSocket(let output): return webSocket(output)
        case .grpcStream(let output): return grpcStream(output)
        case .batch(let summary):
            guard case .object(let members) = summary.json else { return summary.json }
            return .object([member("type", "batch")] + members)
        case .request(let preview):
            var members = [member("type", "request")] + request(preview.request)
            members.append(JSON.Member(key: "sources", value: .array(preview.sources.map { .string($0.rawValue) })))
            members.append(JSON.Member(key: "api", value: preview.api.map(JSON.string) ?? .null))
            if preview.tokenFetchedOnSend {
                members.append(JSON.Member(key: "oauth2_token_on_send", value: .bool(true)))
            }
            return .object(members)
        case .listing(let listing):
            let items: [JSON] = listing.items.map { item in
                var members = [member("name", item.name)]
                if let value = item.value { members.append(member("value", value)) }
                if let detail = item.detail { members.append(member("detail", detail)) }
                if let count = item.count { members.append(JSON.Member(key: "count", value: .number(String(count)))) }
                if item.marked {
                    let key =
                        switch listing.kind {
                        case .variables: "secret"
                        case .coverage: "called"
                        case .archive: "this_session"
                        default: "current"
                        }
                    members.append(JSON.Member(key: key, value: .bool(true)))
                }
                if let entry = item.response {
                    members.append(JSON.Member(key: "number", value: .number(String(entry.number))))
                    members.append(member("method", entry.response.request.method.rawValue))
                    members.append(JSON.Member(key: "status", value: .number(String(entry.response.status.code))))
                }
                return .object(members)
            }
            var members = [
                member("type", "listing"), member("kind", listing.kind.rawValue),
                JSON.Member(key: "items", value: .array(items)),
            ]
            if let source = listing.source { members.append(member("source", source)) }
            if listing.off { members.append(JSON.Member(key: "off", value: .bool(true))) }
            return .object(members)
        case .setting(let setting):
            return .object([member("type", "setting"), member("name", setting.name)] + Self.value(setting.value))
        case .export(let export):
            return .object([member("type", "export"), member("format", export.format), member("text", export.text)])
        case .session(let overview): return session(overview)
        case .event(let event): return .object([member("type", "event")] + self.event(event))
        case .inspection(let inspection):
            let matches: [JSON] = inspection.nodes.map { node in
                .object([member("path", node.path.description), JSON.Member(key: "value", value: node.value)])
            }
            var members = [
                member("type", "inspection"), JSON.Member(key: "number", value: .number(String(inspection.number))),
                member("expression", inspection.expression), JSON.Member(key: "matches", value: .array(matches)),
            ]
            if let archived = inspection.archived {
                members.append(JSON.Member(key: "archived", value: .number(String(archived))))
            }
            return .object(members)
        case .diff(let diff): return self.diff(diff)
        case .expectation(let expectation):
            var members = [
                member("type", "expectation"), member("text", expectation.line),
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
            var members = [
                member("type", "failure"), member("message", errors.message(failure.reason, advice: failure.advice)),
            ]
            members += Self.failureFields(failure.reason, advice: failure.advice)
            members += location(failure.location)
            if failure.location == nil, let line = failure.line {
                members.append(JSON.Member(key: "line", value: .number(String(line))))
            }
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
        if let archived = output.archived {
            members.append(JSON.Member(key: "archived", value: .number(String(archived))))
        }
        members += body(response.body, contentType: response.contentType)
        members.append(JSON.Member(key: "time_ms", value: .number(Self.milliseconds(response.timing.total))))
        if let schema = output.schema { members.append(JSON.Member(key: "schema", value: Self.schema(schema))) }
        if let errors = output.graphQLErrors {
            let list: [JSON] = errors.map { error in
                .object([
                    member("message", redactor.redact(error.message)),
                    JSON.Member(key: "path", value: error.path.map(JSON.string) ?? .null),
                    JSON.Member(key: "locations", value: .array(error.locations.map(JSON.string))),
                ])
            }
            members.append(JSON.Member(key: "graphql_errors", value: .array(list)))
        }
        if let call = output.grpc {
            members.append(
                JSON.Member(
                    key: "grpc",
                    value: .object([
                        member("method", call.method), member("kind", call.kind),
                        JSON.Member(key: "status", value: .number(String(call.status.code))),
                        member("status_name", call.status.codeName),
                        member("message", redactor.redact(call.status.message)),
                        JSON.Member(key: "trailers", value: headers(call.trailers)),
                        JSON.Member(key: "details", value: call.details ?? .null),
                    ])))
        }
        if let stream = output.stream {
            members.append(
                JSON.Member(
                    key: "stream",
                    value: .object([
                        member("format", stream.format.rawValue),
                        JSON.Member(key: "events", value: .number(String(stream.events))),
                        member("ending", Self.ending(stream.ending)),
                    ])))
        }
        return .object(members)
    }

    /// How a stream ended, as a word.
    static func ending(_ ending: StreamWatch.Ending) -> String {
        switch ending {
        case .complete: "complete"
        case .stopped: "limit"
        case .cancelled: "cancelled"
        case .timedOut: "timeout"
        case .tooLarge: "too_large"
        case .failed: "failed"
        }
    }

    /// A schema check: the operation, whether it passed, each violation.
    static func schema(_ check: SchemaCheck) -> JSON {
        var members: [JSON.Member] = []
        if let operation = check.operation { members.append(JSON.Member(key: "operation", value: .string(operation))) }
        return .object(members + schemaMembers(passed: check.passed, check.violations))
    }

    /// One item of a stream against its `itemSchema`: valid when it broke nothing.
    static func schema(_ violations: [SchemaViolation]) -> JSON {
        .object(schemaMembers(passed: violations.isEmpty, violations))
    }

    private static func schemaMembers(passed: Bool, _ violations: [SchemaViolation]) -> [JSON.Member] {
        var members: [JSON.Member] = []
        members.append(JSON.Member(key: "valid", value: .bool(passed)))
        members.append(
            JSON.Member(
                key: "violations",
                value: .array(
                    violations.map {
                        .object([
                            JSON.Member(key: "path", value: .string($0.path)),
                            JSON.Member(key: "message", value: .string($0.message)),
                        ])
                    })))
        return members
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
        // A side read from the response archive: its ID there (`diff @12 #3`).
        if let archived = diff.old.archived {
            members.append(JSON.Member(key: "old_archived", value: .number(String(archived))))
        }
        if let archived = diff.new.archived {
            members.append(JSON.Member(key: "new_archived", value: .number(String(archived))))
        }
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

    private static func string(_ key: String, _ value: String) -> JSON.Member {
        JSON.Member(key: key, value: .string(value))
    }

    private static func number(_ key: String, _ value: Int) -> JSON.Member {
        JSON.Member(key: key, value: .number(String(value)))
    }

    /// What a network failure is made of, as fields a script reads without parsing the sentence:
    /// `error` (its kind) and the values it names (`host`, `port`, `timeout`, `after_ms`, `limit`).
    static func networkFields(_ error: NetworkError) -> [JSON.Member] {
        func milliseconds(_ duration: Duration) -> JSON.Member {
            JSON.Member(key: "after_ms", value: .number(Self.milliseconds(duration)))
        }
        switch error {
        case .invalidURL: return [string("error", "invalid_url")]
        case .invalidRequest: return [string("error", "invalid_request")]
        case .connectionRefused(let host, let port):
            return [string("error", "connection_refused"), string("host", host), number("port", port)]
        case .dnsFailure(let host): return [string("error", "dns"), string("host", host)]
        case .timeout(let kind, let after):
            let which =
                switch kind {
                case .connect: "connect"
                case .total: "total"
                case .read: "read"
                }
            return [string("error", "timeout"), string("timeout", which), milliseconds(after)]
        case .tls(let host, _): return [string("error", "tls"), string("host", host)]
        case .tooManyRedirects(let limit, _): return [string("error", "too_many_redirects"), number("limit", limit)]
        case .bodyTooLarge(let limit, _): return [string("error", "body_too_large"), number("limit", limit)]
        case .connectionClosed: return [string("error", "connection_closed")]
        case .cancelled(let after): return [string("error", "cancelled")] + (after.map { [milliseconds($0)] } ?? [])
        case .httpStatus(let status, _, _): return [string("error", "http_status"), number("status", status.code)]
        case .decodingFailed: return [string("error", "decoding")]
        case .noMock: return [string("error", "no_mock")]
        case .file: return [string("error", "file")]
        case .transport: return [string("error", "transport")]
        @unknown default: return [string("error", "other")]
        }
    }

    /// A failure's kind and what it is made of: `reason`, `hint`, `column` for a line's error.
    static func failureFields(_ reason: Failure.Reason, advice: String? = nil) -> [JSON.Member] {
        switch reason {
        case .command(let error):
            var members = [string("kind", "command"), string("domain", error.domain.rawValue)]
            members += problemFields(error.problem)
            members.append(string("reason", error.message))
            if let hint = error.advice { members.append(string("hint", hint)) }
            if let column = error.column { members.append(number("column", column)) }
            return members
        case .network(let error):
            var members = [string("kind", "network"), string("reason", "\(error)")]
            members += networkFields(error)
            if let advice = advice ?? ErrorRenderer.advice(for: error) { members.append(string("hint", advice)) }
            return members
        case .cancelled(let after):
            var members = [string("kind", "cancelled")]
            if let after { members.append(JSON.Member(key: "after_ms", value: .number(Self.milliseconds(after)))) }
            return members
        case .loadFailed(let path, let failed, let lines):
            return [string("kind", "load"), string("file", path), number("failed", failed), number("lines", lines)]
        case .wireLogOff(let reason): return [string("kind", "wire_log"), string("reason", reason)]
        case .sessionFile(let problem):
            var members = [
                string("kind", "session_file"), string("file", problem.path), string("reason", problem.message),
            ]
            if let line = problem.line { members.append(number("line", line)) }
            if let column = problem.column { members.append(number("column", column)) }
            if let hint = problem.hint { members.append(string("hint", hint)) }
            // A line that does not parse says what is wrong with it as a line's failure does.
            if let error = problem.error {
                members += [string("domain", error.domain.rawValue)] + problemFields(error.problem)
            }
            return members
        case .other(let text): return [string("kind", "other"), string("reason", text)]
        }
    }

    /// A line's problem as fields: `problem` (its kind) and the values it names.
    static func problemFields(_ problem: CommandError.Problem) -> [JSON.Member] {
        func suggested(_ suggestion: String?) -> [JSON.Member] { suggestion.map { [string("suggestion", $0)] } ?? [] }
        switch problem {
        case .unknown(let kind, let word, let suggestion):
            return [string("problem", "unknown"), string("what", kind), string("word", word)] + suggested(suggestion)
        case .notFound(let kind, let name, let suggestion):
            return [string("problem", "not_found"), string("what", kind), string("name", name)] + suggested(suggestion)
        case .unexpected(let word): return [string("problem", "unexpected"), string("word", word)]
        case .missing(let what): return [string("problem", "missing"), string("what", what)]
        case .invalid(let kind, let value):
            return [string("problem", "invalid"), string("what", kind), string("value", value)]
        case .unterminatedQuote(let kind):
            return [string("problem", "unterminated_quote")] + (kind.map { [string("quote", $0)] } ?? [])
        case .unknownVariable(let name, let suggestion):
            return [string("problem", "unknown_variable"), string("variable", name)] + suggested(suggestion)
        case .noValue(let secret, let typed, _):
            return [
                string("problem", "no_value"), string("secret", secret), JSON.Member(key: "typed", value: .bool(typed)),
            ]
        case .notSent(let problems):
            return [
                string("problem", "not_sent"),
                JSON.Member(key: "problems", value: .array(problems.map { .string($0) })),
            ]
        case .cannotRead(let path, let cause):
            return [string("problem", "cannot_read"), string("file", path)]
                + (cause.map { [string("cause", $0)] } ?? [])
        case .cannotWrite(let path, let cause):
            return [string("problem", "cannot_write"), string("file", path), string("cause", cause)]
        case .noResponse: return [string("problem", "no_response")]
        case .stated: return [string("problem", "stated")]
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.3f", duration.milliseconds)
    }

    /// A setting's value as fields: `value` (text, a boolean, a number or null) and what it means.
    static func value(_ value: SettingValue) -> [JSON.Member] {
        switch value {
        case .text(let text): [JSON.Member(key: "value", value: .string(text))]
        case .toggle(let on): [JSON.Member(key: "value", value: .bool(on))]
        case .unset: [JSON.Member(key: "value", value: .null)]
        case .duration(let duration):
            [
                JSON.Member(key: "value", value: duration.map { .number(Self.milliseconds($0)) } ?? .null),
                JSON.Member(key: "unit", value: .string("ms")),
            ]
        case .count(let count): [JSON.Member(key: "value", value: count.map { .number(String($0)) } ?? .null)]
        case .log(let level, let file):
            [
                JSON.Member(key: "value", value: .string(level)),
                JSON.Member(key: "file", value: file.map(JSON.string) ?? .null),
            ]
        }
    }

    private func session(_ overview: SessionOverview) -> JSON {
        let apis: [JSON] = overview.apis.map { api in
            var members = [member("base", api.base)]
            members.append(JSON.Member(key: "origin", value: api.origin.map(JSON.string) ?? .null))
            members.append(JSON.Member(key: "current", value: .bool(api.current)))
            members.append(JSON.Member(key: "auth", value: api.auth.map(JSON.string) ?? .null))
            members.append(
                JSON.Member(
                    key: "default_headers",
                    value: .array(api.defaultHeaders.map { .array([.string($0.name), .string($0.value)]) })))
            members.append(
                JSON.Member(
                    key: "default_query",
                    value: .array(
                        api.defaultQuery.map { .array([.string($0.name), $0.value.map(JSON.string) ?? .null]) })))
            members.append(JSON.Member(key: "spec", value: api.spec.map(JSON.string) ?? .null))
            if let graphQL = api.graphQL { members.append(member("graphql", graphQL)) }
            if let grpc = api.grpc { members.append(member("grpc", grpc)) }
            members.append(member("validate", api.validation))
            members.append(JSON.Member(key: "shared", value: .array(api.shared.map(JSON.string))))
            return .object(members)
        }
        let variables: [JSON] = overview.variables.map {
            .object([
                member("name", $0.name), member("value", $0.value), JSON.Member(key: "secret", value: .bool($0.secret)),
            ])
        }
        func number(_ value: Int?) -> JSON { value.map { .number(String($0)) } ?? .null }
        return .object([
            member("type", "session"), JSON.Member(key: "apis", value: .array(apis)),
            JSON.Member(key: "environment", value: overview.environment.map(JSON.string) ?? .null),
            JSON.Member(key: "variables", value: .array(variables)), member("decoder", overview.decoder),
            JSON.Member(key: "log", value: .object(Self.value(overview.log))),
            JSON.Member(key: "timeout_ms", value: overview.timeout.map { .number(Self.milliseconds($0)) } ?? .null),
            JSON.Member(key: "redirects", value: number(overview.redirects)),
            JSON.Member(key: "insecure", value: .bool(overview.insecure)),
            JSON.Member(key: "proxy", value: overview.proxy.map(JSON.string) ?? .null),
            JSON.Member(key: "cookies", value: number(overview.cookies)), member("pager", overview.pager),
            JSON.Member(key: "responses_kept", value: .number(String(overview.responsesKept))),
            JSON.Member(key: "last_response", value: .number(String(overview.lastResponse))),
        ])
    }

    /// An event as `event` (its kind) and its fields.
    private func event(_ event: Event) -> [JSON.Member] {
        func number(_ key: String, _ value: Int) -> JSON.Member { JSON.Member(key: key, value: .number(String(value))) }
        func strings(_ key: String, _ values: [String]) -> JSON.Member {
            JSON.Member(key: key, value: .array(values.map(JSON.string)))
        }
        func spec(_ summary: SpecSummary) -> JSON {
            .object([
                member("title", summary.title), member("version", summary.version),
                member("openapi", summary.openAPIVersion), member("source", summary.source),
                number("documents", summary.documents), number("operations", summary.operations),
                number("paths", summary.paths),
            ])
        }
        func graphQL(_ summary: GraphQLSummary) -> JSON {
            var members = [member("endpoint", summary.endpoint)]
            members.append(JSON.Member(key: "source", value: summary.source.map(JSON.string) ?? .null))
            if let counts = summary.counts {
                members += [
                    number("types", counts.types), number("queries", counts.queries),
                    number("mutations", counts.mutations), number("subscriptions", counts.subscriptions),
                ]
            }
            return .object(members)
        }
        func grpc(_ summary: GRPCSummary) -> JSON {
            .object([
                member("target", summary.target), member("source", summary.source),
                number("services", summary.services), number("methods", summary.methods),
            ])
        }
        switch event {
        case .oauth2Browser(let prompt):
            return [
                member("event", "oauth2_browser"), member("url", prompt.url),
                member("redirect_uri", prompt.redirectURI),
                JSON.Member(key: "opened", value: .bool(prompt.opened)),
                number("wait_seconds", Int(prompt.wait.components.seconds)),
            ]
        case .oauth2DeviceCode(let prompt):
            return [
                member("event", "oauth2_device_code"), member("user_code", prompt.userCode),
                member("verification_uri", prompt.verificationURI),
                JSON.Member(key: "verification_uri_complete", value: prompt.complete.map(JSON.string) ?? .null),
                number("expires_in", prompt.expiresIn),
            ]
        case .oauth2Authorized(let authorized):
            return [
                member("event", "oauth2_authorized"), member("api", authorized.api),
                member("source", authorized.source),
                JSON.Member(key: "scope", value: authorized.scope.map(JSON.string) ?? .null),
                JSON.Member(key: "expires_in", value: authorized.expiresIn.map { .number(String(Int($0))) } ?? .null),
                JSON.Member(key: "renews", value: .bool(authorized.renews)),
            ]
        case .requestWarning(let problem): return [member("event", "request_warning"), member("problem", problem)]
        case .grpcShown(let summary):
            return [member("event", "grpc"), JSON.Member(key: "grpc", value: summary.map(grpc) ?? .null)]
        case .grpcLoaded(let summary):
            return [member("event", "grpc_loaded"), JSON.Member(key: "grpc", value: grpc(summary))]
        case .specShown(let summary):
            return [member("event", "spec"), JSON.Member(key: "spec", value: summary.map(spec) ?? .null)]
        case .specLoaded(let summary, let base):
            return [
                member("event", "spec_loaded"), JSON.Member(key: "spec", value: spec(summary)),
                JSON.Member(key: "base_from_servers", value: base.map(JSON.string) ?? .null),
            ]
        case .graphQLShown(let summary):
            return [member("event", "graphql"), JSON.Member(key: "graphql", value: summary.map(graphQL) ?? .null)]
        case .graphQLLoaded(let summary):
            return [member("event", "graphql_loaded"), JSON.Member(key: "graphql", value: graphQL(summary))]
        case .structureProblems(let title, let count, let first):
            return [
                member("event", "structure_problems"), member("title", title), number("count", count),
                member("place", first.place), member("problem", first.message),
            ]
        case .wroteBody(let response, let archived, let path, let bytes):
            return [
                member("event", "wrote_body"), number("number", response), member("path", path), number("bytes", bytes),
            ] + (archived.map { [number("archived", $0)] } ?? [])
        case .wroteHAR(let path, let entries):
            return [member("event", "wrote_har"), member("path", path), number("entries", entries)]
        case .recordingOn: return [member("event", "recording_on")]
        case .pasteExpected(let format): return [member("event", "paste_expected"), member("format", format.rawValue)]
        case .importedIntoDraft(let source):
            return [
                member("event", "imported_into_draft"),
                JSON.Member(key: "source", value: source.map(JSON.string) ?? .null),
            ]
        case .notImported(let note):
            switch note {
            case .script(let kind, let scope):
                return [
                    member("event", "not_imported"), member("what", "script"), member("kind", kind),
                    member("scope", scope),
                ]
            case .auth(let type, let scope):
                return [
                    member("event", "not_imported"), member("what", "auth"), member("kind", type),
                    member("scope", scope),
                ]
            case .header(let name, let scope):
                return [
                    member("event", "not_imported"), member("what", "header"), member("kind", name),
                    member("scope", scope),
                ]
            case .method(let name, let scope):
                return [
                    member("event", "not_imported"), member("what", "request"), member("kind", name),
                    member("scope", scope),
                ]
            }
        case .importCancelled: return [member("event", "import_cancelled")]
        case .curlURLs(let count, let sentInTurn):
            return [
                member("event", "curl_urls"), number("count", count),
                JSON.Member(key: "sent_in_turn", value: .bool(sentInTurn)),
            ]
        case .curlSettings(let lines): return [member("event", "curl_settings"), strings("lines", lines)]
        case .curlIgnored(let flags): return [member("event", "curl_ignored"), strings("flags", flags)]
        case .curlShellVariables(let names): return [member("event", "curl_shell_variables"), strings("names", names)]
        case .exportTokenOnSend: return [member("event", "export_token_on_send")]
        case .saved(let saved):
            var members = [member("event", "saved"), member("path", saved.path), number("requests", saved.requests)]
            if let recording = saved.recording {
                members.append(
                    JSON.Member(
                        key: "recording",
                        value: .object([member("path", recording.path), number("responses", recording.responses)])))
            }
            members.append(JSON.Member(key: "recorded_nothing", value: .bool(saved.recordedNothing)))
            members.append(strings("named_secrets", saved.namedSecrets))
            return members
        case .loaded(let path, let lines):
            return [member("event", "loaded"), member("path", path), number("lines", lines)]
        case .otherOrigin(let other):
            return [
                member("event", "other_origin"), member("origin", other.origin), member("api", other.api),
                JSON.Member(key: "auth", value: other.auth.map(JSON.string) ?? .null),
                number("defaults", other.defaults),
                JSON.Member(key: "description", value: .bool(other.description)),
            ]
        case .baseChanged(let change):
            return [
                member("event", "base_changed"), member("change", change.kind.rawValue), member("from", change.from),
                member("to", change.to), JSON.Member(key: "auth", value: change.auth.map(JSON.string) ?? .null),
                number("defaults", change.defaults),
                JSON.Member(key: "description", value: change.description.map(JSON.string) ?? .null),
            ]
        case .environmentSwitched(let switched):
            return [
                member("event", "environment_switched"), member("name", switched.name),
                JSON.Member(key: "previous", value: switched.previous.map(JSON.string) ?? .null),
                JSON.Member(key: "base", value: switched.base.map(JSON.string) ?? .null),
                JSON.Member(key: "variables", value: .array(switched.variables.map(JSON.string))),
                JSON.Member(key: "secrets", value: .array(switched.secrets.map(JSON.string))),
                JSON.Member(key: "removed", value: .array(switched.removed.map(JSON.string))),
            ]
        }
    }

    /// `FILE:LINE` as `file` and `line`.
    private func location(_ location: String?) -> [JSON.Member] {
        guard let location, let colon = location.lastIndex(of: ":"),
            let line = Int(location[location.index(after: colon)...])
        else { return location.map { [member("location", $0)] } ?? [] }
        return [member("file", String(location[..<colon])), JSON.Member(key: "line", value: .number(String(line)))]
    }

    /// `{"type":"grpc_stream","event":"message","n":1,"ms":2.1,"data":{…}}`: a gRPC stream written at
    /// the prompt — `open` (`method`, `number`), `message`, `sent`, and `end` (`status`,
    /// `status_name`, `message`, `received`) when the server ends it first.
    private func grpcStream(_ output: GRPCStreamOutput) -> JSON {
        var members = [member("type", "grpc_stream")]
        func data(_ text: String) -> JSON.Member {
            JSON.Member(key: "data", value: (try? JSON(parsing: text)) ?? .string(text))
        }
        switch output.kind {
        case .opened(let method, let number):
            members += [
                member("event", "open"), member("method", method),
                JSON.Member(key: "number", value: .number(String(number))),
            ]
        case .received(let text, let number, let at):
            members += [
                member("event", "message"), JSON.Member(key: "n", value: .number(String(number))),
                JSON.Member(key: "ms", value: .number(Self.milliseconds(at))), data(text),
            ]
        case .sent(let text):
            members += [member("event", "sent"), data(text)]
        case .ended(let method, let status, let received):
            members += [
                member("event", "end"), member("method", method),
                JSON.Member(key: "status", value: .number(String(status.code))),
                member("status_name", status.codeName), member("message", redactor.redact(status.message)),
                JSON.Member(key: "received", value: .number(String(received))),
            ]
        }
        return .object(members)
    }

    /// `{"type":"websocket","event":"message","n":1,"ms":2.1,"data":{…}}`: a text message as its
    /// JSON (or its text), a binary one in base64 (`"encoding":"base64"`).
    private func webSocket(_ output: WebSocketOutput) -> JSON {
        var members = [member("type", "websocket")]
        func message(_ message: WebSocketMessage) {
            switch message {
            case .text: members.append(JSON.Member(key: "data", value: WebSocketOutput.document(of: message)))
            case .binary(let data):
                members.append(member("data", data.base64EncodedString()))
                members.append(member("encoding", "base64"))
            }
        }
        switch output.kind {
        case .opened(let url, let number):
            members += [
                member("event", "open"), member("url", url),
                JSON.Member(key: "number", value: .number(String(number))),
            ]
        case .received(let received, let number, let at):
            members += [
                member("event", "message"), JSON.Member(key: "n", value: .number(String(number))),
                JSON.Member(key: "ms", value: .number(Self.milliseconds(at))),
            ]
            message(received)
        case .sent(let sent):
            members.append(member("event", "sent"))
            message(sent)
        case .ping:
            members.append(member("event", "ping"))
        case .closed(let close, let url, let received):
            let initiator =
                switch close.initiator {
                case .client: "client"
                case .server: "server"
                case .dropped: "dropped"
                }
            members += [member("event", "close"), member("url", url), member("by", initiator)]
            if let code = close.code { members.append(JSON.Member(key: "code", value: .number(String(code)))) }
            if let reason = close.reason { members.append(member("reason", reason)) }
            if let answer = close.answer { members.append(JSON.Member(key: "answer", value: .number(String(answer)))) }
            if let error = close.error { members.append(member("error", error)) }
            if let bytes = close.unfinishedBytes {
                members.append(JSON.Member(key: "unfinished_bytes", value: .number(String(bytes))))
            }
            members.append(JSON.Member(key: "received", value: .number(String(received))))
        }
        return .object(members)
    }

    private func member(_ key: String, _ value: String) -> JSON.Member { JSON.Member(key: key, value: .string(value)) }
}
