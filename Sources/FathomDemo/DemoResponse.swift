import FathomJSON
import Foundation
import Hummingbird
import NIOCore

/// Building the demo's JSON responses, with keys in the order they are written.
enum DemoResponse {
    /// A response the route returns early (an error), carried through `Result`.
    struct Failure: Error {
        let response: Response
        init(_ response: Response) { self.response = response }
    }

    static func json(_ object: KeyValuePairs<String, Any>, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: jsonData(object))))
    }

    static func jsonData(_ object: KeyValuePairs<String, Any>) -> Data {
        Data(DemoJSON.serialize(object).utf8)
    }

    static func encode<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        // Sorted keys: the same bytes on every run, so transcripts and recordings compare.
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: data))
        )
    }

    /// A problem details response ([RFC 9457](https://www.rfc-editor.org/rfc/rfc9457)).
    static func problem(
        _ status: Int, title: String, detail: String, extra: KeyValuePairs<String, Any> = [:]
    ) -> Response {
        let standard: KeyValuePairs<String, Any> = [
            "type": "about:blank", "title": title, "status": status, "detail": detail,
        ]
        guard case .object(let members) = DemoJSON.json(standard), case .object(let more) = DemoJSON.json(extra) else {
            preconditionFailure("key-value pairs always make an object")
        }
        return Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "application/problem+json"],
            body: .init(byteBuffer: ByteBuffer(string: DemoJSON.serialize(JSON.object(members + more)))))
    }
}

/// Turns the demo's literals (`KeyValuePairs` keep their order) into ``JSON`` and prints them compactly.
enum DemoJSON {
    static func serialize(_ value: Any?) -> String {
        String(json(value).formatted(.compactText).dropLast())
    }

    static func json(_ value: Any?) -> JSON {
        switch value {
        case nil, is NSNull: return .null
        case let value as JSON: return value
        case let value as String: return .string(value)
        case let value as Bool: return .bool(value)
        case let value as Int: return .number(String(value))
        case let value as Double: return value.isFinite ? .number(String(value)) : .null
        case let value as KeyValuePairs<String, Any>:
            return .object(value.map { JSON.Member(key: $0.key, value: json($0.value)) })
        case let value as [String: Any]:
            return .object(value.keys.sorted().map { JSON.Member(key: $0, value: json(value[$0])) })
        case let value as [[String: String]]:
            return .array(value.map { json($0 as [String: Any]) })
        case let value as [Any]:
            return .array(value.map { json($0) })
        default:
            return .string(String(describing: value!))
        }
    }
}

/// Parsing `application/x-www-form-urlencoded` text.
enum Form {
    static func parse(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in pairs(text) where fields[pair.0] == nil {
            fields[pair.0] = pair.1
        }
        return fields
    }

    static func pairs(_ text: String) -> [(String, String)] {
        text.split(separator: "&").map { piece in
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String {
                s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}

/// `/echo`: the request as the server received it.
enum Echo {
    static func response(for request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 16 << 20)
        let bytes = Data(buffer: body)
        let text = String(data: bytes, encoding: .utf8)
        let query = request.uri.query ?? ""
        let args: [Any] =
            query.isEmpty
            ? []
            : query.split(separator: "&").map { piece -> Any in
                let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
                return [name, value] as [Any]
            }
        let headers: [Any] = request.headers.map { [$0.name.rawName, $0.value] as [Any] }
        let object: KeyValuePairs<String, Any> = [
            "method": request.method.rawValue,
            "path": request.uri.path,
            "query": query,
            "args": args,
            "headers": headers,
            "body": text as Any,
            "bodyBase64": text == nil ? bytes.base64EncodedString() : NSNull(),
            "bodyLength": bytes.count,
        ]
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(string: DemoJSON.serialize(object))))
    }
}

/// `/large`: a deterministic JSON array of API-like records of about the size asked for.
enum LargeDocument {
    static func make(bytes target: Int) -> Data {
        var out = "["
        out.reserveCapacity(target + 512)
        var id = 1
        let cities = ["Zürich", "São Paulo", "Kraków", "Москва", "東京", "Reykjavík"]
        while out.utf8.count < target || id == 1 {
            if id > 1 { out += "," }
            out += "{\"id\":\(id),\"name\":\"User \(id)\",\"email\":\"user\(id)@example.com\","
            out += "\"score\":\(Double(id % 1000) / 8),\"active\":\(id % 3 != 0),"
            out += "\"tags\":[\"t\(id % 7)\",\"t\(id % 11)\"],"
            out += "\"address\":{\"city\":\"\(cities[id % cities.count])\",\"zip\":\"\(10000 + id % 89999)\"}}"
            id += 1
        }
        out += "]"
        return Data(out.utf8)
    }
}
