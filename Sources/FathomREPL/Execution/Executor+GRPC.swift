import FathomGRPC
@_spi(Fathom) import FathomHTTP
@_spi(Fathom) import FathomJSON
import FathomProtobuf
import Foundation
import Synchronization

/// How one line connects to a gRPC server besides the session's settings (a pasted grpcurl
/// line's own `-insecure`, `-cacert`, `-cert`/`-key`, `-max-time`).
struct GRPCConnectionOverrides: Sendable {
    var insecure = false
    var trustRoots: String?
    var certificate: String?
    var key: String?
    var timeout: Duration?
}

/// gRPC on the exchange pipeline: a call is the HTTP/2 `POST` of `/package.Service/Method` on
/// its API's origin, prepared and scoped as every request is (its headers — the draft's, the
/// API's defaults, its credentials — become the call's metadata), sent through the API's client
/// (its authenticator, the wire log) over a gRPC connection (``GRPCCallRun``), and kept as a
/// response: the message as JSON (several as NDJSON, a stream), with the call's status, trailers
/// and details beside it. What is gRPC's own — descriptors, the codec, the connection — is in
/// FathomProtobuf and FathomGRPC.
extension Executor {
    /// A call's deadline: the `timeout` set, else the one every request has (60 s) — a stream's
    /// whole life included, so no wait is without a bound (`timeout 10m` for a longer stream).
    var grpcDeadline: Duration { session.settings.timeout ?? options.requestTimeout ?? .seconds(60) }

    /// The current API's gRPC services, or why there are none.
    func currentGRPCService() throws(CommandError) -> GRPCService {
        guard let api = session.currentAPI else {
            throw CommandError(.session, "no gRPC server", hint: "`grpc HOST:PORT [--plaintext]` connects to one")
        }
        guard let service = api.grpc else {
            throw CommandError(
                .session, "\(api.origin) has no gRPC services loaded",
                hint: "`grpc HOST:PORT [--plaintext]` (reflection), or with `--proto FILE` or `--protoset FILE`")
        }
        return service
    }

    /// `grpc TARGET …`: makes the target's origin the current API and loads its descriptors —
    /// from protoset files, from `.proto` files through protoc, or by server reflection with the
    /// API's credentials.
    func loadGRPC(_ load: GRPCCommand.Load) async throws -> CommandResult {
        let written = try session.variables.expand(load.target)
        let target: GRPCTarget
        do {
            target = try GRPCTarget(parsing: written, plaintext: load.plaintext)
        } catch {
            throw CommandError(.parse, error.message, hint: "grpc HOST:PORT [--plaintext], or grpc://HOST:PORT")
        }
        let origin = (target.plaintext ? "http://" : "https://") + target.authority
        if session.currentAPI?.origin != Origin(url: origin) { _ = try useBase(origin) }
        let descriptors: LoadedDescriptors
        var skipped: [String] = []
        if !load.protosets.isEmpty || !load.protos.isEmpty {
            descriptors = try loadDescriptorFiles(load)
        } else {
            (descriptors, skipped) = try await reflect()
        }
        let service = GRPCService(descriptors: descriptors)
        session.currentAPI?.grpc = service
        let warnings = skipped.filter { !$0.hasPrefix("grpc.reflection.") }.map { name in
            Output.event(.requestWarning("the server lists \(name) but sent no descriptors for it: left out"))
        }
        return CommandResult(.succeeded, warnings + [.event(.grpcLoaded(GRPCSummary(service, target: origin)))])
    }

    /// Descriptors from protoset files and `.proto` files (compiled by protoc, `-I` paths given).
    func loadDescriptorFiles(_ load: GRPCCommand.Load) throws -> LoadedDescriptors {
        // Serialized FileDescriptorSets, one after another, are one set of all their files.
        var set: [UInt8] = []
        for protoset in load.protosets {
            let path = resolvePath(try session.variables.expand(protoset))
            set += try BoundedFile.read(path, limit: BoundedFile.schema, what: "a protoset")
        }
        if !load.protos.isEmpty {
            // `protoc` on PATH, or the command FATHOM_PROTOC names (`python3 -m grpc_tools.protoc`).
            let command = options.environment["FATHOM_PROTOC"].map { $0.split(separator: " ").map(String.init) }
            let compiler = ProtoCompiler(
                command: command ?? ["protoc"],
                importPaths: try load.importPaths.map { resolvePath(try session.variables.expand($0)) })
            let sources = try load.protos.map { resolvePath(try session.variables.expand($0)) }
            do {
                set += try compiler.descriptorSet(sources)
            } catch {
                throw CommandError(.file, error.message)
            }
        }
        do {
            let pool = try DescriptorPool(fileDescriptorSet: set)
            return LoadedDescriptors(
                pool: pool, services: pool.services.map(\.fullName),
                source: (load.protosets + load.protos).joined(separator: ", "))
        } catch {
            let what = load.protos.isEmpty ? "the protoset" : "the descriptors"
            throw CommandError(.file, "\(what) cannot be read: \(error.message)")
        }
    }

