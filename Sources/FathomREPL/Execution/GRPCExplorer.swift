import FathomGRPC
@_spi(Fathom) import FathomJSON
import FathomProtobuf

/// `ls` and `describe` over a gRPC API's descriptors: its services and methods (with their
/// streaming kind), a method's request and response message trees, a message's fields, an
/// enum's values — with the comments the descriptors carry.
struct GRPCExplorer {
    let service: GRPCService
    private var pool: DescriptorPool { service.descriptors.pool }

    /// How deep a message tree is shown under a method; deeper messages are named, not opened.
    static let treeDepth = 3

    /// `ls`: every method, `pkg.Users/GetUser  unary  GetUserRequest → User`; `ls SERVICE`: its methods.
    func list(_ name: String?) throws(CommandError) -> Listing {
        if let name { return try describe(name) }
        let items = service.methods.map { row($0.name, $0.method) }
        return Listing(
            kind: .services, items: items,
            source:
                "\(service.descriptors.services.count) service\(service.descriptors.services.count == 1 ? "" : "s") · \(service.descriptors.source)"
        )
    }

    /// `describe` a service (its methods), a method (its request and response trees), a message
    /// (its fields, one level down each message field) or an enum (its values).
    func describe(_ name: String) throws(CommandError) -> Listing {
        let written = String(name.trimmingPrefix("."))
        if let found = serviceNamed(written) {
            return Listing(
                kind: .services,
                items: found.methods.map { row(found.fullName + "/" + $0.name, $0) },
                source: "service \(found.fullName)" + (found.comment.map { " — " + Self.flat($0) } ?? ""))
        }
        if let id = typeNamed(written, pool.messages.map(\.fullName)).flatMap({ pool.message(named: $0) }) {
            let message = pool[id]
            return Listing(
                kind: .services, items: tree(id, depth: 1, seen: [id]),
                source: "message \(message.fullName)" + (message.comment.map { " — " + Self.flat($0) } ?? ""))
        }
        if let id = typeNamed(written, pool.enums.map(\.fullName)).flatMap({ pool.enumeration(named: $0) }) {
            let enumeration = pool[id]
            return Listing(
                kind: .services,
                items: enumeration.values.map {
                    Listing.Item(name: $0.name, value: String($0.number), detail: $0.comment.map(Self.flat))
                },
                source: "enum \(enumeration.fullName)" + (enumeration.comment.map { " — " + Self.flat($0) } ?? ""))
        }
        let (fullName, method) = try service.method(written)
        var items = [
            Listing.Item(
                name: "request", value: pool[method.input].fullName + (method.clientStreaming ? " (stream)" : ""))
        ]
        items += tree(method.input, depth: 1, seen: [method.input])
        items.append(
            Listing.Item(
                name: "response", value: pool[method.output].fullName + (method.serverStreaming ? " (stream)" : "")))
        items += tree(method.output, depth: 1, seen: [method.output])
        return Listing(
            kind: .services, items: items,
            source: "\(method.kind) \(fullName)" + (method.comment.map { " — " + Self.flat($0) } ?? ""))
    }

    private func row(_ name: String, _ method: MethodDescriptor) -> Listing.Item {
        let types =
            (method.clientStreaming ? "stream " : "") + pool[method.input].name + " → "
            + (method.serverStreaming ? "stream " : "") + pool[method.output].name
        return Listing.Item(
            name: name, value: method.kind, detail: types + (method.comment.map { " · " + Self.flat($0) } ?? ""))
    }

    /// A message's fields, indented by depth; message fields opened down to ``treeDepth``, a
    /// message already open above named only (recursion).
    private func tree(_ id: MessageID, depth: Int, seen: Set<MessageID>) -> [Listing.Item] {
        let message = pool[id]
        var items: [Listing.Item] = []
        let indent = String(repeating: "  ", count: depth)
        for field in message.fields {
            let oneof =
                field.oneof.map { message.oneofs.indices.contains($0) ? " (oneof \(message.oneofs[$0].name))" : "" }
                ?? ""
            items.append(
                Listing.Item(
                    name: indent + field.jsonName, value: typeName(field) + oneof,
                    detail: field.comment.map(Self.flat)))
            if case .message(let child) = field.type, !pool[child].isMapEntry, depth < Self.treeDepth,
                !seen.contains(child), !pool[child].fullName.hasPrefix("google.protobuf.")
            {
                items += tree(child, depth: depth + 1, seen: seen.union([child]))
            }
        }
        return items
    }

    /// `int64`, `repeated string`, `map<string, int32>`, `pkg.Address`.
    private func typeName(_ field: FieldDescriptor) -> String {
        if case .message(let id) = field.type, pool[id].isMapEntry, pool[id].fields.count == 2 {
            return "map<\(pool[id].fields[0].type.name(in: pool)), \(pool[id].fields[1].type.name(in: pool))>"
        }
        let name = field.type.name(in: pool)
        switch field.cardinality {
        case .repeated: return "repeated " + name
        case .required: return "required " + name
        case .singular: return field.hasPresence && !isMessage(field) ? "optional " + name : name
        }
    }

    private func isMessage(_ field: FieldDescriptor) -> Bool {
        switch field.type {
        case .message, .group: true
        default: false
        }
    }

    private func serviceNamed(_ name: String) -> ServiceDescriptor? {
        typeNamed(name, service.descriptors.services).flatMap { pool.service(named: $0) }
    }

    /// The full name `name` is, or the one full name it ends.
    private func typeNamed(_ name: String, _ names: [String]) -> String? {
        if names.contains(name) { return name }
        let matches = names.filter { $0.hasSuffix("." + name) }
        return matches.count == 1 ? matches[0] : nil
    }

    /// A comment on one line.
    static func flat(_ comment: String) -> String {
        comment.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }.joined(separator: " ")
    }
}

extension Executor {
    /// The gRPC descriptors `ls` and `describe` read: the current API's, when it has them and
    /// no OpenAPI description or GraphQL schema answers instead.
    func grpcExplorer() -> GRPCExplorer? {
        guard let service = session.currentAPI?.grpc else { return nil }
        return GRPCExplorer(service: service)
    }
}
