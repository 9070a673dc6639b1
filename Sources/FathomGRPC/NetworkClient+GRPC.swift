@_spi(Fathom) import FathomHTTP
@_spi(Fathom) import FathomProtobuf
import Foundation
import Synchronization

extension NetworkClient {
    /// Calls a gRPC method through this client's interceptors and wire log.
    ///
    /// The call is described to the interceptors as the HTTP/2 `POST` it is (`request`: the
    /// method's path on the server's origin, and the headers that become its metadata), so an
    /// `Authenticator` adds its credentials as `authorization` metadata, default headers and
    /// signing apply, and the wire log shows it, masked. The call itself goes over `connection`.
    ///
    /// ```swift
    /// let client = NetworkClient(interceptors: [.authenticator(.bearer(token))])
    /// let request = try NetworkRequest.post("http://127.0.0.1:50051/pkg.Users/GetUser").prepared()
    /// let outcome = try await client.grpc(request, on: connection, messages: [bytes]) { event in
    ///     if case .message(let reply) = event { print(reply) }
    /// }
    /// ```
    ///
    /// The interceptors read the call's status as HTTP's (``GRPCStatus/httpStatus``):
    /// `UNAUTHENTICATED` is a `401`, so an authenticator that refreshes its token does so and the
    /// call is made once more — which is why the messages are given whole.
    ///
    /// - Parameters:
    ///   - request: The call as a request: its URL's path is `/package.Service/Method`; its header
    ///     fields (but HTTP's own — `Content-Type`, `TE`, `User-Agent`, `Host`…) are the metadata.
    ///     A field whose name ends in `-bin` carries base64 and is sent as bytes.
    ///   - connection: The server's connection.
    ///   - messages: The request messages, encoded; the call half-closes after the last.
    ///   - timeout: The call's deadline.
    ///   - onEvent: Gets the header metadata and each response message as they arrive.
    /// - Returns: How the call ended.
    /// - Throws: `NetworkError` only when an interceptor fails (a token that cannot be had);
    ///   a call that fails on the wire ends with its status instead.
    public func grpc(
        _ request: PreparedRequest, on connection: GRPCConnection, messages: [[UInt8]], timeout: Duration? = nil,
        onEvent: @escaping @Sendable (GRPCConnection.Event) async -> Void = { _ in }
    ) async throws(NetworkError) -> GRPCConnection.Outcome {
        try await grpc(request, on: connection, timeout: timeout, onEvent: onEvent) {
            AsyncStream { continuation in
                for message in messages { continuation.yield(message) }
                continuation.finish()
            }
        }
    }

    /// Calls a gRPC method whose request messages are sent as they come: a client or
    /// bidirectional stream written a message at a time.
    ///
    /// As ``grpc(_:on:messages:timeout:onEvent:)``, but the call half-closes when `requests`
    /// finishes, and it is made once: messages already sent cannot be sent again, so when an
    /// interceptor asks for the call a second time (an authenticator answering
    /// `UNAUTHENTICATED`), it gets the first call's answer back and the call ends with it.
    ///
    /// ```swift
    /// let (requests, writer) = AsyncStream.makeStream(of: [UInt8].self)
    /// async let outcome = client.grpc(request, on: connection, streaming: requests)
    /// writer.yield(first)
    /// writer.finish()  // the half-close
    /// ```
    ///
    /// - Parameters:
    ///   - request: The call as a request (see ``grpc(_:on:messages:timeout:onEvent:)``).
    ///   - connection: The server's connection.
    ///   - requests: The request messages, encoded, as they are written.
    ///   - timeout: The call's deadline, the stream's whole life included.
    ///   - onEvent: Gets the header metadata and each response message as they arrive.
    /// - Returns: How the call ended.
    /// - Throws: `NetworkError` only when an interceptor fails.
    public func grpc(
        _ request: PreparedRequest, on connection: GRPCConnection, streaming requests: AsyncStream<[UInt8]>,
        timeout: Duration? = nil, onEvent: @escaping @Sendable (GRPCConnection.Event) async -> Void = { _ in }
    ) async throws(NetworkError) -> GRPCConnection.Outcome {
        let unsent = Mutex<AsyncStream<[UInt8]>?>(requests)
        return try await grpc(request, on: connection, timeout: timeout, onEvent: onEvent) {
            unsent.withLock { stream in
                defer { stream = nil }
                return stream
            }
        }
    }

