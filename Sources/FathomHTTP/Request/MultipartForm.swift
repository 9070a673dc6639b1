import Foundation

/// A `multipart/form-data` body ([RFC 7578](https://www.rfc-editor.org/rfc/rfc7578)): text fields and files.
public struct MultipartForm: Hashable, Sendable {
    /// One part of the form.
    public enum Part: Hashable, Sendable {
        /// A text field.
        case field(name: String, value: String)
        /// File content given in memory.
        case data(name: String, filename: String, contentType: String, data: Data)
        /// A file read from disk when the request is prepared.
        case file(name: String, path: String, filename: String?, contentType: String?)
    }

    /// The parts, in order.
    public var parts: [Part]
    /// The boundary between parts; random unless set.
    public var boundary: String

    /// A form of `parts`; the boundary is made up unless given.
    public init(parts: [Part] = [], boundary: String? = nil) {
        self.parts = parts
        self.boundary = boundary ?? "fathom-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// Adds a text field.
    public func field(_ name: String, _ value: String) -> MultipartForm {
        var copy = self
        copy.parts.append(.field(name: name, value: value))
        return copy
    }

    /// Adds a file from memory.
    public func file(_ name: String, filename: String, contentType: String, data: Data) -> MultipartForm {
        var copy = self
        copy.parts.append(.data(name: name, filename: filename, contentType: contentType, data: data))
        return copy
    }

    /// Adds a file from disk; its name and media type default from the path.
    public func file(
        _ name: String, path: String, filename: String? = nil, contentType: String? = nil
    )
        -> MultipartForm
    {
        var copy = self
        copy.parts.append(.file(name: name, path: path, filename: filename, contentType: contentType))
        return copy
    }

    /// The `Content-Type` header value, with the boundary.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The body ready to stream: its text in memory, each file read only as it is sent, so a
    /// form with a file of any size takes no more memory than its text.
    ///
    /// - Throws: ``NetworkError/file(path:reason:)`` when a file part cannot be sent.
    @_spi(Fathom) public func prepared() throws(NetworkError) -> PreparedBody {
        var pieces: [BodyPiece] = []
        var text = Data()
        var length = 0
        func append(_ string: String) { text.append(contentsOf: Array(string.utf8)) }
        func flush() {
            guard !text.isEmpty else { return }
            pieces.append(.bytes(text))
            length += text.count
            text = Data()
        }
        for part in parts {
            append("--\(boundary)\r\n")
            switch part {
            case .field(let name, let value):
                append("Content-Disposition: form-data; name=\"\(Self.quoted(name))\"\r\n\r\n")
                append(value)
            case .data(let name, let filename, let contentType, let data):
                append(
                    "Content-Disposition: form-data; name=\"\(Self.quoted(name))\"; filename=\"\(Self.quoted(filename))\"\r\n"
                )
                append("Content-Type: \(contentType)\r\n\r\n")
                text.append(data)
            case .file(let name, let path, let filename, let contentType):
                let size = try FileBody.length(path)
                let filename = filename ?? (path as NSString).lastPathComponent
                append(
                    "Content-Disposition: form-data; name=\"\(Self.quoted(name))\"; filename=\"\(Self.quoted(filename))\"\r\n"
                )
                append("Content-Type: \(contentType ?? MediaType.guess(forPath: path))\r\n\r\n")
                flush()
                pieces.append(.file(path: path, length: size, dropsLineBreaks: false))
                length += size
            }
            append("\r\n")
        }
        append("--\(boundary)--\r\n")
        flush()
        if pieces.count == 1, case .bytes(let data) = pieces[0] { return .bytes(data) }
        return .pieces(pieces, length: length)
    }

    /// The encoded body, files read whole.
    ///
    /// - Throws: ``NetworkError/file(path:reason:)`` when a file part cannot be read.
    @_spi(Fathom) public func encoded() throws(NetworkError) -> Data {
        var body = Data()
        try prepared().forEachChunk { body.append($0) }
        return body
    }

    /// Escapes `"`, CR and LF in a parameter value as HTML forms do (RFC 7578 §4.2).
    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
