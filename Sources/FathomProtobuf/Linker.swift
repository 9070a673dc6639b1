import Foundation
import SwiftProtobuf

/// How a file's syntax or edition, and the features its declarations set, decide what its fields
/// do on the wire and in JSON.
struct Features {
    var explicitPresence: Bool
    var openEnums: Bool
    var packed: Bool
    var validatesUTF8: Bool
    var delimited: Bool = false

    init(file: Google_Protobuf_FileDescriptorProto) throws(ProtobufError) {
        switch file.syntax {
        case "", "proto2":
            self.init(explicitPresence: true, openEnums: false, packed: false, validatesUTF8: false)
        case "proto3":
            self.init(explicitPresence: false, openEnums: true, packed: true, validatesUTF8: true)
        case "editions":
            self.init(explicitPresence: true, openEnums: true, packed: true, validatesUTF8: true)
        default:
            throw ProtobufError("\(file.name) has syntax \"\(file.syntax)\", which is none of proto2, proto3, editions")
        }
        if file.options.hasFeatures { apply(file.options.features) }
    }

    private init(explicitPresence: Bool, openEnums: Bool, packed: Bool, validatesUTF8: Bool) {
        self.explicitPresence = explicitPresence
        self.openEnums = openEnums
        self.packed = packed
        self.validatesUTF8 = validatesUTF8
    }

    /// These features with what `set` overrides.
    func applying(_ set: Google_Protobuf_FeatureSet?) -> Features {
        guard let set else { return self }
        var copy = self
        copy.apply(set)
        return copy
    }

    private mutating func apply(_ set: Google_Protobuf_FeatureSet) {
        if set.hasFieldPresence, set.fieldPresence != .unknown { explicitPresence = set.fieldPresence != .implicit }
        if set.hasEnumType, set.enumType != .unknown { openEnums = set.enumType == .open }
        if set.hasRepeatedFieldEncoding, set.repeatedFieldEncoding != .unknown {
            packed = set.repeatedFieldEncoding == .packed
        }
        if set.hasUtf8Validation, set.utf8Validation != .unknown { validatesUTF8 = set.utf8Validation == .verify }
        if set.hasMessageEncoding, set.messageEncoding != .unknown { delimited = set.messageEncoding == .delimited }
    }
}

/// Builds a ``DescriptorPool``: first every type's name and place (so a field may name a type
/// defined later, or in a file given later), then each message's fields resolved against them.
struct Linker {
    var messages: [MessageDescriptor] = []
    var enums: [EnumDescriptor] = []
    var services: [ServiceDescriptor] = []
    var fileNames: [String] = []
    var symbols: [String: DescriptorPool.Symbol] = [:]
    /// Where each symbol was defined, for the message about a second definition.
    private var definedIn: [String: String] = [:]
    private var pendingMessages: [PendingMessage] = []
    private var pendingEnums: [PendingEnum] = []

    private struct PendingMessage {
        let proto: Google_Protobuf_DescriptorProto
        let fullName: String
        let file: String
        let features: Features
        let comments: Comments
        let path: [Int32]
    }

    private struct PendingEnum {
        let proto: Google_Protobuf_EnumDescriptorProto
        let fullName: String
        let file: String
        let features: Features
        let comments: Comments
        let path: [Int32]
    }

    /// A file's comments by the path of the declaration they are above.
    struct Comments {
        var byPath: [[Int32]: String] = [:]

        init(_ file: Google_Protobuf_FileDescriptorProto) {
            for location in file.sourceCodeInfo.location where location.hasLeadingComments {
                let text = location.leadingComments.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.trimmingPrefix(" ") }.joined(separator: "\n")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty { byPath[location.path] = text }
            }
        }

