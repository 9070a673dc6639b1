import FathomHTTP

/// The request being built: templates as the person wrote them, expanded only when sent.
struct Draft: Equatable, Sendable {
    struct Header: Equatable, Sendable {
        var name: String
        var value: String
    }

    struct QueryPair: Equatable, Sendable {
        var name: String
        var value: String?
    }

    var method: HTTPMethod = .get
    /// A path (`/users/{{id}}`) or a full URL.
    var target = "/"
    var query: [QueryPair] = []
    /// One per name (case-insensitively): ``apply(_:)-5yx5`` replaces a header of the same name.
    private(set) var headers: [Header] = []
    /// Where each header is, by canonical name: setting one is O(1), so an import of thousands
    /// of headers stays linear.
    private var headerIndex: [String: Int] = [:]
    var body: BodySpec = .none
    /// Credentials for this request alone (`auth draft …`), in place of its API's; `.none`
    /// sends it without any. `nil` uses the API's.
    var auth: AuthSpec?
    /// A client certificate and a CA for this request alone (`cert draft …`, a curl line's
    /// `--cert`/`--cacert`), in place of its API's.
    var clientIdentity: ClientIdentity?
    var trustRootsFile: String?
    /// The body was made from the description (`body example`), not typed: its values are
    /// placeholders, never secrets.
    var bodyIsExample = false

    init() {}

    // MARK: Editing

    mutating func apply(_ edit: QueryEdit) {
        switch edit {
        case .add(let name, let value): query.append(QueryPair(name: name, value: value))
        case .remove(let name): query.removeAll { $0.name == name }
        }
    }

    mutating func apply(_ edit: HeaderEdit) {
        switch edit {
        case .set(let name, let value):
            let canonical = NetworkHeaders.Name(name).canonicalName
            if let index = headerIndex[canonical] {
                headers[index].value = value
            } else {
                headerIndex[canonical] = headers.count
                headers.append(Header(name: name, value: value))
            }
        case .remove(let name):
            let canonical = NetworkHeaders.Name(name).canonicalName
            guard headerIndex[canonical] != nil else { return }
            headers.removeAll { NetworkHeaders.Name($0.name).canonicalName == canonical }
            headerIndex = [:]
            for (index, header) in headers.enumerated() {
                headerIndex[NetworkHeaders.Name(header.name).canonicalName] = index
            }
        }
    }

    /// Moves the path like a directory: `cd users`, `cd ..`, `cd /`, `cd /a/b`.
    mutating func cd(_ argument: String) {
        let (prefix, path) = Self.splitTarget(target)
        var segments = path.split(separator: "/").map(String.init)
        if argument.hasPrefix("/") { segments = [] }
        for part in argument.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !segments.isEmpty { segments.removeLast() }
            default: segments.append(String(part))
            }
        }
        target = prefix + "/" + segments.joined(separator: "/")
    }

    /// Splits `https://host:1/a/b` into (`https://host:1`, `/a/b`); a path has no prefix.
    static func splitTarget(_ target: String) -> (prefix: String, path: String) {
        guard let scheme = target.range(of: "://") else { return ("", target) }
        let afterScheme = target[scheme.upperBound...]
        guard let slash = afterScheme.firstIndex(of: "/") else { return (target, "/") }
        return (String(target[..<slash]), String(target[slash...]))
    }

    /// Applies HTTPie-style items: headers, query, and body fields (JSON, or multipart with files).
    mutating func apply(_ items: [RequestItem]) {
        var fields: [RequestItem] = []
        for item in items {
            switch item {
            case .header(let name, let value): apply(.set(name: name, value: value))
            case .removeHeader(let name): apply(HeaderEdit.remove(name))
            case .query(let name, let value): query.append(QueryPair(name: name, value: value))
            case .field, .rawJSON, .file: fields.append(item)
            }
        }
        guard !fields.isEmpty else { return }
        body = fields.contains { $0.kind == .file } ? .multipart(fields) : .json(fields)
        bodyIsExample = false
    }
}
