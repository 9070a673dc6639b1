import FathomProtobuf
import SwiftProtobuf

/// The server reflection protocol's messages (`grpc/reflection/v1/reflection.proto`, the same in
/// `v1alpha` under another package) as descriptors, so FathomProtobuf encodes and decodes them.
struct ReflectionMessages {
    let pool: DescriptorPool
    let request: MessageID
    let response: MessageID
    /// `grpc.reflection.VERSION.ServerReflection/ServerReflectionInfo`.
    let method: String

    init(version: String) throws(GRPCError) {
        let package = "grpc.reflection.\(version)"
        let builder = DescriptorBuilder(package: package)
        let file = builder.file(
            "grpc/reflection/\(version)/reflection.proto",
            [
                builder.message(
                    "ServerReflectionRequest",
                    [
                        builder.field("host", 1, .string), builder.field("file_by_filename", 3, .string, oneof: true),
                        builder.field("file_containing_symbol", 4, .string, oneof: true),
                        builder.field("file_containing_extension", 5, .message, "ExtensionRequest", oneof: true),
                        builder.field("all_extension_numbers_of_type", 6, .string, oneof: true),
                        builder.field("list_services", 7, .string, oneof: true),
                    ], oneof: "message_request"),
                builder.message(
                    "ExtensionRequest",
                    [builder.field("containing_type", 1, .string), builder.field("extension_number", 2, .int32)]),
                builder.message(
                    "ServerReflectionResponse",
                    [
                        builder.field("valid_host", 1, .string),
                        builder.field("original_request", 2, .message, "ServerReflectionRequest"),
                        builder.field("file_descriptor_response", 4, .message, "FileDescriptorResponse", oneof: true),
                        builder.field(
                            "all_extension_numbers_response", 5, .message, "ExtensionNumberResponse", oneof: true),
                        builder.field("list_services_response", 6, .message, "ListServiceResponse", oneof: true),
                        builder.field("error_response", 7, .message, "ErrorResponse", oneof: true),
                    ], oneof: "message_response"),
                builder.message(
                    "FileDescriptorResponse", [builder.field("file_descriptor_proto", 1, .bytes, repeated: true)]),
                builder.message(
                    "ExtensionNumberResponse",
                    [
                        builder.field("base_type_name", 1, .string),
                        builder.field("extension_number", 2, .int32, repeated: true),
                    ]),
                builder.message(
                    "ListServiceResponse", [builder.field("service", 1, .message, "ServiceResponse", repeated: true)]),
                builder.message("ServiceResponse", [builder.field("name", 1, .string)]),
                builder.message(
                    "ErrorResponse",
                    [builder.field("error_code", 1, .int32), builder.field("error_message", 2, .string)]),
            ])
        do {
            pool = try DescriptorPool(files: [file])
        } catch {
            throw GRPCError("the reflection messages do not link: \(error.message)")
        }
        guard let request = pool.message(named: "\(package).ServerReflectionRequest"),
            let response = pool.message(named: "\(package).ServerReflectionResponse")
        else { throw GRPCError("the reflection messages are missing") }
        self.request = request
        self.response = response
        method = "\(package).ServerReflection/ServerReflectionInfo"
    }
}