        subscript(path: [Int32]) -> String? { byPath[path] }
    }

    mutating func link(_ given: [Google_Protobuf_FileDescriptorProto]) throws(ProtobufError) {
        var files: [String: Google_Protobuf_FileDescriptorProto] = [:]
        var ordered: [Google_Protobuf_FileDescriptorProto] = []
        for file in given {
            guard !file.name.isEmpty else { throw ProtobufError("a file descriptor has no name") }
            if let earlier = files[file.name] {
                guard earlier == file else { throw ProtobufError("two different files are named \(file.name)") }
                continue
            }
            files[file.name] = file
            ordered.append(file)
        }
        try Self.checkImports(ordered, files: files)
        var serviceProtos: [(Google_Protobuf_FileDescriptorProto, Int)] = []
        for file in ordered {
            fileNames.append(file.name)
            let features = try Features(file: file)
            let comments = Comments(file)
            let package = file.package
            if !package.isEmpty {
                var prefix = ""
                for part in package.split(separator: ".", omittingEmptySubsequences: false) {
                    guard !part.isEmpty else { throw ProtobufError("\(file.name) has package \"\(package)\"") }
                    prefix = prefix.isEmpty ? String(part) : prefix + "." + part
                    if let existing = symbols[prefix], existing != .package {
                        throw ProtobufError(
                            "\(prefix) is a package in \(file.name) and a type in \(definedIn[prefix] ?? "?")")
                    }
                    symbols[prefix] = .package
                }
            }
            for (index, message) in file.messageType.enumerated() {
                try declare(
                    message, scope: package, file: file.name, features: features, comments: comments,
                    path: [4, Int32(index)])
            }
            for (index, enumeration) in file.enumType.enumerated() {
                try declare(
                    enumeration, scope: package, file: file.name, features: features, comments: comments,
                    path: [5, Int32(index)])
            }
            for (index, service) in file.service.enumerated() {
                let fullName = Self.qualified(service.name, in: package)
                try define(fullName, as: .service(serviceProtos.count), file: file.name)
                serviceProtos.append((file, index))
            }
        }
        for pending in pendingEnums { enums.append(try Self.enumeration(pending)) }
        for pending in pendingMessages { messages.append(try resolve(pending)) }
        for (file, index) in serviceProtos { services.append(try service(file, index: index)) }
        for message in messages {
            for field in message.fields where field.isRepeated {
                guard case .message(let id) = field.type, messages[id.index].isMapEntry else { continue }
                try Self.checkMapEntry(messages[id.index], field: field, in: message, messages: messages)
            }
        }
    }

    private static func checkImports(
        _ files: [Google_Protobuf_FileDescriptorProto], files byName: [String: Google_Protobuf_FileDescriptorProto]
    ) throws(ProtobufError) {
        for file in files {
            for dependency in file.dependency where byName[dependency] == nil {
                throw ProtobufError("\(file.name) imports \(dependency), which is not among the descriptors")
            }
        }
        // Depth-first, with the path kept, so a cycle is named as it goes.
        var done: Set<String> = []
        for file in files where !done.contains(file.name) {
            var stack: [(name: String, next: Int)] = [(file.name, 0)]
            var onPath: Set<String> = [file.name]
            while let top = stack.last {
                let dependencies = byName[top.name]?.dependency ?? []
                if top.next == dependencies.count {
                    stack.removeLast()
                    onPath.remove(top.name)
                    done.insert(top.name)
                    continue
                }
                stack[stack.count - 1].next += 1
                let dependency = dependencies[top.next]
                if onPath.contains(dependency) {
                    let cycle = stack.map(\.name).drop { $0 != dependency } + [dependency]
                    throw ProtobufError("import cycle: \(cycle.joined(separator: " → "))")
                }
                if !done.contains(dependency) {
                    stack.append((dependency, 0))
                    onPath.insert(dependency)
                }
            }
        }
    }

    private static func qualified(_ name: String, in scope: String) -> String {
        scope.isEmpty ? name : scope + "." + name
    }

    private mutating func define(
        _ fullName: String, as symbol: DescriptorPool.Symbol, file: String
    )
        throws(ProtobufError)
    {
        guard !fullName.isEmpty, !fullName.hasSuffix("."), !fullName.contains("..") else {
            throw ProtobufError("\(file) declares a type with no name")
        }
        if symbols[fullName] != nil {
            throw ProtobufError("\(fullName) is defined in \(definedIn[fullName] ?? "a package") and again in \(file)")
        }
        symbols[fullName] = symbol
        definedIn[fullName] = file
    }

    private mutating func declare(
        _ proto: Google_Protobuf_DescriptorProto, scope: String, file: String, features: Features,
        comments: Comments, path: [Int32]
    ) throws(ProtobufError) {
        let fullName = Self.qualified(proto.name, in: scope)
        try define(fullName, as: .message(pendingMessages.count), file: file)
        let features = features.applying(proto.options.hasFeatures ? proto.options.features : nil)
        pendingMessages.append(
            PendingMessage(
                proto: proto, fullName: fullName, file: file, features: features, comments: comments,
                path: path))
        for (index, nested) in proto.nestedType.enumerated() {
            try declare(
                nested, scope: fullName, file: file, features: features, comments: comments,
                path: path + [3, Int32(index)])
        }
        for (index, enumeration) in proto.enumType.enumerated() {
            try declare(
                enumeration, scope: fullName, file: file, features: features, comments: comments,
                path: path + [4, Int32(index)])
        }
    }

    private mutating func declare(
        _ proto: Google_Protobuf_EnumDescriptorProto, scope: String, file: String, features: Features,
        comments: Comments, path: [Int32]
    ) throws(ProtobufError) {
        let fullName = Self.qualified(proto.name, in: scope)
        try define(fullName, as: .enumeration(pendingEnums.count), file: file)
        let features = features.applying(proto.options.hasFeatures ? proto.options.features : nil)
        pendingEnums.append(
            PendingEnum(
                proto: proto, fullName: fullName, file: file, features: features, comments: comments,
                path: path))
    }

    private static func enumeration(_ pending: PendingEnum) throws(ProtobufError) -> EnumDescriptor {
        guard !pending.proto.value.isEmpty else { throw ProtobufError("enum \(pending.fullName) has no values") }
        let values = pending.proto.value.enumerated().map { index, value in
            EnumDescriptor.Value(
                name: value.name, number: value.number, comment: pending.comments[pending.path + [2, Int32(index)]])
        }
        return EnumDescriptor(
            fullName: pending.fullName, file: pending.file, values: values, isOpen: pending.features.openEnums,
            comment: pending.comments[pending.path])
    }

    /// The symbol `name` refers to from inside `scope`, by protobuf's rules: a leading dot is
    /// absolute; otherwise the innermost enclosing scope that has it.
    private func lookUp(_ name: String, from scope: String) -> (String, DescriptorPool.Symbol)? {
        if name.hasPrefix(".") {
            let absolute = String(name.dropFirst())
            return symbols[absolute].map { (absolute, $0) }
        }
        var scope = Substring(scope)
        while true {
            let candidate = scope.isEmpty ? name : scope + "." + name
            if let symbol = symbols[candidate], symbol != .package { return (candidate, symbol) }
            guard !scope.isEmpty else { return nil }
            scope = scope.lastIndex(of: ".").map { scope[..<$0] } ?? ""
        }
    }

    private func resolve(_ pending: PendingMessage) throws(ProtobufError) -> MessageDescriptor {
        let proto = pending.proto
        var fields: [FieldDescriptor] = []
        var byNumber: [Int32: Int] = [:]
        var byName: [String: Int] = [:]
        var oneofFields: [[Int32]] = Array(repeating: [], count: proto.oneofDecl.count)
        var syntheticOneofs: Set<Int> = []
        for field in proto.field where field.proto3Optional && field.hasOneofIndex {
            syntheticOneofs.insert(Int(field.oneofIndex))
        }
        // Real oneofs keep their positions among themselves; synthetic ones are left out.
        var realIndex: [Int: Int] = [:]
        for index in proto.oneofDecl.indices where !syntheticOneofs.contains(index) {
            realIndex[index] = realIndex.count
        }
        for (position, field) in proto.field.enumerated() {
            let place = "\(pending.fullName).\(field.name.isEmpty ? "#\(position + 1)" : field.name)"
            guard !field.name.isEmpty else { throw ProtobufError("\(place): a field with no name") }
            guard (1...536_870_911).contains(field.number) else {
                throw ProtobufError("\(place): field number \(field.number) is outside 1…536870911")
            }
            if let other = byNumber[field.number] {
                throw ProtobufError("\(place): number \(field.number) is also \(fields[other].name)'s")
            }
            let fieldFeatures = pending.features.applying(field.options.hasFeatures ? field.options.features : nil)
            let type = try fieldType(field, scope: pending.fullName, features: fieldFeatures, where: place)
            let cardinality: FieldDescriptor.Cardinality =
                switch field.label {
                case .repeated: .repeated
                case .required: .required
                default:
                    field.options.hasFeatures && field.options.features.fieldPresence == .legacyRequired
                        ? .required : .singular
                }
            var oneof: Int?
            if field.hasOneofIndex {
                let index = Int(field.oneofIndex)
                guard proto.oneofDecl.indices.contains(index) else {
                    throw ProtobufError("\(place): oneof index \(index) names no oneof")
                }
                guard cardinality != .repeated else { throw ProtobufError("\(place): a repeated field in a oneof") }
                oneofFields[index].append(field.number)
                oneof = realIndex[index]
            }
            let isPacked =
                cardinality == .repeated && type.isPackable
                && (field.options.hasPacked ? field.options.packed : fieldFeatures.packed)
            let hasPresence: Bool =
                switch (cardinality, type) {
                case (.repeated, _): false
                case (_, .message), (_, .group): true
                default: field.hasOneofIndex || field.proto3Optional || fieldFeatures.explicitPresence
                }
            let jsonName =
                field.hasJsonName && !field.jsonName.isEmpty ? field.jsonName : DescriptorPool.jsonName(for: field.name)
            for key in [field.name, jsonName] {
                if let other = byName[key], fields[other].number != field.number {
                    throw ProtobufError("\(place): the name \(key) is also \(fields[other].name)'s")
                }
            }
            byNumber[field.number] = fields.count
            byName[field.name] = fields.count
            byName[jsonName] = fields.count
            fields.append(
                FieldDescriptor(
                    name: field.name, jsonName: jsonName, number: field.number, cardinality: cardinality, type: type,
                    oneof: oneof, isPacked: isPacked, hasPresence: hasPresence,
                    validatesUTF8: fieldFeatures.validatesUTF8,
                    comment: pending.comments[pending.path + [2, Int32(position)]]))
        }
        let oneofs = proto.oneofDecl.indices.filter { !syntheticOneofs.contains($0) }.map {
            OneofDescriptor(name: proto.oneofDecl[$0].name, fieldNumbers: oneofFields[$0])
        }
        return MessageDescriptor(
            fullName: pending.fullName, file: pending.file, fields: fields, oneofs: oneofs,
            isMapEntry: proto.options.mapEntry, comment: pending.comments[pending.path], fieldsByNumber: byNumber,
            fieldsByJSONName: byName)
    }

    private func fieldType(
        _ field: Google_Protobuf_FieldDescriptorProto, scope: String, features: Features, where place: String
    ) throws(ProtobufError) -> FieldType {
        let named: DescriptorPool.Symbol?
        var resolvedName = "no type name"
        if field.hasTypeName || !field.typeName.isEmpty {
            guard let (name, symbol) = lookUp(field.typeName, from: scope) else {
                throw ProtobufError("\(place): type \(field.typeName) is not among the descriptors")
            }
            named = symbol
            resolvedName = name
        } else {
            named = nil
        }
        func message() throws(ProtobufError) -> MessageID {
            guard case .message(let index) = named else {
                throw ProtobufError("\(place): \(named == nil ? resolvedName : resolvedName + " is not a message")")
            }
            return MessageID(index: index)
        }
        switch (field.hasType ? field.type : nil, named) {
        case (.double, _): return .double
        case (.float, _): return .float
        case (.int64, _): return .int64
        case (.uint64, _): return .uint64
        case (.int32, _): return .int32
        case (.fixed64, _): return .fixed64
        case (.fixed32, _): return .fixed32
        case (.bool, _): return .bool
        case (.string, _): return .string
        case (.bytes, _): return .bytes
        case (.uint32, _): return .uint32
        case (.sfixed32, _): return .sfixed32
        case (.sfixed64, _): return .sfixed64
        case (.sint32, _): return .sint32
        case (.sint64, _): return .sint64
        case (.group, _): return .group(try message())
        case (.message, _), (nil, .message):
            let id = try message()
            return features.delimited ? .group(id) : .message(id)
        case (.enum, _), (nil, .enumeration):
            guard case .enumeration(let index) = named else {
                throw ProtobufError("\(place): \(named == nil ? resolvedName : resolvedName + " is not an enum")")
            }
            return .enumeration(EnumID(index: index))
        case (nil, _):
            throw ProtobufError("\(place): no type")
        }
    }

    private static func checkMapEntry(
        _ entry: MessageDescriptor, field: FieldDescriptor, in message: MessageDescriptor,
        messages: [MessageDescriptor]
    ) throws(ProtobufError) {
        let place = "\(message.fullName).\(field.name)"
        guard let key = entry.field(number: 1), let value = entry.field(number: 2), entry.fields.count == 2,
            !key.isRepeated, !value.isRepeated
        else { throw ProtobufError("\(place): map entry \(entry.fullName) needs a key (1) and a value (2)") }
        switch key.type {
        case .double, .float, .bytes, .message, .group, .enumeration:
            throw ProtobufError("\(place): a map key cannot be a \(key.type.name(in: messages, enums: []))")
        default: break
        }
    }

    private func service(
        _ file: Google_Protobuf_FileDescriptorProto, index: Int
    ) throws(ProtobufError)
        -> ServiceDescriptor
    {
        let proto = file.service[index]
        let fullName = Self.qualified(proto.name, in: file.package)
        let comments = Comments(file)
        var methods: [MethodDescriptor] = []
        for (position, method) in proto.method.enumerated() {
            func message(_ name: String, _ role: String) throws(ProtobufError) -> MessageID {
                guard let (_, symbol) = lookUp(name, from: fullName), case .message(let index) = symbol else {
                    throw ProtobufError(
                        "\(fullName)/\(method.name): its \(role) \(name) is not a message among the descriptors")
                }
                return MessageID(index: index)
            }
            guard !method.name.isEmpty else { throw ProtobufError("\(fullName): a method with no name") }
            methods.append(
                MethodDescriptor(
                    name: method.name, input: try message(method.inputType, "input"),
                    output: try message(method.outputType, "output"), clientStreaming: method.clientStreaming,
                    serverStreaming: method.serverStreaming,
                    comment: comments[[6, Int32(index), 2, Int32(position)]]))
        }
        return ServiceDescriptor(
            fullName: fullName, file: file.name, methods: methods, comment: comments[[6, Int32(index)]])
    }
}

extension FieldType {
    fileprivate func name(in messages: [MessageDescriptor], enums: [EnumDescriptor]) -> String {
        switch self {
        case .message(let id), .group(let id): messages[id.index].fullName
        case .enumeration: "enum"
        default: "\(self)"
        }
    }
}