    /// The services of the current API (or of `origin`) by server reflection (v1, then
    /// v1alpha), asked with the API's credentials as any call is.
    func reflect(
        origin: String? = nil, headers: Draft = Draft(),
        _ overrides: GRPCConnectionOverrides = GRPCConnectionOverrides()
    ) async throws -> (LoadedDescriptors, skipped: [String]) {
        var draft = headers
        draft.method = .post
        draft.target = (origin ?? "") + "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo"
        // Reflection only reads.
        let outgoing = try Self.$writeAllowed.withValue(true) { try prepare(draft) }
        let client = try await client(for: outgoing.scope)
        let connection = try grpcConnection(for: outgoing, overrides)
        let result = Mutex<Result<ServerReflection.Result, GRPCError>?>(nil)
        let timeout = session.settings.timeout ?? .seconds(10)
        _ = try await client.send(outgoing.request) { request in
            let loaded: Result<ServerReflection.Result, GRPCError>
            do throws(GRPCError) {
                loaded = .success(
                    try await ServerReflection(
                        connection: connection, metadata: GRPCMetadata(requestHeaders: request.headers),
                        timeout: timeout
                    ).load())
            } catch {
                loaded = .failure(error)
            }
            result.withLock { $0 = loaded }
            return NetworkResponse(
                status: HTTPStatus(code: 200), body: Data(), httpVersion: "HTTP/2", request: request)
        }
        switch result.withLock({ $0 }) {
        case .success(let loaded):
            let services = loaded.services.filter {
                !$0.hasPrefix("grpc.reflection.") && loaded.pool.service(named: $0) != nil
            }
            return (
                LoadedDescriptors(
                    pool: loaded.pool, services: services, source: "reflection (grpc.reflection.\(loaded.version))"),
                loaded.skipped
            )
        case .failure(let error):
            throw CommandError(
                .network, redactor.redact(error.message),
                hint: "without reflection: `grpc TARGET --proto FILE [-I DIR]` or `--protoset FILE`")
        case nil:
            throw CommandError(.network, "server reflection was not asked")
        }
    }

    /// The connection a prepared call goes over: its URL's server, with the session's `insecure`
    /// and the API's CA and client certificate.
    func grpcConnection(
        for outgoing: Outgoing, _ overrides: GRPCConnectionOverrides = GRPCConnectionOverrides()
    ) throws -> GRPCConnection {
        let url = outgoing.request.url
        var target = GRPCTarget(host: url.host, port: url.effectivePort, plaintext: url.scheme == "http")
        target.insecure = overrides.insecure || session.settings.insecure
        if let roots = overrides.trustRoots ?? outgoing.request.trustRootsFile { target.trustRoots = [roots] }
        if let certificate = overrides.certificate {
            target.clientCertificate = certificate
            target.clientKey = overrides.key
        } else if let identity = outgoing.request.clientIdentity {
            target.clientCertificate = identity.certificateFile
            target.clientKey = identity.keyFile
            target.clientKeyPassphrase = identity.passphrase
        }
        do {
            return try clients.grpcConnection(target)
        } catch {
            throw CommandError(.network, error.message)
        }
    }

    /// `call METHOD [JSON|items]`: the call, made through the API's client; what comes back is
    /// kept as a response. A server stream's messages print as they arrive, as a stream's events do.
    func callGRPC(_ name: String, request: CallCommand.Request) async throws -> CommandResult {
        try await callGRPC(name, request: request, service: try currentGRPCService(), draft: session.draft)
    }

