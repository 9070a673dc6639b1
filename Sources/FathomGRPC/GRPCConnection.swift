@_spi(Fathom) import FathomHTTP
@_spi(Fathom) import FathomProtobuf
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import NIOSSL

/// A connection to a gRPC server that calls any method named by strings, its messages as bytes
/// (FathomProtobuf encodes and decodes them): unary, server streaming, client streaming and
/// bidirectional calls alike, metadata both ways, a deadline, cancellation with the calling task.
///
/// Connecting is lazy: the first call opens the HTTP/2 connection, and a server that is not
/// there fails that call with `UNAVAILABLE`, not the connection's creation.
public final class GRPCConnection: Sendable {
    /// Where it connects.
    public let target: GRPCTarget
    private let client: GRPCClient<HTTP2ClientTransport.Posix>
    private let running: Task<Void, Never>

    /// A connection to `target`.
    public init(target: GRPCTarget) throws(GRPCError) {
        self.target = target
        let security: HTTP2ClientTransport.Posix.TransportSecurity
        if target.plaintext {
            security = .plaintext
        } else {
            var tls = HTTP2ClientTransport.Posix.TransportSecurity.TLS.defaults
            if target.insecure { tls.serverCertificateVerification = .noVerification }
            do {
                if !target.trustRoots.isEmpty {
                    // Each a file of CA certificates, or a folder of them (curl's --capath).
                    var files: [String] = []
                    for path in target.trustRoots { files += try TrustRoots.files(at: path) }
                    tls.trustRoots = .certificates(files.map { .file(path: $0, format: .pem) })
                }
                if let certificate = target.clientCertificate {
                    tls.certificateChain = [.file(path: certificate, format: .pem)]
                    if let passphrase = target.clientKeyPassphrase {
                        // Decrypted here, handed over as DER: the transport reads only plain keys.
                        let identity = ClientIdentity(
                            certificateFile: certificate, keyFile: target.clientKey, passphrase: passphrase)
                        let key = try identity.privateKey()
                        tls.privateKey = .bytes(try key.derBytes, format: .der)
                    } else {
                        tls.privateKey = .file(path: target.clientKey ?? certificate, format: .pem)
                    }
                }
            } catch let error as NetworkError {
                throw GRPCError(error.description)
            } catch {
                throw GRPCError("the client key could not be read for gRPC: \(error)")
            }
            security = .tls(tls)
        }
        let resolvable: any ResolvableTarget =
            if target.host.contains(":") {
                .ipv6(address: target.host, port: target.port)
            } else if target.host.split(separator: ".").count == 4, target.host.allSatisfy({ $0.isNumber || $0 == "." })
            {
                .ipv4(address: target.host, port: target.port)
            } else {
                .dns(host: target.host, port: target.port)
            }
        let transport: HTTP2ClientTransport.Posix
        do {
            transport = try HTTP2ClientTransport.Posix(
                target: resolvable, transportSecurity: security,
                config: .defaults { config in
                    // A server that is not there is said at once, not retried for minutes.
                    config.backoff.initial = .milliseconds(200)
                    config.backoff.max = .seconds(2)
                    config.connection.maxIdleTime = .seconds(300)
                })
        } catch {
            throw GRPCError("cannot reach \(target): \(error)")
        }
        let client = GRPCClient(transport: transport)
        self.client = client
        running = Task { try? await client.runConnections() }
    }

    /// Closes the connection once the calls in flight are done.
    public func close() async {
        client.beginGracefulShutdown()
        await running.value
    }

    /// What a call sends and how long it may take.
    public struct Call: Sendable {
        /// `package.Service/Method`.
        public var method: String
        /// Metadata sent with it (credentials among them).
        public var metadata: GRPCMetadata
        /// The deadline, from when the call starts; nil for none.
        public var timeout: Duration?

        /// A call of `method`.
        public init(method: String, metadata: GRPCMetadata = GRPCMetadata(), timeout: Duration? = nil) {
            self.method = method
            self.metadata = metadata
            self.timeout = timeout
        }
    }

    /// What a call hands over as it goes.
    public enum Event: Sendable {
        /// The server's header metadata (once, before any message).
        case headers(GRPCMetadata)
        /// A message, as its bytes.
        case message([UInt8])
    }

    /// How a call ended.
    public struct Outcome: Sendable {
        /// The status.
        public let status: GRPCStatus
        /// The header metadata (empty when the server answered with trailers only).
        public let headers: GRPCMetadata
        /// The trailer metadata.
        public let trailers: GRPCMetadata
        /// The call as the interceptors sent it, credentials and all, when it went through a
        /// `NetworkClient` (``FathomHTTP/NetworkClient/grpc(_:on:messages:timeout:onEvent:)``).
        public internal(set) var sent: PreparedRequest? = nil
    }