    /// The call through the interceptors: `requests` gives each attempt its messages, or `nil`
    /// when they cannot be given again (the attempt then answers as the last one did).
    private func grpc(
        _ request: PreparedRequest, on connection: GRPCConnection, timeout: Duration?,
        onEvent: @escaping @Sendable (GRPCConnection.Event) async -> Void,
        requests: @escaping @Sendable () -> AsyncStream<[UInt8]>?
    ) async throws(NetworkError) -> GRPCConnection.Outcome {
        let ended = Mutex<GRPCConnection.Outcome?>(nil)
        _ = try await send(request) { request in
            var outcome: GRPCConnection.Outcome
            if let messages = requests() {
                let call = GRPCConnection.Call(
                    method: String(request.url.path.dropFirst()),
                    metadata: GRPCMetadata(requestHeaders: request.headers), timeout: timeout)
                outcome = await connection.call(call, requests: messages, onEvent: onEvent)
                outcome.sent = request
                ended.withLock { $0 = outcome }
            } else if let first = ended.withLock({ $0 }) {
                outcome = first
            } else {
                outcome = GRPCConnection.Outcome(
                    status: GRPCStatus(code: 2, message: "the call was not made"), headers: GRPCMetadata(),
                    trailers: GRPCMetadata())
            }
            var headers = NetworkHeaders()
            for entry in outcome.headers.entries {
                if case .text(let text) = entry.value { headers.add(NetworkHeaders.Name(entry.name), text) }
            }
            headers.add(NetworkHeaders.Name("grpc-status"), String(outcome.status.code))
            return NetworkResponse(
                status: HTTPStatus(code: outcome.status.httpStatus, reasonPhrase: outcome.status.codeName),
                headers: headers, body: Data(), httpVersion: "HTTP/2", request: request)
        }
        guard let outcome = ended.withLock({ $0 }) else {
            return GRPCConnection.Outcome(
                status: GRPCStatus(code: 2, message: "the call was not made"), headers: GRPCMetadata(),
                trailers: GRPCMetadata())
        }
        return outcome
    }

    /// Where a batch of unary calls ends instead of the transport.
    ///
    /// Given to `NetworkClient.send(_:through:makeRequest:handle:)`: each request's URL path names the method, its body's bytes are the one request message and
    /// its headers the metadata; the answer's status is the call's as HTTP's
    /// (``GRPCStatus/httpStatus``, the code's name as its reason), its headers the header metadata
    /// with `grpc-status` and `grpc-message`, its body the response message as `decode` gives it
    /// (its JSON, for a tally to tell bodies apart).
    public static func grpcUnary(
        on connection: GRPCConnection, timeout: Duration? = nil, decode: @escaping @Sendable ([UInt8]) -> Data
    ) -> Next {
        { request in
            let message: [UInt8]
            switch request.body {
            case .bytes(let data)?: message = [UInt8](data)
            case nil: message = []
            default: throw NetworkError.transport("a gRPC request message must be bytes in memory")
            }
            let started = ContinuousClock.now
            let call = GRPCConnection.Call(
                method: String(request.url.path.dropFirst()), metadata: GRPCMetadata(requestHeaders: request.headers),
                timeout: timeout)
            let (outcome, messages) = await connection.call(call, request: message)
            var headers = NetworkHeaders()
            for entry in outcome.headers.entries {
                if case .text(let text) = entry.value { headers.add(NetworkHeaders.Name(entry.name), text) }
            }
            headers.add(NetworkHeaders.Name("grpc-status"), String(outcome.status.code))
            if !outcome.status.message.isEmpty {
                headers.add(NetworkHeaders.Name("grpc-message"), outcome.status.message)
            }
            let elapsed = ContinuousClock.now - started
            return NetworkResponse(
                status: HTTPStatus(code: outcome.status.httpStatus, reasonPhrase: outcome.status.codeName),
                headers: headers, body: messages.first.map(decode) ?? Data(), httpVersion: "HTTP/2", request: request,
                timing: ResponseTiming(firstByte: elapsed, total: elapsed))
        }
    }
}

extension GRPCMetadata {
    /// HTTP's own fields and gRPC's reserved ones, which are the transport's to send.
    static let notMetadata: Set<String> = [
        "host", "content-type", "content-length", "te", "user-agent", "connection", "keep-alive",
        "transfer-encoding", "upgrade", "proxy-connection", "accept-encoding", "expect",
    ]

    /// A request's header fields as a call's metadata: all but HTTP's own (`Content-Type`, `TE`,
    /// `User-Agent`, `Host`…) and gRPC's reserved `grpc-` names; a field whose name ends in `-bin`
    /// carries base64 and becomes bytes.
    public init(requestHeaders headers: NetworkHeaders) {
        var metadata = GRPCMetadata()
        for field in headers {
            let name = field.name.canonicalName
            guard !Self.notMetadata.contains(name), !name.hasPrefix("grpc-"), !name.hasPrefix(":") else { continue }
            if name.hasSuffix("-bin") {
                metadata.entries.append(
                    GRPCMetadata.Entry(name: name, value: .bytes(Base64.decode(field.value) ?? Array(field.value.utf8)))
                )
            } else {
                metadata.entries.append(GRPCMetadata.Entry(name: name, value: .text(field.value)))
            }
        }
        self = metadata
    }
}
