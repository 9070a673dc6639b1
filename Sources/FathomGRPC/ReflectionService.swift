import FathomJSON
@_spi(Fathom) import FathomProtobuf
import GRPCCore
import SwiftProtobuf

/// Serves gRPC server reflection — `grpc.reflection.v1` and `v1alpha`, the two every client asks
/// — for a set of descriptors: the services it lists, each file by name, the file that defines a
/// symbol (a service, method, message or enum), each with the files it imports. A server built
/// from descriptors (Fathom's demo) adds it beside its own services:
///
/// ```swift
/// let reflection = try ReflectionService(fileDescriptorSet: set)
/// let server = GRPCServer(transport: transport, services: [todos, reflection])
/// ```
public struct ReflectionService: RegistrableRPCService {
    /// The files, serialized, by name.
    private let files: [String: [UInt8]]
    /// What each file imports.
    private let imports: [String: [String]]
    /// The file defining each symbol, by full name (`pkg.Service`, `pkg.Service.Method`, `pkg.Message`).
    private let symbols: [String: String]
    /// The services listed (not reflection's own, which it has no descriptors for).
    private let services: [String]

    /// Reflection for the files of a serialized `FileDescriptorSet`.
    ///
    /// - Parameters:
    ///   - bytes: The set (`protoc --descriptor_set_out --include_imports`).
    ///   - services: The services to list; every service in the set when `nil`.
    /// - Throws: ``GRPCError`` when the bytes are not a set whose files link.
    public init(fileDescriptorSet bytes: [UInt8], services: [String]? = nil) throws(GRPCError) {
        let set: Google_Protobuf_FileDescriptorSet
        let pool: DescriptorPool
        do {
            set = try Google_Protobuf_FileDescriptorSet(serializedBytes: bytes)
            pool = try DescriptorPool(files: set.file)
        } catch {
            throw GRPCError("the descriptors to reflect are not a FileDescriptorSet that links: \(error)")
        }
        var files: [String: [UInt8]] = [:]
        var imports: [String: [String]] = [:]
        for file in set.file {
            files[file.name] = (try? file.serializedBytes()) ?? []
            imports[file.name] = file.dependency
        }
        var symbols: [String: String] = [:]
        for message in pool.messages { symbols[message.fullName] = message.file }
        for enumeration in pool.enums { symbols[enumeration.fullName] = enumeration.file }
        for service in pool.services {
            symbols[service.fullName] = service.file
            for method in service.methods { symbols[service.fullName + "." + method.name] = service.file }
        }
        self.files = files
        self.imports = imports
        self.symbols = symbols
        self.services = services ?? pool.services.map(\.fullName)
    }

    /// Registers `ServerReflectionInfo` of both versions.
    public func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        for version in ["v1", "v1alpha"] {
            guard let messages = try? ReflectionMessages(version: version) else { continue }
            router.registerHandler(
                forMethod: GRPCCore.MethodDescriptor(
                    fullyQualifiedService: "grpc.reflection.\(version).ServerReflection",
                    method: "ServerReflectionInfo"),
                deserializer: RawDeserializer(), serializer: RawSerializer()
            ) { request, _ in
                StreamingServerResponse { writer in
                    for try await bytes in request.messages {
                        try await writer.write(self.answer(bytes, messages))
                    }
                    return [:]
                }
            }
        }
    }

    /// The response to one request, encoded.
    func answer(_ bytes: [UInt8], _ messages: ReflectionMessages) throws -> [UInt8] {
        let codec = ProtoJSON(pool: messages.pool)
        let request: JSON
        do {
            request = try codec.json(WireDecoder(pool: messages.pool).decode(bytes, as: messages.request))
        } catch {
            throw RPCError(code: .invalidArgument, message: "not a ServerReflectionRequest: \(error.message)")
        }
        var members = [JSON.Member(key: "originalRequest", value: request)]
        if case .string(let host)? = request["host"] {
            members.append(JSON.Member(key: "validHost", value: .string(host)))
        }
        if request["listServices"] != nil {
            let list = services.map { JSON.object([JSON.Member(key: "name", value: .string($0))]) }
            members.append(
                JSON.Member(
                    key: "listServicesResponse", value: .object([JSON.Member(key: "service", value: .array(list))])))
        } else if case .string(let name)? = request["fileByFilename"] {
            members.append(fileResponse(files[name] == nil ? nil : name, asked: "file \(name)"))
        } else if case .string(let symbol)? = request["fileContainingSymbol"] {
            members.append(fileResponse(symbols[symbol], asked: "symbol \(symbol)"))
        } else {
            members.append(error(12, "only list_services, file_by_filename and file_containing_symbol are served"))
        }
        return WireEncoder(pool: messages.pool).encode(
            try codec.message(from: .object(members), as: messages.response))
    }

    /// The file `name` and every file it imports, directly or not; not found when `name` is nil.
    private func fileResponse(_ name: String?, asked: String) -> JSON.Member {
        guard let name else { return error(5, "no \(asked)") }
        var order: [String] = []
        var pending = [name]
        while let next = pending.popLast() {
            guard !order.contains(next), files[next] != nil else { continue }
            order.append(next)
            pending += imports[next] ?? []
        }
        let encoded = order.compactMap { files[$0] }.map { JSON.string(Base64.encode($0)) }
        return JSON.Member(
            key: "fileDescriptorResponse",
            value: .object([JSON.Member(key: "fileDescriptorProto", value: .array(encoded))]))
    }

    private func error(_ code: Int, _ message: String) -> JSON.Member {
        JSON.Member(
            key: "errorResponse",
            value: .object([
                JSON.Member(key: "errorCode", value: .number(String(code))),
                JSON.Member(key: "errorMessage", value: .string(message)),
            ]))
    }
}
