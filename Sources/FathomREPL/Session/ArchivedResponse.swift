@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// One exchange as the response archive keeps it (``ResponseArchive``): masked when it is made,
/// so nothing the screen masked is ever on disk in clear.
///
/// A response keeps its request (method, URL, headers, an in-memory body), its status, headers,
/// body and times; a body larger than the archive's per-record bound is left out and its size
/// said. Another kind of exchange (a batch, a WebSocket conversation) keeps its listed line and
/// the document `inspect #N $` reads.
struct ArchivedResponse: Sendable {
    /// What the record holds.
    enum Content: Sendable {
        case response(Response)
        /// Another kind of exchange, as its document.
        case document(JSON)
    }

    /// A response and its request, masked.
    struct Response: Sendable {
        var method: String
        /// The whole URL, secret query values masked.
        var url: String
        var requestHeaders: [(name: String, value: String)]
        /// The request's body, when it was in memory (a file streamed from disk is not kept).
        var requestBody: Data?
        var status: Int
        var reason: String
        var httpVersion: String
        var headers: [(name: String, value: String)]
        /// The body as it came (secrets masked), or empty when it was past the bound.
        var body: Data
        /// The body's size as it came.
        var size: Int
        /// Whether ``body`` is the whole body.
        var bodyKept: Bool
        var total: Duration
        var firstByte: Duration
    }

    /// The archive's number for it: `@12`. Given when it is kept.
    var id = 0
    /// When it was kept, in seconds since 1970.
    var at: Double
    /// The session that made it (a short random name, one per process).
    var session: String
    /// Its number in that session: `#3`.
    var number: Int
    /// The line `responses --all` shows for it: `GET https://…/users/1 → 200 OK`.
    var listed: String
    var content: Content

    // MARK: - From a session's history

    /// A response of the history, masked by `redactor`; a body past `bodyLimit` bytes is left out.
    init(
        _ entry: ResponseHistory.Entry, session: String, at: Double, redactor: Redactor, bodyLimit: Int
    ) {
        let response = entry.response
        let request = response.request
        let url = redactor.redact(response.url)
        let kept = response.body.count <= bodyLimit
        var requestBody: Data?
        if case .bytes(let data)? = request.body, data.count <= bodyLimit {
            requestBody = redactor.redact(bytes: data)
        }
        self.at = at
        self.session = session
        number = entry.number
        listed =
            entry.grpc.map { "call \($0.method) → \($0.status.codeName)" }
            ?? "\(request.method.rawValue) \(url) → \(response.status)".trimmingTrailingBlanks
        content = .response(
            Response(
                method: request.method.rawValue, url: url,
                requestHeaders: redactor.redact(request.headers).map { ($0.name.rawName, $0.value) },
                requestBody: requestBody, status: response.status.code, reason: response.status.reasonPhrase,
                httpVersion: response.httpVersion,
                headers: redactor.redact(response.headers).map { ($0.name.rawName, $0.value) },
                body: kept ? redactor.redact(bytes: response.body) : Data(), size: response.body.count,
                bodyKept: kept, total: response.timing.total, firstByte: response.timing.firstByte))
    }

    /// Another kind of exchange: its listed line and its document, masked by `redactor`.
    init(_ entry: ResponseHistory.ExchangeEntry, session: String, at: Double, redactor: Redactor) {
        self.at = at
        self.session = session
        number = entry.number
        listed = redactor.redact(entry.exchange.listed)
        let text = redactor.redact(String(entry.exchange.document().formatted(.compactText).dropLast()))
        content = .document((try? JSON(parsing: text)) ?? .string(text))
    }

    /// How `show`, `inspect` and `diff` read it when it is a response: an entry of the history
    /// labelled `@ID`, with its request as it was sent (masked).
    func entry() -> ResponseHistory.Entry? {
        guard case .response(let kept) = content else { return nil }
        let url = (try? RequestURL(parsing: kept.url)) ?? RequestURL(scheme: "http", host: "archived", path: "/")
        var request = PreparedRequest(
            method: HTTPMethod(rawValue: kept.method), url: url,
            headers: NetworkHeaders(kept.requestHeaders.map { ($0.name, $0.value) }),
            body: kept.requestBody.map { .bytes($0) })
        request.credentialHeaders = []
        let response = NetworkResponse(
            status: HTTPStatus(code: kept.status, reasonPhrase: kept.reason),
            headers: NetworkHeaders(kept.headers.map { ($0.name, $0.value) }), body: kept.body,
            httpVersion: kept.httpVersion, request: request,
            timing: ResponseTiming(firstByte: kept.firstByte, total: kept.total))
        return ResponseHistory.Entry(number: number, response: response, archived: id)
    }

