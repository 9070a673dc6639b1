import SwiftProtobuf

/// Builds the few `.proto` files FathomGRPC knows itself (server reflection's messages,
/// `google.rpc.Status` and its details) as descriptors, for FathomProtobuf to link and use.
struct DescriptorBuilder {
    typealias Field = Google_Protobuf_FieldDescriptorProto
    typealias Message = Google_Protobuf_DescriptorProto

    /// The file's package.
    ///
    /// A type name that starts in lower case is a full name
    /// (`google.protobuf.Any`); one in upper case is in this package (`BadRequest.FieldViolation`).
    let package: String

    func field(
        _ name: String, _ number: Int32, _ type: Field.TypeEnum, _ typeName: String? = nil, repeated: Bool = false,
        oneof: Bool = false
    ) -> Field {
        var field = Field()
        field.name = name
        field.number = number
        field.type = type
        field.label = repeated ? .repeated : .optional
        if let typeName {
            field.typeName = typeName.first?.isLowercase == true ? ".\(typeName)" : ".\(package).\(typeName)"
        }
        if oneof { field.oneofIndex = 0 }
        return field
    }

    func message(_ name: String, _ fields: [Field], oneof: String? = nil, nested: [Message] = []) -> Message {
        var message = Message()
        message.name = name
        message.field = fields
        message.nestedType = nested
        if let oneof {
            var declaration = Google_Protobuf_OneofDescriptorProto()
            declaration.name = oneof
            message.oneofDecl = [declaration]
        }
        return message
    }

    func file(_ name: String, imports: [String] = [], _ messages: [Message]) -> Google_Protobuf_FileDescriptorProto {
        var file = Google_Protobuf_FileDescriptorProto()
        file.name = name
        file.package = package
        file.syntax = "proto3"
        file.dependency = imports
        file.messageType = messages
        return file
    }
}