    /// Calls `call.method`, sending each message `requests` yields and half-closing when it ends.
    ///
    /// `onEvent` gets the headers and each message as they come. Cancelling the calling task
    /// cancels the call (its status is then `CANCELLED`).
    public func call<Requests: AsyncSequence & Sendable>(
        _ call: Call, requests: Requests, onEvent: @escaping @Sendable (Event) async -> Void
    ) async -> Outcome where Requests.Element == [UInt8] {
        guard let slash = call.method.lastIndex(of: "/"), slash != call.method.startIndex,
            call.method.index(after: slash) != call.method.endIndex
        else {
            return Outcome(
                status: GRPCStatus(code: 12, message: "\(call.method) is not SERVICE/METHOD"), headers: GRPCMetadata(),
                trailers: GRPCMetadata())
        }
        let service = String(call.method[..<slash]).trimmingPrefix("/")
        let method = String(call.method[call.method.index(after: slash)...])
        let request = StreamingClientRequest<[UInt8]>(metadata: Self.metadata(call.metadata)) { writer in
            for try await message in requests { try await writer.write(message) }
        }
        var options = CallOptions.defaults
        options.timeout = call.timeout
        options.waitForReady = false
        do {
            return try await client.bidirectionalStreaming(
                request: request, descriptor: MethodDescriptor(fullyQualifiedService: String(service), method: method),
                serializer: RawSerializer(), deserializer: RawDeserializer(), options: options
            ) { response in
                switch response.accepted {
                case .failure(let error):
                    return Self.outcome(error, headers: GRPCMetadata())
                case .success(let contents):
                    let headers = Self.metadata(contents.metadata)
                    await onEvent(.headers(headers))
                    var trailers = GRPCMetadata()
                    do {
                        for try await part in contents.bodyParts {
                            switch part {
                            case .message(let bytes): await onEvent(.message(bytes))
                            case .trailingMetadata(let metadata): trailers = Self.metadata(metadata)
                            }
                        }
                    } catch let error as RPCError {
                        return Self.outcome(error, headers: headers)
                    } catch is CancellationError {
                        return Outcome(
                            status: GRPCStatus(code: 1, message: "cancelled"), headers: headers, trailers: trailers)
                    } catch {
                        let cancelled = Task.isCancelled
                        return Outcome(
                            status: GRPCStatus(code: cancelled ? 1 : 2, message: cancelled ? "cancelled" : "\(error)"),
                            headers: headers, trailers: trailers)
                    }
                    return Outcome(status: GRPCStatus(code: 0), headers: headers, trailers: trailers)
                }
            }
        } catch let error as RPCError {
            return Self.outcome(error, headers: GRPCMetadata())
        } catch {
            let cancelled = Task.isCancelled
            return Outcome(
                status: GRPCStatus(code: cancelled ? 1 : 2, message: cancelled ? "cancelled" : "\(error)"),
                headers: GRPCMetadata(), trailers: GRPCMetadata())
        }
    }

    /// Calls `call.method` with one request message and collects what comes back.
    public func call(_ call: Call, request: [UInt8]) async -> (outcome: Outcome, messages: [[UInt8]]) {
        let collected = Collected()
        let outcome = await self.call(
            call,
            requests: AsyncStream { continuation in
                continuation.yield(request)
                continuation.finish()
            }
        ) { event in
            if case .message(let bytes) = event { await collected.append(bytes) }
        }
        return (outcome, await collected.messages)
    }

    private actor Collected {
        var messages: [[UInt8]] = []
        func append(_ bytes: [UInt8]) { messages.append(bytes) }
    }

    private static func outcome(_ error: RPCError, headers: GRPCMetadata) -> Outcome {
        Outcome(
            status: GRPCStatus(code: error.code.rawValue, message: error.message), headers: headers,
            trailers: metadata(error.metadata))
    }

    /// The metadata as received, HTTP/2's pseudo-headers left out; a `-bin` value that came as
    /// base64 text (a trailers-only answer's) decoded.
    static func metadata(_ metadata: Metadata) -> GRPCMetadata {
        GRPCMetadata(
            metadata.compactMap { entry in
                guard !entry.key.hasPrefix(":") else { return nil }
                switch entry.value {
                case .string(let text):
                    if entry.key.lowercased().hasSuffix("-bin"), let bytes = Base64.decode(text) {
                        return GRPCMetadata.Entry(name: entry.key, value: .bytes(bytes))
                    }
                    return GRPCMetadata.Entry(name: entry.key, value: .text(text))
                case .binary(let bytes): return GRPCMetadata.Entry(name: entry.key, value: .bytes(bytes))
                }
            })
    }

    static func metadata(_ metadata: GRPCMetadata) -> Metadata {
        var result = Metadata()
        for entry in metadata.entries {
            switch entry.value {
            case .text(let text): result.addString(text, forKey: entry.name)
            case .bytes(let bytes): result.addBinary(bytes, forKey: entry.name)
            }
        }
        return result
    }
}
