import Foundation

/// Turns a response's bytes into a value.
///
/// Use the static factories: `.json(User.self)`, `.text`, `.data`, `.optional(.json(User.self))`.
public protocol ResponseDecoder<Output>: Sendable {
    associatedtype Output: Sendable
    /// Decodes the body of `response`.
    ///
    /// - Throws: ``NetworkError/decodingFailed(type:codingPath:reason:snippet:)``.
    func decode(_ response: NetworkResponse<Data>) throws -> Output
}

/// Decodes a JSON body into a `Decodable` type.
public struct JSONResponseDecoder<Value: Decodable & Sendable>: ResponseDecoder {
    /// The decoder the body is decoded with.
    public let decoder: JSONDecoder

    /// Decodes bodies as `type` with `decoder`.
    public init(_ type: Value.Type = Value.self, decoder: JSONDecoder = JSONDecoder()) {
        self.decoder = decoder
    }

    /// The body decoded as the value.
    public func decode(_ response: NetworkResponse<Data>) throws -> Value {
        do {
            return try decoder.decode(Value.self, from: response.body)
        } catch let error as DecodingError {
            throw NetworkError.decodingFailed(
                type: String(describing: Value.self), codingPath: Self.path(of: error),
                reason: Self.reason(of: error), snippet: Snippet.make(response.body))
        } catch {
            throw NetworkError.decodingFailed(
                type: String(describing: Value.self), codingPath: "", reason: "\(error)",
                snippet: Snippet.make(response.body))
        }
    }

    static func path(of error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            context = c
        @unknown default:
            return ""
        }
        var path = context.codingPath
        if case .keyNotFound(let key, _) = error { path.append(key) }
        guard !path.isEmpty else { return "" }
        return "$" + path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }

    static func reason(of error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, _): "expected \(type)"
        case .valueNotFound(let type, _): "expected \(type), found null"
        case .keyNotFound(let key, _): "missing key '\(key.stringValue)'"
        case .dataCorrupted(let context):
            context.underlyingError.map { "not valid JSON (\($0.localizedDescription))" } ?? context.debugDescription
        @unknown default: "\(error)"
        }
    }
}

/// Returns the body bytes as they are.
public struct DataResponseDecoder: ResponseDecoder {
    /// The body as it came.
    public init() {}
    /// The body's bytes.
    public func decode(_ response: NetworkResponse<Data>) throws -> Data { response.body }
}

/// Decodes the body as text in the charset its `Content-Type` names (UTF-8 when none).
///
/// Bytes invalid in that charset become U+FFFD rather than failing.
public struct TextResponseDecoder: ResponseDecoder {
    /// Bodies as text in their charset.
    public init() {}

    /// The body as text, in the charset its `Content-Type` names (UTF-8 when none).
    public func decode(_ response: NetworkResponse<Data>) throws -> String {
        let charset = response.contentType.flatMap { MediaType.parameter("charset", in: $0) }?.lowercased()
        switch charset {
        case nil, "utf-8", "utf8", "us-ascii", "ascii":
            return String(decoding: response.body, as: UTF8.self)
        case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
            return String(response.body.map { Character(Unicode.Scalar($0)) })
        case "utf-16", "utf-16be", "utf-16le":
            let encoding: String.Encoding =
                charset == "utf-16le" ? .utf16LittleEndian : charset == "utf-16be" ? .utf16BigEndian : .utf16
            if let text = String(data: response.body, encoding: encoding) { return text }
            throw NetworkError.decodingFailed(
                type: "String", codingPath: "", reason: "invalid \(charset ?? "") text",
                snippet: Snippet.make(response.body))
        default:
            return String(decoding: response.body, as: UTF8.self)
        }
    }
}

/// Turns an empty body (such as a 204's) into `nil` and decodes any other body with `wrapped`.
public struct OptionalResponseDecoder<Wrapped: ResponseDecoder>: ResponseDecoder {
    /// The decoder a non-empty body goes through.
    public let wrapped: Wrapped

    /// Decodes what `wrapped` decodes, and an empty body (204) as `nil`.
    public init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    /// `nil` for an empty body; otherwise what ``wrapped`` makes of it.
    public func decode(_ response: NetworkResponse<Data>) throws -> Wrapped.Output? {
        if response.status.code == 204
            || response.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })
        {
            return nil
        }
        return try wrapped.decode(response)
    }
}

/// A decoder backed by a closure.
public struct ClosureResponseDecoder<Output: Sendable>: ResponseDecoder {
    private let body: @Sendable (NetworkResponse<Data>) throws -> Output

    /// A decoder from a closure.
    public init(_ body: @escaping @Sendable (NetworkResponse<Data>) throws -> Output) {
        self.body = body
    }

    /// What the closure makes of the response.
    public func decode(_ response: NetworkResponse<Data>) throws -> Output { try body(response) }
}

extension ResponseDecoder {
    /// Decodes JSON into `type`.
    public static func json<Value>(_ type: Value.Type, decoder: JSONDecoder = JSONDecoder()) -> Self
    where Self == JSONResponseDecoder<Value> {
        JSONResponseDecoder(type, decoder: decoder)
    }

    /// Makes an empty body `nil`.
    public static func optional<Wrapped>(_ wrapped: Wrapped) -> Self where Self == OptionalResponseDecoder<Wrapped> {
        OptionalResponseDecoder(wrapped)
    }
}

extension ResponseDecoder where Self == DataResponseDecoder {
    /// Returns the body bytes.
    public static var data: DataResponseDecoder { DataResponseDecoder() }
}

extension ResponseDecoder where Self == TextResponseDecoder {
    /// Decodes the body as text.
    public static var text: TextResponseDecoder { TextResponseDecoder() }
}

/// The beginning of a body, for error messages.
enum Snippet {
    static func make(_ data: Data, limit: Int = 120) -> String {
        if data.isEmpty { return "(empty)" }
        let text = String(decoding: data.prefix(limit * 4), as: UTF8.self)
        let flat = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: "")
        return flat.count > limit ? String(flat.prefix(limit)) + "…" : flat
    }
}
