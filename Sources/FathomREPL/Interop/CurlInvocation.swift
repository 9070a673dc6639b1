@_spi(Fathom) import FathomHTTP
import Foundation

/// A `curl` command line read as curl reads its options, into what Fathom sends: the request,
/// the settings it implies, and the flags that only shape curl's own output.
struct CurlInvocation: Equatable, Sendable {
    enum Body: Equatable, Sendable {
        case none
        /// Text as it goes on the wire (data joined with `&`, `--json` parts joined).
        case text(String)
        /// A file sent as its bytes (`--data-binary @file`).
        case file(String)
        /// A file sent as its bytes with no Content-Type (`-T file`, as curl uploads it).
        case upload(String)
        /// `-d` pieces with a file among them, joined with `&` as they are sent: the files are
        /// named, never read here.
        case data([BodySpec.DataPiece])
        /// `-F` parts: `name=value` fields and `name=@path` files.
        case multipart([RequestItem])
    }

    var method: HTTPMethod = .get
    /// The URLs in the order given, each with `--url-query` (and `-G` data) added: curl sends one
    /// request to each, in turn, with the same options.
    var urls: [String] = []
    /// The first URL.
    var url: String { urls.first ?? "" }
    /// The headers sent to the first URL; ``headers(for:)`` gives another URL's (a cookie file's
    /// cookies depend on the URL).
    var headers: [(name: String, value: String)] { headers(for: url) }
    /// The headers as the line gives them, a cookie file's `Cookie` header empty where it goes.
    private var written: [(name: String, value: String)] = []
    private var cookieFiles: [(header: Int, text: String)] = []
    var body: Body = .none
    /// `-u USER[:PASS]`.
    var user: (name: String, password: String?)?
    var bearer: String?
    /// `--unix-socket PATH`: every URL goes to the socket (`http+unix://…`).
    var unixSocket: String?
    /// `--aws-sigv4 aws:amz[:REGION[:SERVICE]]`: sign with AWS Signature Version 4, `-u` being
    /// the keys; a region or service not given is the host's.
    var awsSigV4: (region: String?, service: String?)?
    /// `-E/--cert FILE[:PASSWORD]`, `--key FILE`, `--cacert FILE`: the requests' own client
    /// certificate and CA (PEM).
    var certificate: String?
    var certificatePassword: String?
    var key: String?
    var cacert: String?
    /// `--capath DIR`: a folder of CA certificates (Fathom takes it where it takes `--cacert`).
    var capath: String?
    var insecure = false
    /// `nil` does not follow redirects (curl's default); `-L` follows up to `--max-redirs` (50).
    var redirects: Int?
    var timeout: Duration?
    var proxy: String?

    /// curl takes `host:port` for an HTTP proxy; Fathom's setting is a URL.
    static func proxyURL(_ given: String) -> String {
        given.contains("://") ? given : "http://" + given
    }

    /// The headers curl sends to `url`: a cookie file gives the cookies that match it, or no
    /// `Cookie` header when none does.
    func headers(for url: String) -> [(name: String, value: String)] {
        var headers = written
        for file in cookieFiles.reversed() {
            let pairs = Self.cookieFile(file.text, for: url)
            if pairs.isEmpty { headers.remove(at: file.header) } else { headers[file.header].value = pairs }
        }
        return headers
    }
    /// Flags that only shape curl's own output, accepted and named in one note.
    var outputFlags: [String] = []
    /// Flags accepted with nothing to do for Fathom (`--compressed`, `--http2`…).
    var ignoredFlags: [String] = []

    static func == (a: Self, b: Self) -> Bool {
        a.method == b.method && a.urls == b.urls
            && a.headers.map { [$0.name, $0.value] } == b.headers.map { [$0.name, $0.value] }
            && a.body == b.body && a.user?.name == b.user?.name && a.user?.password == b.user?.password
            && a.bearer == b.bearer && a.unixSocket == b.unixSocket && a.awsSigV4?.region == b.awsSigV4?.region
            && a.awsSigV4?.service == b.awsSigV4?.service && (a.awsSigV4 == nil) == (b.awsSigV4 == nil)
            && a.insecure == b.insecure && a.redirects == b.redirects && a.timeout == b.timeout
            && a.proxy == b.proxy && a.certificate == b.certificate && a.certificatePassword == b.certificatePassword
            && a.key == b.key && a.cacert == b.cacert && a.capath == b.capath
    }