    /// What `inspect @ID` and `responses search $.x …` read: a response's body as JSON (a
    /// stream as the array of its events), or the exchange's document.
    func document() throws -> JSON {
        switch content {
        case .document(let json): return json
        case .response(let kept):
            guard kept.bodyKept else {
                throw CommandError(
                    .session,
                    "@\(id)'s body was not kept: \(ByteCount.format(kept.size)), more than the archive keeps of one",
                    hint: "archive-size in the config sets the bound (a body may take an eighth of it, up to 1 MiB)")
            }
            guard let entry = entry() else { return .null }
            return try entry.stream?.json ?? ExpectationEvaluator.json(entry.response, label: "@\(id)")
        }
    }

    /// The text `responses search TEXT` looks in: the listed line, the status and the body.
    var searchableText: String {
        switch content {
        case .document(let json): listed + "\n" + String(json.formatted(.compactText).dropLast())
        case .response(let kept):
            listed + "\n" + kept.reason + "\n" + String(decoding: kept.body, as: UTF8.self)
        }
    }

    // MARK: - As a line of the archive

    /// The record as one line of JSON (its ID first, so a reader can check it before parsing),
    /// newline included.
    func line() -> Data {
        var members: [JSON.Member] = [
            .init(key: "id", value: .number(String(id))), .init(key: "at", value: .number(String(at))),
            .init(key: "session", value: .string(session)), .init(key: "number", value: .number(String(number))),
            .init(key: "listed", value: .string(listed)),
        ]
        switch content {
        case .document(let json):
            members.append(.init(key: "document", value: json))
        case .response(let kept):
            func headers(_ fields: [(name: String, value: String)]) -> JSON {
                .array(fields.map { .array([.string($0.name), .string($0.value)]) })
            }
            members += [
                .init(key: "method", value: .string(kept.method)), .init(key: "url", value: .string(kept.url)),
                .init(key: "request_headers", value: headers(kept.requestHeaders)),
                .init(key: "status", value: .number(String(kept.status))),
                .init(key: "reason", value: .string(kept.reason)),
                .init(key: "protocol", value: .string(kept.httpVersion)),
                .init(key: "headers", value: headers(kept.headers)),
                .init(key: "size", value: .number(String(kept.size))),
                .init(key: "kept", value: .bool(kept.bodyKept)),
                .init(key: "time_ms", value: .number(String(kept.total.milliseconds))),
                .init(key: "first_byte_ms", value: .number(String(kept.firstByte.milliseconds))),
            ]
            if let body = kept.requestBody { members.append(Self.bytes("request_body", body)) }
            members.append(Self.bytes("body", kept.body))
        }
        return Data(JSON.object(members).formatted(.compactText).utf8)
    }

    /// Bytes as a string member when they are UTF-8, else as base64 under `KEY_base64`.
    private static func bytes(_ key: String, _ data: Data) -> JSON.Member {
        if let text = String(data: data, encoding: .utf8) { return .init(key: key, value: .string(text)) }
        return .init(key: key + "_base64", value: .string(data.base64EncodedString()))
    }

    /// A line read back; `nil` when it is not one the archive writes.
    init?(line: some Collection<UInt8>) {
        guard let json = try? JSON(parsing: line), case .object = json,
            case .number(let id)? = json["id"], let id = Int(id),
            case .number(let at)? = json["at"], let at = Double(at),
            case .string(let session)? = json["session"],
            case .number(let number)? = json["number"], let number = Int(number),
            case .string(let listed)? = json["listed"]
        else { return nil }
        self.id = id
        self.at = at
        self.session = session
        self.number = number
        self.listed = listed
        if let document = json["document"] {
            content = .document(document)
            return
        }
        func string(_ key: String) -> String? {
            if case .string(let text)? = json[key] { return text }
            return nil
        }
        func int(_ key: String) -> Int? {
            if case .number(let text)? = json[key] { return Int(text) }
            return nil
        }
        func duration(_ key: String) -> Duration {
            if case .number(let text)? = json[key], let value = Double(text), value.isFinite, value >= 0,
                value < 1e12
            {
                return .microseconds(Int64(value * 1000))
            }
            return .zero
        }
        func headers(_ key: String) -> [(name: String, value: String)] {
            guard case .array(let fields)? = json[key] else { return [] }
            return fields.compactMap { field in
                guard case .array(let pair) = field, pair.count == 2, case .string(let name) = pair[0],
                    case .string(let value) = pair[1]
                else { return nil }
                return (name, value)
            }
        }
        func bytes(_ key: String) -> Data? {
            if let text = string(key) { return Data(text.utf8) }
            return string(key + "_base64").flatMap { Data(base64Encoded: $0) }
        }
        guard let method = string("method"), let url = string("url"), let status = int("status"),
            (0...999).contains(status)
        else { return nil }
        var kept = true
        if case .bool(let value)? = json["kept"] { kept = value }
        let body = bytes("body") ?? Data()
        content = .response(
            Response(
                method: method, url: url, requestHeaders: headers("request_headers"),
                requestBody: bytes("request_body"), status: status, reason: string("reason") ?? "",
                httpVersion: string("protocol") ?? "HTTP/1.1", headers: headers("headers"), body: body,
                size: int("size") ?? body.count, bodyKept: kept, total: duration("time_ms"),
                firstByte: duration("first_byte_ms")))
    }
}
