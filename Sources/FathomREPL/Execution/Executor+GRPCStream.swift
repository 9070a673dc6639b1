import FathomGRPC
@_spi(Fathom) import FathomHTTP
import FathomProtobuf

/// `call METHOD` on a client or bidirectional stream with no messages given: the call starts and
/// stays open for the lines that write it (``OpenGRPCStream``), as `ws` opens a WebSocket.
extension Executor {
    /// Starts a call of `service`'s `method` whose messages later lines send: its metadata from
    /// `draft` and the API, as any call's; `timeout` (else 60 s) bounds its whole life.
    func openGRPCStream(
        _ fullName: String, method: MethodDescriptor, service: GRPCService, draft base: Draft, written: String
    ) async throws -> CommandResult {
        try noConversationOpen()
        let pool = service.descriptors.pool
        var draft = base
        draft.method = .post
        draft.target = "/" + fullName
        draft.body = .raw("[]")
        draft.apply(.set(name: "Content-Type", value: "application/grpc+json"))
        let outgoing = try prepare(draft)
        let client = try await client(for: outgoing.scope)
        let connection = try grpcConnection(for: outgoing)
        let settings = session.settings
        let (background, snapshot) = (feeds.background, feeds.snapshot)
        var run = GRPCCallRun(
            name: fullName, method: method, codec: GRPCMessages(pool: pool, output: method.output), live: feeds.live,
            showHeaders: settings.showHeaders, limit: nil)
        let log = OpenGRPCStream.makeLog()
        // A client stream's one response is the `close` line's to show; a bidirectional stream's
        // messages are news as they come.
        let shown = method.serverStreaming
        run.onMessage = { text, _, at in
            let number = log.receive(text, at: at)
            guard shown else { return }
            background.send(.grpcStream(GRPCStreamOutput(kind: .received(text, number: number, at: at))))
        }
        let (requests, writer) = AsyncStream.makeStream(of: [UInt8].self)
        let (call, request, deadline) = (run, outgoing.request, grpcDeadline)
        let stream = OpenGRPCStream(
            name: fullName, method: method, pool: pool, target: written, log: log, run: run, request: outgoing.request,
            writer: writer
        ) {
            try await call.run(
                request, requests: .streaming(requests), client: client, connection: connection, timeout: deadline)
        }
        let number = record.responses.append { GRPCStreamConversation(number: $0, stream: stream) }.number
        record.conversation = stream
        snapshot.setConversation(stream.prompt)
        stream.watch { halfClosed, status in
            snapshot.setConversation(nil)
            // Ended by the server (an error, the deadline) while lines still wrote it: news.
            if !halfClosed, let status {
                background.send(
                    .grpcStream(
                        GRPCStreamOutput(
                            kind: .ended(method: fullName, status: status, received: stream.log.counts.received))))
            }
        }
        return CommandResult(
            .succeeded, [.grpcStream(GRPCStreamOutput(kind: .opened(method: fullName, number: number)))])
    }

    /// Keeps a stream the server ended as a response before the next line runs, so that line
    /// (`expect status`, `inspect`) reads it.
    func settleConversation() {
        guard let stream = record.conversation as? OpenGRPCStream else { return }
        _ = try? stream.settle(in: self, shown: false)
    }
}