    private static let outputOnly: Set<String> = [
        "-s", "--silent", "-S", "--show-error", "-v", "--verbose", "-i", "--include", "-f", "--fail",
        "--fail-with-body", "-#", "--progress-bar", "--no-progress-meter", "-N", "--no-buffer", "-O",
        "--remote-name", "-J", "--remote-header-name", "--globoff", "-g", "-q", "--disable",
    ]
    private static let outputOnlyWithValue: Set<String> = [
        "-o", "--output", "-w", "--write-out", "--trace", "--trace-ascii", "--stderr", "-D", "--dump-header",
        "-c", "--cookie-jar", "--retry", "--retry-delay", "--retry-max-time",
    ]
    private static let ignored: Set<String> = [
        "--compressed", "--http1.1", "--http2", "--http2-prior-knowledge", "-0", "--http1.0", "--tr-encoding",
        "--tcp-nodelay", "--path-as-is", "--location-trusted", "-4", "--ipv4", "-6", "--ipv6", "--ssl-reqd",
    ]
    /// Long options that take a value, and the short letters that do.
    private static let withValue: Set<String> = [
        "-X", "--request", "-H", "--header", "-d", "--data", "--data-raw", "--data-binary", "--data-ascii",
        "--data-urlencode", "--json", "-F", "--form", "--form-string", "--url", "--url-query", "-u", "--user",
        "--oauth2-bearer", "--aws-sigv4", "--unix-socket", "-b", "--cookie", "-A", "-E", "--cert", "--key",
        "--cacert", "--capath", "--cert-type", "--key-type", "--pass",
        "--user-agent", "-e", "--referer", "-T",
        "--upload-file",
        "--max-redirs", "-m", "--max-time", "--connect-timeout", "-x", "--proxy", "--socks5", "--socks5-hostname",
        "-r", "--range",
    ]

    /// Reads `words`, the arguments after `curl`.
    ///
    /// The most a curl line reads of a file into itself (`-H @file`, `-b file`,
    /// `--data-urlencode @file`, `-F name=<file`, `-G -d @file`): these become text in the
    /// request. A body file (`-d @`, `--data-binary @`, `-F name=@`, `-T`) is only named, and
    /// streamed when the request is sent, whatever its size.
    static let readLimit = 1 << 20

