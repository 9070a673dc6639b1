import FathomProtobuf
import SwiftProtobuf

/// Builds descriptors for tests, as a reflection answer carries them: no `json_name`.
enum Proto {
    typealias Field = Google_Protobuf_FieldDescriptorProto

    static func field(
        _ name: String, _ number: Int32, _ type: Field.TypeEnum, _ typeName: String? = nil,
        repeated: Bool = false, oneof: Int32? = nil, packed: Bool? = nil, proto3Optional: Bool = false
    ) -> Field {
        var field = Field()
        field.name = name
        field.number = number
        field.type = type
        field.label = repeated ? .repeated : .optional
        if let typeName { field.typeName = typeName }
        if let oneof { field.oneofIndex = oneof }
        if let packed { field.options.packed = packed }
        if proto3Optional { field.proto3Optional = true }
        return field
    }

    static func message(
        _ name: String, _ fields: [Field], nested: [Google_Protobuf_DescriptorProto] = [],
        enums: [Google_Protobuf_EnumDescriptorProto] = [], oneofs: [String] = [], mapEntry: Bool = false
    ) -> Google_Protobuf_DescriptorProto {
        var message = Google_Protobuf_DescriptorProto()
        message.name = name
        message.field = fields
        message.nestedType = nested
        message.enumType = enums
        message.oneofDecl = oneofs.map { name in
            var oneof = Google_Protobuf_OneofDescriptorProto()
            oneof.name = name
            return oneof
        }
        if mapEntry { message.options.mapEntry = true }
        return message
    }

    static func enumeration(_ name: String, _ values: [(String, Int32)]) -> Google_Protobuf_EnumDescriptorProto {
        var enumeration = Google_Protobuf_EnumDescriptorProto()
        enumeration.name = name
        enumeration.value = values.map { name, number in
            var value = Google_Protobuf_EnumValueDescriptorProto()
            value.name = name
            value.number = number
            return value
        }
        return enumeration
    }

    static func file(
        _ name: String, package: String = "demo", syntax: String = "proto3", imports: [String] = [],
        messages: [Google_Protobuf_DescriptorProto] = [], enums: [Google_Protobuf_EnumDescriptorProto] = [],
        services: [Google_Protobuf_ServiceDescriptorProto] = []
    ) -> Google_Protobuf_FileDescriptorProto {
        var file = Google_Protobuf_FileDescriptorProto()
        file.name = name
        file.package = package
        file.syntax = syntax
        file.dependency = imports
        file.messageType = messages
        file.enumType = enums
        file.service = services
        return file
    }

    static func service(
        _ name: String, _ methods: [(String, String, String, Bool, Bool)]
    )
        -> Google_Protobuf_ServiceDescriptorProto
    {
        var service = Google_Protobuf_ServiceDescriptorProto()
        service.name = name
        service.method = methods.map { name, input, output, client, server in
            var method = Google_Protobuf_MethodDescriptorProto()
            method.name = name
            method.inputType = input
            method.outputType = output
            method.clientStreaming = client
            method.serverStreaming = server
            return method
        }
        return service
    }

    /// `demo.User` (id, display_name, tags, role, address, labels map, a oneof contact) and
    /// `demo.Users` service, in two files given dependent first.
    static var users: [Google_Protobuf_FileDescriptorProto] {
        let address = message("Address", [field("city", 1, .string), field("zip_code", 2, .string)])
        let labels = message(
            "LabelsEntry", [field("key", 1, .string), field("value", 2, .int64)], mapEntry: true)
        let user = message(
            "User",
            [
                field("id", 1, .int64), field("display_name", 2, .string), field("tags", 3, .string, repeated: true),
                field("role", 4, .enum, ".demo.Role"), field("address", 5, .message, "common.Address"),
                field("labels", 6, .message, ".demo.User.LabelsEntry", repeated: true),
                field("email", 7, .string, oneof: 0), field("phone", 8, .string, oneof: 0),
                field("scores", 9, .int32, repeated: true),
                field("nickname", 10, .string, oneof: 1, proto3Optional: true),
                field("friend", 11, .message, "User"),
            ],
            nested: [labels], oneofs: ["contact", "_nickname"])
        let request = message("GetUserRequest", [field("id", 1, .int64)])
        return [
            file(
                "users.proto", imports: ["common.proto"], messages: [user, request],
                enums: [enumeration("Role", [("ROLE_UNSPECIFIED", 0), ("ADMIN", 1), ("MEMBER", 2)])],
                services: [
                    service(
                        "Users",
                        [
                            ("GetUser", ".demo.GetUserRequest", ".demo.User", false, false),
                            ("WatchUsers", "GetUserRequest", "User", false, true),
                            ("Chat", ".demo.User", ".demo.User", true, true),
                        ])
                ]),
            file("common.proto", package: "common", messages: [address]),
        ]
    }
}
