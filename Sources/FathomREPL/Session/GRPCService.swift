import FathomGRPC
import FathomHTTP
@_spi(Fathom) import FathomJSON
import FathomProtobuf
import Foundation

/// An API's gRPC services (`grpc TARGET`): the server is the API's origin — `http://` for a
/// plaintext (h2c) server, `https://` for TLS — so its credentials, default headers (sent as
/// metadata), client certificate and CA are the API's, and the descriptors its calls are
/// encoded and decoded with belong to it as a description does.
struct GRPCService: Equatable, Sendable {
    /// The descriptors, and where they came from.
    var descriptors: LoadedDescriptors

    /// The service's methods by full name (`pkg.Users/GetUser`), in the order the server lists them.
    var methods: [(name: String, method: MethodDescriptor)] {
        descriptors.services.compactMap { descriptors.pool.service(named: $0) }.flatMap { service in
            service.methods.map { (service.fullName + "/" + $0.name, $0) }
        }
    }

    /// The method `name` names: `pkg.Users/GetUser`, `Users/GetUser`, `GetUser` or
    /// `pkg.Users.GetUser` — the full name, or a short one only one method has.
    func method(_ name: String) throws(CommandError) -> (name: String, method: MethodDescriptor) {
        let all = methods
        let written = name.trimmingPrefix("/")
        var wanted = String(written)
        if !wanted.contains("/"), let dot = wanted.lastIndex(of: "."),
            all.contains(where: { $0.name == wanted[..<dot] + "/" + wanted[wanted.index(after: dot)...] })
        {
            wanted = wanted[..<dot] + "/" + wanted[wanted.index(after: dot)...]
        }
        if let exact = all.first(where: { $0.name == wanted }) { return exact }
        let matches = all.filter { candidate in
            candidate.name.hasSuffix("." + wanted) || candidate.name.hasSuffix("/" + wanted)
                || (!wanted.contains("/") && candidate.method.name == wanted)
        }
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            throw CommandError(
                .session, "'\(name)' names \(matches.count) methods: \(matches.map(\.name).joined(separator: ", "))",
                hint: "write SERVICE/METHOD")
        }
        throw CommandError(
            .session,
            .notFound(
                kind: "gRPC method", name: name,
                suggestion: Spelling.closest(to: name, among: all.map(\.name) + all.map(\.method.name))),
            hint: "`ls` lists the services and their methods")
    }

    static func == (a: GRPCService, b: GRPCService) -> Bool { a.descriptors == b.descriptors }
}

/// Descriptors loaded for an API, and where they came from.
struct LoadedDescriptors: Equatable, Sendable {
    var pool: DescriptorPool
    /// The services to list and call: what reflection lists (but itself), or every service in the files.
    var services: [String]
    /// `reflection (grpc.reflection.v1alpha)`, or the files as given.
    var source: String
    /// This load.
    var id = UUID()

    static func == (a: LoadedDescriptors, b: LoadedDescriptors) -> Bool { a.id == b.id }
}

/// What `grpc` says is loaded: the server, where its descriptors came from, how many services and methods.
struct GRPCSummary: Sendable, Equatable {
    var target: String
    var source: String
    var services: Int
    var methods: Int

    init(_ service: GRPCService, target: String) {
        self.target = target
        source = service.descriptors.source
        services = service.descriptors.services.count
        methods = service.methods.count
    }
}

/// What a gRPC call left beside its response: the method, how it ended, its trailers and the
/// status's details. The history keeps it with the response (``ResponseHistory/Entry/grpc``).
struct GRPCCallRecord: Sendable {
    /// `pkg.Users/GetUser`.
    var method: String
    /// `unary`, `server streaming`, …
    var kind: String
    var status: GRPCStatus
    /// The trailer metadata (binary values as base64).
    var trailers: NetworkHeaders
    /// `google.rpc.Status` from `grpc-status-details-bin`, as JSON (its details decoded), when sent.
    var details: JSON?
}