    /// A call of `service`'s method `name`, its headers and credentials from `draft` (whose
    /// target is the server's origin when it is not the base's, as a pasted grpcurl line's).
    func callGRPC(
        _ name: String, request: CallCommand.Request, service: GRPCService, draft base: Draft,
        origin: String? = nil, connection overrides: GRPCConnectionOverrides = GRPCConnectionOverrides()
    ) async throws -> CommandResult {
        let (fullName, method) = try service.method(name)
        if method.clientStreaming, request == .none, origin == nil {
            return try await openGRPCStream(fullName, method: method, service: service, draft: base, written: name)
        }
        let pool = service.descriptors.pool
        let messages = try GRPCMessages.requests(
            try request.json(expanding: session.variables), for: method, named: fullName, in: pool)
        var draft = base
        draft.method = .post
        draft.target = (origin ?? "") + "/" + fullName
        draft.body = .raw(
            GRPCMessages.text(messages.json, streaming: method.clientStreaming))
        draft.apply(.set(name: "Content-Type", value: "application/grpc+json"))
        let outgoing = try prepare(draft)
        let client = try await client(for: outgoing.scope)
        let connection = try grpcConnection(for: outgoing, overrides)
        let settings = session.settings
        let run = GRPCCallRun(
            name: fullName, method: method, codec: GRPCMessages(pool: pool, output: method.output), live: feeds.live,
            showHeaders: settings.showHeaders, limit: settings.streamLimit)
        let result = try await run.run(
            outgoing.request, requests: .whole(messages.bytes), client: client, connection: connection,
            timeout: overrides.timeout ?? grpcDeadline)
        let (response, call) = run.response(result, request: outgoing.request)
        let number = record.responses.append(response, grpc: call)
        var output = responseOutput(try record.responses.entry(number), sent: outgoing.scope)
        output.target = outgoing.target
        output.stream = run.streamSummary(result)
        return CommandResult(.succeeded, [.response(output)])
    }
}

extension Executor {
    /// `call METHOD … --repeat N -c C`: a unary call made on a batch's plan, each call what one
    /// `call` would make (its own request when it uses `{{$i}}` or a data row), through the API's
    /// client and the library's scheduled batch; its summary kept as a batch's is. The tally reads
    /// each call's status as HTTP's (`NOT_FOUND` as 404 NOT_FOUND), its body as the message's JSON.
    func callGRPCBatch(
        _ name: String, request: CallCommand.Request, options: BatchOptions
    ) async throws
        -> CommandResult
    {
        let service = try currentGRPCService()
        let (fullName, method) = try service.method(name)
        guard !method.clientStreaming, !method.serverStreaming else {
            throw CommandError(
                .session, "\(fullName) is \(method.kind): a batch makes unary calls", hint: "call it without --repeat")
        }
        let pool = service.descriptors.pool
        let table = try options.data.map { try dataTable($0) }
        let plan = options.plan(rows: table?.rows.count)
        func values(_ index: Int) -> RequestValues {
            RequestValues(index: index, row: table.map { $0.row(index % $0.rows.count) } ?? [:])
        }
        func make() throws -> Outgoing {
            let message = try GRPCMessages.requests(
                try request.json(expanding: session.variables), for: method, named: fullName, in: pool)
            var draft = session.draft
            draft.method = .post
            draft.target = "/" + fullName
            draft.body = .none
            draft.apply(.set(name: "Content-Type", value: "application/grpc"))
            var outgoing = try prepare(draft)
            outgoing.request.body = .bytes(Data(message.bytes[0]))
            return outgoing
        }
        let first = values(0)
        let outgoing = try Variables.$request.withValue(first) { try make() }
        let perRequest = first.used.load(ordering: .relaxed)
        let client = try await client(for: outgoing.scope)
        let connection = try grpcConnection(for: outgoing)
        let codec = GRPCMessages(pool: pool, output: method.output)
        let ending = NetworkClient.grpcUnary(on: connection, timeout: grpcDeadline) { bytes in
            Data(codec.text(bytes).utf8)
        }
        var tally = BatchTally(
            volatile: session.volatile.compactMap { try? JSONPath($0) }, fromSchedule: options.rate != nil)
        // Each status by its gRPC name (`404 NOT_FOUND`), as the gateway mapping's answers carry it.
        tally.keepsReasons = true
        feeds.progress.start(total: plan.count)
        defer { feeds.progress.finish() }
        let start = ContinuousClock.now
        let end = await client.send(plan, through: ending) { index in
            guard index > 0, perRequest else { return outgoing.request }
            return try Variables.$request.withValue(values(index)) { try make() }.request
        } handle: { done in
            tally.add(done)
            feeds.progress.update(done: tally.completed, errors: tally.errorCount)
        }
        let elapsed = ContinuousClock.now - start
        let summary = record.responses.append { number in
            BatchSummary(
                number: number, method: "call", shownPath: fullName, options: options, end: end, elapsed: elapsed,
                tally: tally)
        }
        if summary.statuses.isEmpty, let first = summary.errors.first?.first {
            return CommandResult(.failed, [.batch(summary), .failure(Failure(.network(first)))])
        }
        return CommandResult(.succeeded, [.batch(summary)])
    }
}
