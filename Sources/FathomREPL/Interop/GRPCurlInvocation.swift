@_spi(Fathom) import FathomJSON

/// A grpcurl command line, read as grpcurl reads it: its options (one dash or two), the server's
/// address, then a method to call — or `list` / `describe` and what to list or describe.
struct GRPCurlInvocation: Equatable, Sendable {
    enum Verb: Equatable, Sendable {
        /// `pkg.Service/Method` (or `pkg.Service.Method`).
        case call(String)
        /// `list [SERVICE]`.
        case list(String?)
        /// `describe [SYMBOL]`.
        case describe(String?)
    }

    var address = ""
    var verb = Verb.list(nil)
    var plaintext = false
    var insecure = false
    /// `-H 'name: value'` (and `-rpc-header`), in order.
    var headers: [(name: String, value: String)] = []
    /// `-d`: the request message(s) as written.
    var data: String?
    var protos: [String] = []
    var importPaths: [String] = []
    var protosets: [String] = []
    /// `-max-time` (seconds).
    var maxTime: Double?
    /// `-cacert`, `-cert`, `-key`: a CA and a client certificate.
    var caCertificate: String?
    var certificate: String?
    var key: String?
    /// Options taken and ignored: they shape grpcurl's own output.
    var ignored: [String] = []

    static func == (a: Self, b: Self) -> Bool {
        a.address == b.address && a.verb == b.verb && a.plaintext == b.plaintext && a.insecure == b.insecure
            && a.headers.map { [$0.name, $0.value] } == b.headers.map { [$0.name, $0.value] } && a.data == b.data
            && a.protos == b.protos && a.importPaths == b.importPaths && a.protosets == b.protosets
            && a.maxTime == b.maxTime && a.caCertificate == b.caCertificate && a.certificate == b.certificate
            && a.key == b.key
    }

    /// Options with a value.
    private static let valued: Set<String> = [
        "H", "rpc-header", "reflect-header", "d", "proto", "import-path", "protoset", "max-time", "connect-timeout",
        "cacert", "cert", "key", "format", "authority", "servername", "user-agent", "keepalive-time",
        "max-msg-sz", "protoset-out", "proto-out-dir",
    ]
    /// Options without one.
    private static let flags: Set<String> = [
        "plaintext", "insecure", "v", "vv", "emit-defaults", "allow-unknown-fields", "format-error",
        "use-reflection", "msg-template", "expand-headers",
    ]
    /// Taken and ignored (grpcurl's own output, or what Fathom always does).
    private static let ignoredOptions: Set<String> = [
        "v", "vv", "emit-defaults", "format", "format-error", "use-reflection", "msg-template", "user-agent",
        "keepalive-time", "max-msg-sz", "connect-timeout", "allow-unknown-fields", "expand-headers", "authority",
        "servername", "reflect-header",
    ]

    /// Reads the words after `grpcurl` (quoting already resolved).
    static func parse(_ words: [String]) throws(CommandError) -> GRPCurlInvocation {
        var invocation = GRPCurlInvocation()
        var positional: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            guard word.hasPrefix("-"), word.count > 1, positional.isEmpty || word != "-" else {
                positional.append(word)
                continue
            }
            var name = String(word.drop { $0 == "-" })
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flags.contains(name) {
                switch name {
                case "plaintext": invocation.plaintext = true
                case "insecure": invocation.insecure = true
                default: invocation.ignored.append("-" + name)
                }
                continue
            }
            guard valued.contains(name) else {
                throw CommandError(
                    .parse,
                    .unknown(
                        kind: "grpcurl option", word: word,
                        suggestion: Spelling.closest(to: name, among: Array(valued.union(flags))).map { "-" + $0 }),
                    hint: "grpcurl [-plaintext] [-H 'NAME: VALUE'] [-d JSON] HOST:PORT METHOD")
            }
            if value == nil {
                guard index < words.count else {
                    throw CommandError(.parse, "-\(name) needs a value")
                }
                value = words[index]
                index += 1
            }
            let text = value ?? ""
            switch name {
            case "H", "rpc-header":
                guard let colon = text.firstIndex(of: ":") else {
                    throw CommandError(.parse, "-H '\(text)' is not NAME: VALUE")
                }
                invocation.headers.append(
                    (text[..<colon].trimmingBlanks, text[text.index(after: colon)...].trimmingBlanks))
            case "d":
                guard text != "@" else {
                    throw CommandError(
                        .parse, "-d @ reads the request from standard input, which a pasted line has none of",
                        hint: "put the JSON after -d")
                }
                invocation.data = text
            case "proto": invocation.protos.append(text)
            case "import-path": invocation.importPaths.append(text)
            case "protoset": invocation.protosets.append(text)
            case "max-time":
                guard let seconds = Double(text), seconds > 0 else {
                    throw CommandError(.parse, "-max-time \(text) is not a number of seconds")
                }
                invocation.maxTime = seconds
            case "cacert": invocation.caCertificate = text
            case "cert": invocation.certificate = text
            case "key": invocation.key = text
            default: invocation.ignored.append("-" + name)
            }
        }
        guard let address = positional.first else {
            throw CommandError(
                .parse, .missing("the server's HOST:PORT"), hint: "grpcurl [-plaintext] HOST:PORT METHOD|list|describe")
        }
        invocation.address = address
        let rest = positional.dropFirst()
        switch rest.first {
        case nil:
            throw CommandError(
                .parse, .missing("a method, or list or describe"), hint: "grpcurl … HOST:PORT pkg.Service/Method")
        case "list"?: invocation.verb = .list(rest.dropFirst().first)
        case "describe"?: invocation.verb = .describe(rest.dropFirst().first)
        case let method?: invocation.verb = .call(method)
        }
        let extra = positional.count - (rest.first == "list" || rest.first == "describe" ? 3 : 2)
        if extra > 0 { throw CommandError(.parse, .unexpected(word: positional.last ?? "")) }
        return invocation
    }

    /// `-d`'s messages: one JSON value, or several one after another (a client stream's), as
    /// `call` takes them — one value, or an array.
    func request() throws(CommandError) -> CallCommand.Request {
        var rest = (data ?? "").trimmingBlanksAround
        guard !rest.isEmpty else { return .none }
        var messages: [String] = []
        while !rest.isEmpty {
            let end = CallCommand.endOfJSON(rest)
            messages.append(String(rest[..<end]))
            rest = String(rest[end...]).trimmingBlanksAround
        }
        return .json(messages.count == 1 ? messages[0] : "[" + messages.joined(separator: ", ") + "]")
    }
}
