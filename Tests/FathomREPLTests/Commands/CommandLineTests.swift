import Foundation
import Testing

@testable import FathomREPL

/// Every command writes its own line, and that line parses back to an equal command: what `save`,
/// `fathom import` and the start-up write is what the parser reads.
@Suite struct CommandLineTests {
    /// Lines for every registered command, each form its parser takes. A command added to the
    /// registry without samples here fails ``everyCommandHasSamples()``.
    static let samples: [String: [String]] = [
        "base": [
            "base", "base http://127.0.0.1:8080/v1", "base {{demo}}", #"base 'http://h/a"b'"#,
            "base --move http://127.0.0.1:4010",
        ],
        "path": ["path /users/{{id}}", "path 'a b'", "path http://x.test/q?a=1&b=2", "path -x"],
        "cd": ["cd", "cd users", "cd ..", "cd /", "cd 'a b'"],
        "method": ["method", "method POST", "method wHat", "method get", "method 'POsT'"],
        "query": ["query", "query page=2 per_page=10", "query flag", "query -flag", "query 'a b=c d'", "query '-x=1'"],
        "header": ["header", "header Accept: application/json", "header -Accept -X-Trace", "header X: a  b 'c'"],
        "body": [
            "body upload @photo.jpg",
            "body", "body none", "body {\"a\": 1}", "body plain text", "body @payload.json", "body @'my file.json'",
            "body form a=1 b='two words'", "body json name=Ada age:=36", "body multipart f@photo.jpg a=b",
            "body example", "body <<EOF\nline one\n  two\nEOF", "body raw <<EOF\n{\"a\":\n1}\nEOF",
            "body raw 'a=1&b=2'", "body data a=1 @form.txt '@literal' --binary @raw.bin '-x' ''",
            "body raw $'a\\r\\nb'", "body <<EOF\nnone\nEOF", "body <<EOF\nit's\nEOF", "body text $'a\\r\\nb'",
            "body text and more",
        ],
        "send": [
            "send", "send --repeat 100 --concurrency 10", "send --duration 30s --rate 50/s -c 4",
            "send --data 'rows of.csv' --rate 2.5/s", #"send {"type": "hello", "n": 1}"#, "send hello there",
            "send @message.json", "send '-starts with a dash'", "send '  blanks around  '", #"send $'two\nlines'"#,
        ],
        "show": [
            "show", "show request", "show response", "show #3", "show session", "show headers off",
            "show #2 > out.json",
        ],
        "reset": ["reset"],
        "get": [
            "get", "get /users page==2 X-Trace:1", "get http://127.0.0.1:8765/get", "get :3000/x", "get '/a b'",
            "get /users/{{$random.int 1 6}} --repeat 200 -c 64", "get /x --duration 2s",
        ],
        "post": [
            "post /users name=Ada age:=36 'tags:=[\"a\"]'", "post /echo 'note=two words' Accept:",
            "post /form 'pass\\@word=x' 'a\\=b==c' 'back\\\\slash=1'",
        ],
        "put": ["put /users/1 active:=true"],
        "patch": ["patch /users/{{id}} name=Grace"],
        "delete": ["delete /users/1"],
        "head": ["head /h"],
        "options": ["options /o"],
        "curl": [
            "curl http://x.test/a", "curl -X POST 'http://x.test/a b' -H 'A: 1' -d '{\"k\": \"v\"}'",
            "curl -u ada:pw -k -L http://x.test/",
        ],
        "import": ["import curl -", "import har api.har", "import postman 'my collection.json'", "import curl '-x'"],
        "export": [
            "export curl", "export httpie #2", "export swift --all", "export har out.har", "export grpcurl #3",
            "export grpcurl --all",
        ],
        "grpcurl": [
            "grpcurl -plaintext 127.0.0.1:50051 list",
            "grpcurl -plaintext -H 'authorization: Bearer {{token}}' -d '{\"id\": 2}' 127.0.0.1:50051 pkg.Users/GetUser",
            "grpcurl -proto users.proto -import-path protos -d '{\"a\": 1} {\"a\": 2}' api.test:443 pkg.Users.Add",
        ],
        "api": ["api", "api share http://127.0.0.1:9", "api unshare {{other}}"],
        "default": [
            "default", "default header X-Client: fathom", "default header -X-Client", "default query v=2",
            "default query -v",
        ],
        "auth": [
            "auth", "auth none", "auth bearer {{token}}", "auth basic ada", "auth basic ada:pw",
            "auth apikey header X-Key k1",
            "auth apikey query api_key {{key}}", "auth oauth2 client-credentials /oauth/token id {{secret}} read",
            "auth draft none", "auth draft bearer t0k", "auth draft", "auth aws-sigv4",
            "auth aws-sigv4 --region eu-west-1 --service execute-api", "auth aws-sigv4 --profile work",
            "auth draft aws-sigv4 --service s3 AKID {{aws_secret_access_key}} {{aws_session_token}}",
            "auth oauth2 authorization-code https://auth.test/authorize /token cli",
            "auth oauth2 authorization-code --issuer https://auth.test web {{client_secret}} --scope 'read write' --redirect-port 8765 --client-auth post",
            "auth oauth2 device /device /token cli --scope read", "auth oauth2 device --issuer {{issuer}} tv",
        ],
        "cert": [
            "cert", "cert off", "cert client.pem", "cert client.pem --key client.key",
            "cert --ca ca.pem", "cert 'my client.pem' --key k.pem --ca ca.pem", "cert draft client.pem --key k.pem",
            "cert draft --ca ca.pem", "cert draft off", "cert draft",
        ],
        "set": ["set a = 1", "set a = ' padded '", "set b = \"quoted\"", "set c = {{a}}/x", "set d=1", "set e = ''"],
        "unset": ["unset a"],
        "vars": ["vars"],
        "secret": ["secret token", "secret token = abc", "secret token = ' x '"],
        "reveal": ["reveal token"],
        "env": ["env", "env use staging", "env use 'my env'"],
        "decoder": ["decoder", "decoder json", "decoder hex"],
        "log": ["log", "log off", "log headers", "log body wire.log"],
        "timeout": ["timeout", "timeout off", "timeout 10s", "timeout 1500ms", "timeout 2m"],
        "redirects": ["redirects", "redirects off", "redirects 3"],
        "insecure": ["insecure", "insecure on", "insecure off"],
        "proxy": ["proxy", "proxy off", "proxy http://me:{{pw}}@127.0.0.1:3128", "proxy socks5://127.0.0.1:1080"],
        "cookies": ["cookies", "cookies clear", "cookies on", "cookies off"],
        "mock": ["mock", "mock off", "mock /users @users.json", "mock /boom status 500", "mock 'off' status 200"],
        "pager": ["pager", "pager on", "pager auto"],
        "responses": ["responses"],
        "inspect": ["inspect $.a", "inspect #2 $.items[*].name --paths", "inspect '$[?@.age > 30]'", "inspect .a.b"],
        "let": ["let id = $.id", "let loc = header Location", "let code = status #2", "let x=$.x"],
        "diff": ["diff", "diff #1 #2", "diff #1", "diff --body", "diff --headers --ignore $.a --ignore $.b"],
        "expect": [
            "expect status 200", "expect status 2xx", "expect status != 500", "expect $.name == \"Ada\"",
            "expect $.n > 3", "expect header Content-Type ~ json", "expect header X exists", "expect time < 500ms",
            "expect body ~ 'a b'", "expect schema", "expect $.a absent", "expect batch p99 < 200ms",
            "expect batch status 2xx == 100%", "expect batch ttfb.p50 <= 1.5s", "expect batch errors == 0",
            "expect events >= 3", "expect event $.data.type == \"done\"", "expect event $.n exists",
            "expect \"$.headers['X-Client']\" == \"fathom\"", "expect header X ~ \"'q'\"",
            "expect message", "expect message $.type == \"echo\"", "expect message $.n > 2",
            "expect message $.id exists", "expect errors == 0", "expect errors >= 1",
        ],
        "volatile": ["volatile", "volatile $.updatedAt"],
        "stream": ["stream", "stream on", "stream off", "stream limit 10", "stream limit off"],
        "ws": ["ws", "ws /ws", "ws ws://127.0.0.1:8080/ws?ticks=3", "ws 'wss://h.test/a b'"],
        "ping": ["ping"],
        "close": ["close", "close 4000", "close 1001 going away", "close 4000 ' padded '"],
        "spec": [
            "spec", "spec coverage", "spec problems", "spec 'problems'", "spec off", "spec api.yaml",
            "spec --lenient 'dir with \"quotes\"/api.json'",
            "spec 'off'",
        ],
        "grpc": [
            "grpc", "grpc off", "grpc 'off'", "grpc 127.0.0.1:50051 --plaintext",
            "grpc localhost:443 --proto users.proto -I protos --protoset all.protoset",
            "grpc grpcs://api.example.com --proto 'my users.proto'",
        ],
        "call": [
            "call GetUser", "call pkg.Users/GetUser {\"id\": 2}", "call GetUser id:=2 name=Ada nested.field=x",
            "call Shout [{\"a\": 1}, {\"a\": 2}]",
        ],
        "graphql": [
            "graphql", "graphql off", "graphql 'off'", "graphql /graphql",
            "graphql /api/graphql --schema schema.graphql",
            "graphql --schema 'my schema.json'", "graphql http://127.0.0.1:8000/graphql",
        ],
        "mutation": [
            "{ users { id } }", "query User($id: ID!) { user(id: $id) { name } } id=2",
            "mutation { addTodo(title: \"x\") { id } } limit:=10", "query A { a } query B { b } B",
            "query @ops.graphql Users role=ADMIN", "subscription { count }", "{\n  users { id }\n}",
            "{ users { id } } filter:='{\"a\":1}'", "{ user(id: \"{{id}}\") { name } } id={{id}}",
            "query($n: Int = 1) { a(s: \"}\") # }\n b }", "{ a } fragment F on Query { a }",
            "{ users { id } } --repeat 10 --concurrency 2",
            "query Q($id: ID!) { user(id: $id) { id } } id=1 --duration 2s",
        ],
        "ls": ["ls", "ls /users", "ls ..", "ls 'a b'"],
        "describe": ["describe", "describe getUser", "describe GET /users/{id}"],
        "op": ["op getUser id=2", "op listUsers role==admin X-Trace:1"],
        "validate": ["validate", "validate strict", "validate off", "validate --default strict"],
        "save": ["save s.fathom", "save 'my session.fathom' --requests-only"],
        "load": ["load s.fathom", "load 'a b.fathom'"],
        "replay": ["replay a.fathom b.fathom --compare", "replay '--x.fathom'"],
        "record": ["record", "record on", "record off"],
        "help": ["help", "help body", "help ?"],
        "history": ["history"],
        "exit": ["exit"],
    ]

