import FathomJSON
@_spi(Fathom) import FathomProtobuf
import Foundation
import SwiftProtobuf

/// A server's descriptors, read through gRPC server reflection: `grpc.reflection.v1`, and
/// `grpc.reflection.v1alpha` when v1 fails in any way (many servers, Python's grpcio-reflection
/// among them, serve only v1alpha).
///
/// The services are listed, the file of each is asked for, then every file those import that has
/// not come yet, until nothing is missing; the files are linked by FathomProtobuf's
/// `DescriptorPool` (which takes them in any order). The reflection messages themselves are
/// encoded with FathomProtobuf too: their generated code is not in grpc-swift.
public struct ServerReflection: Sendable {
    /// What reflection found.
    public struct Result: Sendable {
        /// The linked descriptors.
        public let pool: DescriptorPool
        /// The services the server lists, in its order (those in ``skipped`` left out).
        public let services: [String]
        /// The reflection version that answered (`v1` or `v1alpha`).
        public let version: String
        /// Services the server lists but gave no descriptors for (as grpcurl does, they are left
        /// out rather than failing the rest).
        public var skipped: [String] = []
    }

    /// The most files one server's answers may add up to (a bound on a server that never stops
    /// naming dependencies).
    public static let fileLimit = 10_000

    let connection: GRPCConnection
    let metadata: GRPCMetadata
    let timeout: Duration

    /// Reflection over `connection`, each call sending `metadata` (credentials) and bounded by
    /// `timeout`.
    public init(connection: GRPCConnection, metadata: GRPCMetadata = GRPCMetadata(), timeout: Duration = .seconds(10)) {
        self.connection = connection
        self.metadata = metadata
        self.timeout = timeout
    }

    /// Reads the server's services and their descriptors.
    public func load() async throws(GRPCError) -> Result {
        var failures: [String] = []
        for version in ["v1", "v1alpha"] {
            do {
                return try await load(version: version)
            } catch {
                failures.append("\(version): \(error.message)")
            }
        }
        throw GRPCError("server reflection failed (\(failures.joined(separator: "; ")))")
    }

    private func load(version: String) async throws(GRPCError) -> Result {
        let messages = try ReflectionMessages(version: version)
        let listed = try await exchange([#"{"listServices": ""}"#], messages: messages)
        guard case .array(let serviceList)? = listed.first?["listServicesResponse"]?["service"] ?? .array([]) else {
            throw GRPCError("the answer to list_services lists no services")
        }
        let services = serviceList.compactMap { service -> String? in
            if case .string(let name) = service["name"] { name } else { nil }
        }
        var files: [String: Google_Protobuf_FileDescriptorProto] = [:]
        var order: [[UInt8]] = []
        var requests = services.map { name in
            JSON.object([JSON.Member(key: "fileContainingSymbol", value: .string(name))]).formatted(.compactText)
        }
        var asked: Set<String> = []
        var skipped: [String] = []
        var first = true
        while !requests.isEmpty {
            // A listed service the server has no file for is skipped; a missing import fails.
            let answers = try await exchange(requests, messages: messages, tolerating: first)
            first = false
            requests = []
            for answer in answers {
                if answer["errorResponse"] != nil {
                    if case .string(let symbol)? = answer["originalRequest"]?["fileContainingSymbol"] {
                        skipped.append(symbol)
                    }
                    continue
                }
                guard case .array(let encoded)? = answer["fileDescriptorResponse"]?["fileDescriptorProto"] else {
                    continue
                }
                for case .string(let base64) in encoded {
                    guard let bytes = Base64.decode(base64),
                        let file = try? Google_Protobuf_FileDescriptorProto(serializedBytes: bytes)
                    else { throw GRPCError("the server sent a file descriptor that is not one") }
                    guard files[file.name] == nil else { continue }
                    files[file.name] = file
                    order.append(bytes)
                    guard files.count <= Self.fileLimit else {
                        throw GRPCError("the server sent more than \(Self.fileLimit) files")
                    }
                }
            }
            for file in files.values {
                for dependency in file.dependency where files[dependency] == nil && !asked.contains(dependency) {
                    asked.insert(dependency)
                    requests.append(
                        JSON.object([JSON.Member(key: "fileByFilename", value: .string(dependency))])
                            .formatted(.compactText))
                }
            }
        }
        do {
            return Result(
                pool: try DescriptorPool(serializedFiles: order), services: services.filter { !skipped.contains($0) },
                version: version, skipped: skipped)
        } catch {
            throw GRPCError("the server's descriptors do not link: \(error.message)")
        }
    }

    /// Sends `requests` (as proto3 JSON) on one reflection stream and returns the answers as JSON.
    ///
    /// An answer that is an `error_response` is an error naming what was asked, unless
    /// `tolerating`: then it is returned with the others.
    private func exchange(
        _ requests: [String], messages: ReflectionMessages, tolerating: Bool = false
    ) async throws(GRPCError) -> [JSON] {
        var encoded: [[UInt8]] = []
        for request in requests {
            do {
                let json = try JSON(parsing: request)
                encoded.append(
                    WireEncoder(pool: messages.pool).encode(
                        try ProtoJSON(pool: messages.pool).message(from: json, as: messages.request)))
            } catch {
                throw GRPCError("cannot encode a reflection request: \(error)")
            }
        }
        let answers = Answers()
        let outcome = await connection.call(
            GRPCConnection.Call(method: messages.method, metadata: metadata, timeout: timeout),
            requests: AsyncStream { continuation in
                for message in encoded { continuation.yield(message) }
                continuation.finish()
            }
        ) { event in
            if case .message(let bytes) = event { await answers.append(bytes) }
        }
        guard outcome.status.isOK else { throw GRPCError(outcome.status.description) }
        var result: [JSON] = []
        for bytes in await answers.messages {
            let json: JSON
            do {
                json = try ProtoJSON(pool: messages.pool).json(
                    try WireDecoder(pool: messages.pool).decode(bytes, as: messages.response))
            } catch {
                throw GRPCError("a reflection answer that is not one: \(error.message)")
            }
            if !tolerating, let failure = json["errorResponse"] {
                let code = failure["errorCode"].flatMap { if case .number(let n) = $0 { Int(n) } else { nil } } ?? 2
                let text = failure["errorMessage"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? ""
                throw GRPCError("reflection answered \(GRPCStatus(code: code, message: text))")
            }
            result.append(json)
        }
        return result
    }

    private actor Answers {
        var messages: [[UInt8]] = []
        func append(_ bytes: [UInt8]) { messages.append(bytes) }
    }
}