    /// Reads a file a curl line names into itself, refusing one past ``readLimit``.
    ///
    /// - Throws: ``CommandError`` naming the file and the limit.
    static func readFile(_ path: String) throws -> Data {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= readLimit else {
            throw CommandError(
                .parse,
                "'\(path)' is \(ByteCount.format(size)): a curl line reads at most \(ByteCount.format(readLimit)) of a file into itself",
                hint: "send a large file as the body, with --data-binary @FILE or -T FILE: it streams")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileReadNoSuchFile) }
        defer { try? handle.close() }
        // Read to the limit and a byte past it: a device or a FIFO has no size to check first.
        let data = try handle.read(upToCount: readLimit + 1) ?? Data()
        guard data.count <= readLimit else {
            throw CommandError(
                .parse,
                "'\(path)' is longer than the \(ByteCount.format(readLimit)) a curl line reads of a file into itself",
                hint: "send a large file as the body, with --data-binary @FILE or -T FILE: it streams")
        }
        return data
    }

    /// - Parameter read: Reads a file named in the line (`-H @file`, `-b file`,
    ///   `--data-urlencode @file`): ``readFile(_:)`` with the path resolved.
    static func parse(_ words: [String], read: (String) throws -> Data) throws(CommandError) -> CurlInvocation {
        var curl = CurlInvocation()
        var data: [BodySpec.DataPiece] = []
        var json: [String] = []
        var form: [RequestItem] = []
        var urls: [String] = []
        var queries: [String] = []
        var get = false
        var head = false
        var upload: String?
        var method: String?
        var follow = false
        var maxRedirects = 50
        var noBasic = false
        var arguments = expand(words)[...]

        func value(_ flag: String) throws(CommandError) -> String {
            guard let next = arguments.popFirst() else {
                throw CommandError(.parse, "curl option \(flag) needs a value")
            }
            return next
        }
        func contents(_ path: String) throws(CommandError) -> String {
            guard path != "-" else {
                throw CommandError(
                    .parse, "a body from standard input (@-) is not taken", hint: "use @FILE, or paste the body")
            }
            do {
                return String(decoding: try read(path), as: UTF8.self)
            } catch let error as CommandError {
                throw error
            } catch {
                throw CommandError(.parse, "cannot read '\(path)' named in the curl line")
            }
        }

        while let argument = arguments.popFirst() {
            if argument == "--next" || argument == "-:" {
                throw CommandError(
                    .parse, "--next is not taken: Fathom takes one set of options per curl line",
                    hint: "paste each part after --next as its own curl line")
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                urls.append(argument)
                continue
            }
            if outputOnly.contains(argument) {
                curl.outputFlags.append(argument)
                continue
            }
            if outputOnlyWithValue.contains(argument) {
                curl.outputFlags.append(argument)
                _ = try value(argument)
                continue
            }
            if ignored.contains(argument) {
                curl.ignoredFlags.append(argument)
                continue
            }
            switch argument {
            case "-X", "--request":
                let given = try value(argument)
                guard CommandParser.isMethod(given) else {
                    throw CommandError(
                        .parse, "curl option \(argument) takes a method, not '\(given)'", hint: "e.g. -X POST")
                }
                method = given
            case "-H", "--header":
                let header = try value(argument)
                if header.hasPrefix("@") {
                    for line in try contents(String(header.dropFirst())).split(whereSeparator: \.isNewline) {
                        curl.add(header: String(line))
                    }
                } else {
                    curl.add(header: header)
                }
            case "-d", "--data", "--data-ascii", "--data-binary":
                // A file is named, not read: it streams when the request is sent.
                let text = try value(argument)
                let path = String(text.dropFirst())
                guard text.hasPrefix("@") else {
                    data.append(.text(text))
                    continue
                }
                guard path != "-" else {
                    throw CommandError(
                        .parse, "a body from standard input (@-) is not taken", hint: "use @FILE, or paste the body")
                }
                data.append(.file(path, binary: argument == "--data-binary"))
            case "--data-raw": data.append(.text(try value(argument)))
            case "--data-urlencode": data.append(.text(try urlencoded(try value(argument), contents)))
            case "--json":
                let text = try value(argument)
                json.append(text)
            case "-F", "--form", "--form-string":
                let part = try value(argument)
                guard let equals = part.firstIndex(of: "=") else {
                    throw CommandError(.parse, "curl option \(argument) takes name=value, not '\(part)'")
                }
                let name = String(part[..<equals])
                var content = String(part[part.index(after: equals)...])
                if argument != "--form-string", content.hasPrefix("@") {
                    // `@path;type=…;filename=…` is how a file item reads it too.
                    form.append(.file(name: name, path: String(content.dropFirst())))
                    continue
                }
                if argument != "--form-string", content.hasPrefix("<") {
                    content = try contents(String(content.dropFirst()))
                }
                form.append(.field(name: name, value: content))
            case "--url": urls.append(try value(argument))
            case "--url-query": queries.append(try urlencoded(try value(argument), contents))
            case "-u", "--user":
                let credentials = try value(argument)
                if let colon = credentials.firstIndex(of: ":") {
                    curl.user = (String(credentials[..<colon]), String(credentials[credentials.index(after: colon)...]))
                } else {
                    curl.user = (credentials, nil)
                }
            case "--oauth2-bearer": curl.bearer = try value(argument)
            case "--unix-socket": curl.unixSocket = try value(argument)
            case "--aws-sigv4":
                // provider1[:provider2[:region[:service]]], as curl reads it.
                let parts = try value(argument).split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                func part(_ index: Int) -> String? { parts.count > index && !parts[index].isEmpty ? parts[index] : nil }
                curl.awsSigV4 = (part(2), part(3))
            case "-b", "--cookie":
                let cookie = try value(argument)
                if cookie.contains("=") {
                    curl.add(header: "Cookie: " + cookie)
                } else if let file = try? read(cookie) {
                    // A cookie file curl cannot read is no cookies, not an error: the same here.
                    // Which of its cookies go depends on the URL, known at the end of the line:
                    // the header keeps its place until then.
                    curl.cookieFiles.append((curl.written.count, String(decoding: file, as: UTF8.self)))
                    curl.written.append(("Cookie", ""))
                }
            case "-r", "--range":
                let range = try value(argument)
                curl.add(header: "Range: bytes=" + range + (range.contains("-") ? "" : "-"))
            case "--basic": break
            case "--no-basic": noBasic = true
            case "--digest", "--ntlm", "--negotiate", "--anyauth":
                // Fathom speaks Basic and Bearer only: the credentials are not sent another way.
                noBasic = true
                curl.ignoredFlags.append(argument)
            case "-A", "--user-agent": curl.add(header: "User-Agent: " + (try value(argument)))
            case "-e", "--referer": curl.add(header: "Referer: " + (try value(argument)))
            case "-I", "--head": head = true
            case "-G", "--get": get = true
            case "-T", "--upload-file": upload = try value(argument)
            case "-k", "--insecure": curl.insecure = true
            case "-E", "--cert":
                // `FILE:PASSWORD`, a colon in the file written `\:` as curl has it.
                let given = try value(argument)
                var file = ""
                var rest = given[...]
                while let character = rest.popFirst() {
                    if character == "\\", rest.first == ":" {
                        file.append(rest.removeFirst())
                    } else if character == ":" {
                        curl.certificatePassword = String(rest)
                        break
                    } else {
                        file.append(character)
                    }
                }
                curl.certificate = file
            case "--key": curl.key = try value(argument)
            case "--pass": curl.certificatePassword = try value(argument)
            case "--cacert": curl.cacert = try value(argument)
            case "--cert-type", "--key-type":
                let type = try value(argument)
                guard type.uppercased() == "PEM" else {
                    throw CommandError(
                        .parse, "curl option \(argument) \(type) is not taken: Fathom reads PEM files",
                        hint: "convert it: openssl x509 -inform DER -in FILE -out FILE.pem (a key: openssl pkey)")
                }
            case "--capath": curl.capath = try value(argument)
            case "-L", "--location": follow = true
            case "--max-redirs":
                guard let count = Int(try value(argument)), count >= 0 else {
                    throw CommandError(.parse, "curl option --max-redirs takes a number")
                }
                maxRedirects = count
            case "-m", "--max-time":
                let text = try value(argument)
                guard let seconds = Double(text), seconds > 0, seconds < 365 * 86_400 else {
                    throw CommandError(.parse, "curl option \(argument) takes seconds, not '\(text)'")
                }
                curl.timeout = .milliseconds(Int64(seconds * 1000))
            case "--connect-timeout":
                _ = try value(argument)
                curl.ignoredFlags.append(argument)
            case "-x", "--proxy": curl.proxy = try value(argument)
            case "--socks5", "--socks5-hostname":
                let proxy = try value(argument)
                curl.proxy = proxy.contains("://") ? proxy : "socks5://" + proxy
            default:
                throw CommandError(
                    .parse, "curl option \(argument) is not taken",
                    hint: "remove it, or set what it does with a Fathom command"
                )
            }
        }

        guard !urls.isEmpty else { throw CommandError(.parse, "the curl line has no URL") }
        if let file = curl.cacert, let folder = curl.capath {
            throw CommandError(
                .parse, "curl's --cacert and --capath together are not taken: Fathom trusts one file or one folder",
                hint: "put \(file) in \(folder), then give --capath \(folder) alone")
        }
        if upload != nil, urls.count > 1 {
            throw CommandError(
                .parse, "-T with \(urls.count) URLs is not taken: Fathom uploads to one URL per line",
                hint: "give one URL, or one curl line per upload")
        }
        var query = queries
        if get {
            // In the URL the data is text: its files are read (up to the limit).
            for piece in data {
                switch piece {
                case .text(let text): query.append(text)
                case .file(let path, let binary):
                    let text = try contents(path)
                    query.append(binary ? text : text.filter { $0 != "\n" && $0 != "\r" })
                }
            }
        }
        curl.urls = urls.map { given in
            // As curl does, a URL without a scheme is http; a `{{variable}}` carries its own.
            var url = given.contains("://") || given.hasPrefix("{{") ? given : "http://" + given
            if !query.isEmpty {
                url +=
                    (url.contains("?") ? (url.hasSuffix("?") || url.hasSuffix("&") ? "" : "&") : "?")
                    + query.joined(separator: "&")
            }
            return url
        }
        if !json.isEmpty {
            if json.count == 1, json[0].hasPrefix("@"), json[0] != "@-" {
                // One file: named, streamed when sent.
                curl.body = .file(String(json[0].dropFirst()))
            } else {
                curl.body = .text(
                    try json.map { part throws(CommandError) in
                        part.hasPrefix("@") ? try contents(String(part.dropFirst())) : part
                    }.joined())
            }
            curl.addDefault(header: "Content-Type", "application/json")
            curl.addDefault(header: "Accept", "application/json")
        } else if !form.isEmpty {
            curl.body = .multipart(form)
        } else if !data.isEmpty, !get {
            let texts = data.compactMap { piece -> String? in
                if case .text(let text) = piece { text } else { nil }
            }
            if texts.count == data.count {
                curl.body = .text(texts.joined(separator: "&"))
            } else if data.count == 1, case .file(let path, binary: true) = data[0] {
                curl.body = .file(path)
            } else {
                curl.body = .data(data)
            }
            curl.addDefault(header: "Content-Type", "application/x-www-form-urlencoded")
        } else if let upload {
            curl.body = .upload(upload)
            // `curl -T file URL` with no file part (no path, or one ending in `/`) puts the file's name there.
            let url = curl.url
            let name = (upload as NSString).lastPathComponent
            if let scheme = url.range(of: "://"), !url[scheme.upperBound...].contains("/") {
                curl.urls = [url + "/" + name]
            } else if url.hasSuffix("/") {
                curl.urls = [url + name]
            }
        }
        let defaultMethod: HTTPMethod =
            head ? .head : upload != nil ? .put : (curl.body != .none ? .post : .get)
        // As written: curl sends `-X wHat` as `wHat`.
        curl.method = method.map { HTTPMethod(rawValue: $0) } ?? defaultMethod
        if noBasic { curl.user = nil }
        curl.redirects = follow ? maxRedirects : nil
        if let socket = curl.unixSocket {
            // The URL's host names no machine: every URL goes to the socket.
            var urls: [String] = []
            for url in curl.urls { urls.append(try Self.throughSocket(url, socket)) }
            curl.urls = urls
        }
        return curl
    }

    /// `http://localhost/v1/x?y` through the socket at `path`: `http+unix://%2Fpath/v1/x?y`.
    static func throughSocket(_ url: String, _ path: String) throws(CommandError) -> String {
        guard path.hasPrefix("/") else {
            throw CommandError(.parse, "--unix-socket takes the socket's absolute path, not '\(path)'")
        }
        let written = url.contains("://") ? url : "http://" + url
        let scheme = written.lowercased().hasPrefix("https://") ? "https+unix" : "http+unix"
        let afterScheme = written[written.range(of: "://")!.upperBound...]
        let rest = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }).map { afterScheme[$0...] } ?? ""
        let encoded = path.addingPercentEncoding(withAllowedCharacters: Self.socketCharacters) ?? path
        return "\(scheme)://\(encoded)" + (rest.hasPrefix("?") ? "/" : "") + rest
    }

    private static let socketCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// Bundled short flags (`-sSL`) and values glued to them (`-XPOST`, `-d@file`) as separate
    /// words; `--flag=value` as two.
    private static func expand(_ words: [String]) -> [String] {
        var result: [String] = []
        for word in words {
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "="),
                withValue.contains(String(word[..<equals]))
            {
                result += [String(word[..<equals]), String(word[word.index(after: equals)...])]
            } else if word.hasPrefix("-"), !word.hasPrefix("--"), word.count > 2 {
                var rest = word.dropFirst()
                while let letter = rest.first {
                    let flag = "-" + String(letter)
                    rest = rest.dropFirst()
                    result.append(flag)
                    if withValue.contains(flag) || outputOnlyWithValue.contains(flag), !rest.isEmpty {
                        result.append(String(rest))
                        break
                    }
                }
            } else {
                result.append(word)
            }
        }
        return result
    }

    /// `--data-urlencode` forms: `content`, `=content`, `name=content`, `@file`, `name@file`.
    private static func urlencoded(
        _ text: String, _ contents: (String) throws(CommandError) -> String
    ) throws(CommandError) -> String {
        // As curl escapes: everything but the unreserved characters (RFC 3986 §2.3).
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        func encode(_ value: String) -> String {
            value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
        }
        if let equals = text.firstIndex(of: "=") {
            let name = String(text[..<equals])
            let content = encode(String(text[text.index(after: equals)...]))
            return name.isEmpty ? content : "\(name)=\(content)"
        }
        if let at = text.firstIndex(of: "@") {
            let name = String(text[..<at])
            let content = encode(try contents(String(text[text.index(after: at)...])))
            return name.isEmpty ? content : "\(name)=\(content)"
        }
        return encode(text)
    }

    /// The cookies of a Netscape cookie file that curl sends to `url`, as one `Cookie` value:
    /// those whose domain (and subdomains, when the file says so) and path the URL is under,
    /// secure ones only over https, none that has expired.
    static func cookieFile(_ text: String, for url: String, now: Date = Date()) -> String {
        let parsed = URLComponents(string: url)
        let host = parsed?.host?.lowercased() ?? ""
        let path = parsed.map { $0.percentEncodedPath.isEmpty ? "/" : $0.percentEncodedPath } ?? "/"
        let secure = parsed?.scheme?.lowercased() == "https"
        let pairs = text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            var line = Substring(line)
            if line.hasPrefix("#HttpOnly_") { line = line.dropFirst("#HttpOnly_".count) }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard !line.hasPrefix("#"), fields.count >= 7 else { return nil }
            let domain = fields[0].lowercased()
            let bare = domain.hasPrefix(".") ? String(domain.dropFirst()) : domain
            let subdomains = fields[1].uppercased() == "TRUE" || domain.hasPrefix(".")
            guard host == bare || (subdomains && host.hasSuffix("." + bare)) else { return nil }
            let cookiePath = fields[2].isEmpty ? "/" : String(fields[2])
            guard path == cookiePath || path.hasPrefix(cookiePath.hasSuffix("/") ? cookiePath : cookiePath + "/")
            else { return nil }
            guard !(fields[3].uppercased() == "TRUE" && !secure) else { return nil }
            if let expiry = TimeInterval(fields[4]), expiry > 0, expiry < now.timeIntervalSince1970 { return nil }
            return "\(fields[5])=\(fields[6])"
        }
        return pairs.joined(separator: "; ")
    }

    /// `Name: value`; `Name;` sends an empty header; `Name:` alone would remove one curl adds.
    private mutating func add(header line: String) {
        if line.hasSuffix(";"), !line.contains(":") {
            written.append((String(line.dropLast()), ""))
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { return }
        written.append((name, value))
    }

    private mutating func addDefault(header name: String, _ value: String) {
        guard !written.contains(where: { $0.name.lowercased() == name.lowercased() }) else { return }
        written.append((name, value))
    }
}