    @Test func everyCommandHasSamples() {
        let names = CommandRegistry.all.map(\.name)
        #expect(Set(names).subtracting(Self.samples.keys).isEmpty, "commands without samples")
        #expect(Set(Self.samples.keys).subtracting(names).isEmpty, "samples for no command")
    }

    /// parse → line → parse gives an equal command, and the line is the canonical one (writing
    /// it again gives the same text).
    @Test(arguments: samples.sorted { $0.key < $1.key }.flatMap { name, lines in lines.map { (name, $0) } })
    func aLineParsesBackToAnEqualCommand(name: String, line: String) throws {
        let command = try #require(try CommandParser.parse(line), "\(line)")
        #expect(CommandRegistry.command(named: name).map { type(of: command) == $0.type } == true)
        let written = command.line
        let again = try #require(try CommandParser.parse(written), "\(written)")
        #expect(again.isEqual(to: command), "'\(line)' wrote '\(written)', which parses to \(again)")
        #expect(again.line == written, "'\(written)' is not canonical: it writes '\(again.line)'")
    }

    /// Inputs the fuzz target found: each command's line parses back to it.
    @Test(arguments: [
        "get \u{12}\u{0}ser\u{590}\u{FFFD}\u{0}\u{0}\u{59C}er\u{590}\u{FFFD}\u{FFFD}",
        "body <<'e=\u{0}<'e\nb\u{0F}o\u{FFFD}3\r\r<<'e=\u{0}\u{0}\u{FFFD}st\n",
        #"expect "$.headers['er-Agent']" ~ "^f'''m/""#,
    ])
    func fuzzFindingsRoundTrip(_ text: String) throws {
        let command = try #require(try CommandParser.parse(text))
        let written = command.line
        let again = try CommandParser.parse(written)
        let report = "\(text.debugDescription) wrote \(written.debugDescription): \(String(reflecting: again))"
        #expect(again?.isEqual(to: command) == true, "\(report.replacingOccurrences(of: "\u{0}", with: "<NUL>"))")
    }

    /// The quoter's words are read back by the tokenizer as they were made, whatever they hold.
    @Test(arguments: [
        "plain", "", "a b", "it's", "say \"hi\"", "back\\slash", "#3", "-x", "tab\there", "new\nline", "esc\u{1B}[0m",
        "$'not ansi'", "{a,b}", "ünïcödé ✓", "'", "\"", "a'b\"c\\d",
    ])
    func quotedWordsReadBack(_ text: String) throws {
        let word = Quoting.word(text, literal: true)
        let words = try Tokenizer.words(Substring(word))
        #expect(words.map(\.text) == [text], "\(word)")
        #expect(text.isEmpty || !text.hasPrefix("-") || words.first?.quoted == true)
    }

    /// Words for bash: run by bash, `printf %s` prints each as it was made.
    @Test func shellWordsReadBackInBash() throws {
        let texts = ["plain", "a b", "it's", "$HOME", "`id`", "new\nline", "{a,b}", "*", "~", "!x", "a;b", "ünï"]
        let script = "printf '%s\\0' " + texts.map { Quoting.word($0, shell: true) }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let printed = String(decoding: data, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false)
        #expect(Array(printed.dropLast()).map(String.init) == texts)
    }
}
