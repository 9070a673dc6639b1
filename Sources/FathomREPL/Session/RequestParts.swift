/// The parts of a draft request that lines write: query and header edits, bodies, and the
/// HTTPie-style items of one-liners. Kept as written, with `{{templates}}` unexpanded.

/// A change to the draft's query.
enum QueryEdit: Equatable, Sendable {
    case add(name: String, value: String?)
    case remove(String)
}

/// A change to the draft's headers.
enum HeaderEdit: Equatable, Sendable {
    case set(name: String, value: String)
    case remove(String)
}

/// What a `body` line asks for.
enum BodySpec: Equatable, Sendable {
    case none
    /// Text as written; JSON when it starts with `{` or `[`.
    case text(String)
    /// A file read when the request is sent.
    case file(String)
    /// A file sent as it is, with no Content-Type of its own (curl's `-T`): the draft's headers
    /// say what it is, or nothing does.
    case upload(String)
    /// Text sent exactly as written: no `{{variables}}`, no JSON check, no content type of its own
    /// (a body from a curl line, whose headers say what it is).
    case raw(String)
    case form([Field])
    case json([RequestItem])
    case multipart([RequestItem])
    /// curl's `-d` family: pieces joined with `&`, as `application/x-www-form-urlencoded`; a
    /// file piece is read as the request is sent, never held whole.
    case data([DataPiece])

    /// A piece of a ``BodySpec/data(_:)`` body.
    enum DataPiece: Equatable, Sendable {
        /// Text as written (`{{variables}}` expanded).
        case text(String)
        /// A file's bytes without its line breaks (curl's `-d @FILE`), or as they are with
        /// `binary` (`--data-binary @FILE`).
        case file(String, binary: Bool)
    }

    /// A `name=value` pair.
    struct Field: Equatable, Sendable {
        var name: String
        var value: String
    }
}

/// An HTTPie-style request item: `Name:Value`, `name==value`, `name=value`, `name:=json`, `name@file`.
enum RequestItem: Equatable, Sendable {
    case header(name: String, value: String)
    case removeHeader(String)
    case query(name: String, value: String)
    case field(name: String, value: String)
    case rawJSON(name: String, json: String)
    /// `path` as written, with the part's own `;type=MIME` and `;filename=NAME` if given
    /// (see ``fileSpec(_:)``).
    case file(name: String, path: String)

    /// The file a `name@path` item reads, without its `;type=` and `;filename=`.
    var filePath: String? {
        guard case .file(_, let path) = self else { return nil }
        return Self.fileSpec(path).path
    }

    /// A file item's path and the part's own content type and file name, as HTTPie and curl write
    /// them: `photo@me.jpg;type=image/jpeg;filename=avatar.jpg`.
    static func fileSpec(_ written: String) -> (path: String, type: String?, filename: String?) {
        var pieces = written.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        var type: String?
        var filename: String?
        // Read from the end, so a `;` inside the path stays in it.
        while pieces.count > 1, let last = pieces.last {
            let option = last.trimmingCharacters(in: .whitespaces)
            if option.hasPrefix("type=") {
                type = String(option.dropFirst(5))
            } else if option.hasPrefix("filename=") {
                filename = String(option.dropFirst(9))
                if let quoted = filename, quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") {
                    filename = String(quoted.dropFirst().dropLast())
                }
            } else {
                break
            }
            pieces.removeLast()
        }
        return (pieces.joined(separator: ";"), type, filename)
    }
}
