@_spi(Fathom) import FathomJSON

/// `grpc TARGET [--plaintext] [--proto FILE… -I DIR…] [--protoset FILE…] | grpc off`: makes a gRPC
/// server the current API and loads its services' descriptors; bare `grpc` says what is loaded.
struct GRPCCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "grpc", synopsis: "grpc HOST:PORT|URL [--plaintext] [--proto FILE -I DIR] [--protoset FILE] | grpc off",
        summary:
            "make a gRPC server the API and load its services (by reflection, or from files); bare says what is loaded",
        details: """
            The server's origin becomes the base's API (https://HOST:PORT, or http:// with `--plaintext` for h2c), \
            so `header`, `default header`, `auth` (a bearer token is `authorization` metadata), `cert`, \
            `cert --ca` and `insecure` apply to its calls as to any request to it. The descriptors come by server \
            reflection (grpc.reflection.v1, then v1alpha), asked with the API's credentials; or from protoset \
            files (`--protoset FILE`, repeatable); or from `.proto` files compiled by `protoc` (`--proto FILE`, \
            `-I DIR`, each repeatable). Then `ls` lists the services and methods, `describe` a service, method or \
            message, and `call SERVICE/METHOD {…}` calls one.
            """,
        completion: .wordsOrFiles(["--plaintext", "--proto", "-I", "--protoset", "off"]), group: .api)

    /// What `grpc TARGET …` loads.
    struct Load: Equatable, Sendable {
        var target: String
        var plaintext = false
        var protos: [String] = []
        var importPaths: [String] = []
        var protosets: [String] = []
    }

    enum Action: Equatable {
        case show
        case load(Load)
        case unload
    }

    var action: Action

    private static let options = ["--plaintext", "--proto", "-I", "--import-path", "--protoset"]

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let words = try arguments.words()
        if words.isEmpty { return GRPCCommand(action: .show) }
        if words.count == 1, !words[0].quoted, words[0].text == "off" { return GRPCCommand(action: .unload) }
        var load = Load(target: "")
        var target: String?
        var index = 0
        while index < words.count {
            let word = words[index]
            guard !word.quoted, word.text.hasPrefix("-") else {
                guard target == nil else {
                    throw CommandError(.parse, .unexpected(word: word.text), column: word.column, hint: spec.synopsis)
                }
                target = word.text
                index += 1
                continue
            }
            if word.text == "--plaintext" {
                load.plaintext = true
                index += 1
                continue
            }
            guard options.contains(word.text) else {
                throw CommandError(
                    .parse,
                    .unknown(
                        kind: "grpc option", word: word.text,
                        suggestion: Spelling.closest(to: word.text, among: options)),
                    column: word.column, hint: spec.synopsis)
            }
            guard index + 1 < words.count else {
                throw CommandError(.parse, .missing("a file after \(word.text)"), column: word.column)
            }
            let value = words[index + 1].text
            switch word.text {
            case "--proto": load.protos.append(value)
            case "--protoset": load.protosets.append(value)
            default: load.importPaths.append(value)
            }
            index += 2
        }
        guard let target else {
            throw CommandError(.parse, .missing("the server (HOST:PORT or a URL)"), hint: spec.synopsis)
        }
        load.target = target
        return GRPCCommand(action: .load(load))
    }

    var logKind: SessionLog.Kind? {
        switch action {
        case .show: nil
        case .load, .unload: .setting
        }
    }

    var filesRead: [String] {
        guard case .load(let load) = action else { return [] }
        return load.protos + load.protosets
    }

    var line: String {
        switch action {
        case .show: return "grpc"
        case .unload: return "grpc off"
        case .load(let load):
            var writer = LineWriter("grpc")
            if load.target == "off" || load.target.hasPrefix("-"), !load.target.contains("'") {
                // Quoted, or it would read as `grpc off` or an option.
                writer.raw("'\(load.target)'")
            } else {
                writer.word(load.target, literal: true)
            }
            if load.plaintext { writer.raw("--plaintext") }
            for proto in load.protos { writer.raw("--proto " + Quoting.word(proto, literal: true)) }
            for path in load.importPaths { writer.raw("-I " + Quoting.word(path, literal: true)) }
            for protoset in load.protosets { writer.raw("--protoset " + Quoting.word(protoset, literal: true)) }
            return writer.text
        }
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch action {
        case .show:
            let summary = executor.session.currentAPI.flatMap { api in
                api.grpc.map { GRPCSummary($0, target: api.origin.description) }
            }
            return .shows(.event(.grpcShown(summary)))
        case .unload:
            executor.session.currentAPI?.grpc = nil
            return .done
        case .load(let load):
            return try await executor.loadGRPC(load)
        }
    }
}
