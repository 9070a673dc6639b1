import FathomGRPC
@_spi(Fathom) import FathomJSON
import Foundation

/// `grpcurl …`: a grpcurl command line as pasted from a README or a runbook, run as grpcurl
/// would run it — a call, `list` or `describe` — and as one self-contained line: its `-H`
/// headers, `-d` message(s), `-insecure`, certificates and `-max-time` are this line's alone; the
/// server's API (its credentials) applies as to any request to that origin; the base stays.
/// Descriptors come from `-proto`/`-protoset`, else the API's own (`grpc`), else reflection.
struct GRPCurlCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "grpcurl", synopsis: "grpcurl [-plaintext] [-H 'NAME: VALUE'] [-d JSON] HOST:PORT METHOD|list|describe",
        summary: "run a pasted grpcurl command line: a call, list or describe (`export grpcurl` writes one)",
        details: """
            Quoting as bash reads it, over several lines with `\\`. -plaintext -insecure -H -rpc-header -d \
            -proto -import-path -protoset -max-time -cacert -cert -key are taken; -v -format -emit-defaults … are \
            accepted and ignored. `-d` holds one message, or several one after another for a client stream. \
            The line is its own: nothing of it stays in the session, and `save` writes it as it is.
            """,
        completion: .none, continuation: .shellWords, group: .draft)

    /// The words after `grpcurl`, quoting resolved.
    var words: [String]
    var invocation: GRPCurlInvocation

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let column = arguments.column
        let split = try ShellWords.split(arguments)
        guard !split.words.isEmpty else {
            throw CommandError(.parse, .missing("the server and a method"), column: column, hint: arguments.usage)
        }
        return GRPCurlCommand(words: split.words, invocation: try GRPCurlInvocation.parse(split.words))
    }

    var logKind: SessionLog.Kind? {
        if case .call = invocation.verb { return .request }
        return nil
    }

    var filesRead: [String] { invocation.protos + invocation.protosets }

    var line: String {
        var writer = LineWriter("grpcurl")
        writer.words(words, literal: true)
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        try await executor.runGRPCurl(invocation)
    }
}

extension Executor {
    /// A pasted grpcurl line: its server's descriptors (its own files, the API's, or reflection),
    /// then the call, or the listing `list`/`describe` asks for.
    func runGRPCurl(_ invocation: GRPCurlInvocation) async throws -> CommandResult {
        let written = try session.variables.expand(invocation.address)
        let target: GRPCTarget
        do {
            target = try GRPCTarget(parsing: written, plaintext: invocation.plaintext)
        } catch {
            throw CommandError(.parse, error.message, hint: "grpcurl -plaintext HOST:PORT …")
        }
        let origin = (target.plaintext ? "http://" : "https://") + target.authority
        var draft = Draft()
        for header in invocation.headers { draft.apply(.set(name: header.name, value: header.value)) }
        var overrides = GRPCConnectionOverrides()
        overrides.insecure = invocation.insecure
        overrides.trustRoots = invocation.caCertificate.map(resolvePath)
        overrides.certificate = invocation.certificate.map(resolvePath)
        overrides.key = invocation.key.map(resolvePath)
        overrides.timeout = invocation.maxTime.map { .milliseconds(Int64($0 * 1000)) }
        let service: GRPCService
        if !invocation.protos.isEmpty || !invocation.protosets.isEmpty {
            service = GRPCService(
                descriptors: try loadDescriptorFiles(
                    GRPCCommand.Load(
                        target: written, protos: invocation.protos, importPaths: invocation.importPaths,
                        protosets: invocation.protosets)))
        } else if let known = Origin(url: origin).flatMap({ session.scopeRules.api(on: $0) }),
            let loaded = session.apis[known].grpc
        {
            service = loaded
        } else {
            service = GRPCService(descriptors: try await reflect(origin: origin, headers: draft, overrides).0)
        }
        switch invocation.verb {
        case .list(let name):
            let explorer = GRPCExplorer(service: service)
            guard let name else {
                let services = service.descriptors.services.map { Listing.Item(name: $0) }
                return .shows(.listing(Listing(kind: .services, items: services, source: origin)))
            }
            return .shows(.listing(try explorer.list(name)))
        case .describe(let name):
            let explorer = GRPCExplorer(service: service)
            return .shows(.listing(try name.map { try explorer.describe($0) } ?? explorer.list(nil)))
        case .call(let method):
            return try await callGRPC(
                method, request: try invocation.request(), service: service, draft: draft, origin: origin,
                connection: overrides)
        }
    }
}
