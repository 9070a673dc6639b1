import FathomJSON
@_spi(Fathom) import FathomProtobuf
import Foundation
import SwiftProtobuf

/// A failed call's rich error: the `grpc-status-details-bin` trailer, a `google.rpc.Status`, as
/// proto3 JSON — its details (`Any`s) resolved: the standard ones of `google/rpc/error_details.proto`
/// (`BadRequest`, `ErrorInfo`, `RetryInfo`, `QuotaFailure`, `PreconditionFailure`, `DebugInfo`,
/// `RequestInfo`, `ResourceInfo`, `Help`, `LocalizedMessage`) by FathomGRPC's own descriptors, an
/// API's own through its pool, any other kept as its type URL and base64 bytes.
public enum GRPCStatusDetails {
    /// The descriptors of `google.rpc.Status`, the standard details, and the two well-known types
    /// they use.
    static let pool: DescriptorPool? = {
        let protobuf = DescriptorBuilder(package: "google.protobuf")
        let any = protobuf.file(
            "google/protobuf/any.proto",
            [protobuf.message("Any", [protobuf.field("type_url", 1, .string), protobuf.field("value", 2, .bytes)])])
        let duration = protobuf.file(
            "google/protobuf/duration.proto",
            [protobuf.message("Duration", [protobuf.field("seconds", 1, .int64), protobuf.field("nanos", 2, .int32)])])
        let rpc = DescriptorBuilder(package: "google.rpc")
        let status = rpc.file(
            "google/rpc/status.proto", imports: ["google/protobuf/any.proto"],
            [
                rpc.message(
                    "Status",
                    [
                        rpc.field("code", 1, .int32), rpc.field("message", 2, .string),
                        rpc.field("details", 3, .message, "google.protobuf.Any", repeated: true),
                    ])
            ])
        var metadataEntry = rpc.message(
            "MetadataEntry", [rpc.field("key", 1, .string), rpc.field("value", 2, .string)])
        metadataEntry.options.mapEntry = true
        let details = rpc.file(
            "google/rpc/error_details.proto", imports: ["google/protobuf/duration.proto"],
            [
                rpc.message(
                    "ErrorInfo",
                    [
                        rpc.field("reason", 1, .string), rpc.field("domain", 2, .string),
                        rpc.field("metadata", 3, .message, "ErrorInfo.MetadataEntry", repeated: true),
                    ], nested: [metadataEntry]),
                rpc.message("RetryInfo", [rpc.field("retry_delay", 1, .message, "google.protobuf.Duration")]),
                rpc.message(
                    "DebugInfo",
                    [rpc.field("stack_entries", 1, .string, repeated: true), rpc.field("detail", 2, .string)]),
                rpc.message(
                    "QuotaFailure", [rpc.field("violations", 1, .message, "QuotaFailure.Violation", repeated: true)],
                    nested: [
                        rpc.message(
                            "Violation", [rpc.field("subject", 1, .string), rpc.field("description", 2, .string)])
                    ]),
                rpc.message(
                    "PreconditionFailure",
                    [rpc.field("violations", 1, .message, "PreconditionFailure.Violation", repeated: true)],
                    nested: [
                        rpc.message(
                            "Violation",
                            [
                                rpc.field("type", 1, .string), rpc.field("subject", 2, .string),
                                rpc.field("description", 3, .string),
                            ])
                    ]),
                rpc.message(
                    "BadRequest",
                    [rpc.field("field_violations", 1, .message, "BadRequest.FieldViolation", repeated: true)],
                    nested: [
                        rpc.message(
                            "FieldViolation",
                            [
                                rpc.field("field", 1, .string), rpc.field("description", 2, .string),
                                rpc.field("reason", 3, .string),
                                rpc.field("localized_message", 4, .message, "LocalizedMessage"),
                            ])
                    ]),
                rpc.message(
                    "RequestInfo", [rpc.field("request_id", 1, .string), rpc.field("serving_data", 2, .string)]),
                rpc.message(
                    "ResourceInfo",
                    [
                        rpc.field("resource_type", 1, .string), rpc.field("resource_name", 2, .string),
                        rpc.field("owner", 3, .string), rpc.field("description", 4, .string),
                    ]),
                rpc.message(
                    "Help", [rpc.field("links", 1, .message, "Help.Link", repeated: true)],
                    nested: [rpc.message("Link", [rpc.field("description", 1, .string), rpc.field("url", 2, .string)])]),
                rpc.message("LocalizedMessage", [rpc.field("locale", 1, .string), rpc.field("message", 2, .string)]),
            ])
        return try? DescriptorPool(files: [any, duration, status, details])
    }()

    /// A `google.rpc.Status` written as proto3 JSON, encoded for the `grpc-status-details-bin`
    /// trailer: its details as `Any`s naming their type (`{"@type":
    /// "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": […]}`), of the standard
    /// types.
    public static func bytes(_ status: JSON) throws(GRPCError) -> [UInt8] {
        guard let pool, let statusType = pool.message(named: "google.rpc.Status") else {
            throw GRPCError("google.rpc.Status's descriptors do not link")
        }
        do {
            return WireEncoder(pool: pool).encode(try ProtoJSON(pool: pool).message(from: status, as: statusType))
        } catch {
            throw GRPCError("not a google.rpc.Status: \(error.message)")
        }
    }

    /// The trailer's `google.rpc.Status` as JSON; `api` is the API's own descriptors, for details
    /// of its own types.
    public static func json(_ bytes: [UInt8], api: DescriptorPool? = nil) throws(GRPCError) -> JSON {
        guard let pool, let statusType = pool.message(named: "google.rpc.Status") else {
            throw GRPCError("google.rpc.Status's descriptors do not link")
        }
        let status: DynamicMessage
        do {
            status = try WireDecoder(pool: pool).decode(bytes, as: statusType)
        } catch {
            throw GRPCError("grpc-status-details-bin is not a google.rpc.Status: \(error.message)")
        }
        var members: [JSON.Member] = []
        if case .single(.int(let code)) = status.values[1], code != 0 {
            members.append(JSON.Member(key: "code", value: .number(String(code))))
        }
        if case .single(.string(let message)) = status.values[2], !message.isEmpty {
            members.append(JSON.Member(key: "message", value: .string(message)))
        }
        if case .list(let details) = status.values[3], !details.isEmpty {
            members.append(JSON.Member(key: "details", value: .array(details.map { detail(of: $0, api: api) })))
        }
        return .object(members)
    }

    /// One detail: its message by the descriptors that know its type, or its URL and bytes.
    private static func detail(of value: ProtoValue, api: DescriptorPool?) -> JSON {
        guard case .message(let any) = value else { return .null }
        var url = ""
        var bytes: [UInt8] = []
        if case .single(.string(let text)) = any.values[1] { url = text }
        if case .single(.bytes(let value)) = any.values[2] { bytes = value }
        let name = String(url[(url.lastIndex(of: "/").map { url.index(after: $0) } ?? url.startIndex)...])
        for candidate in [pool, api].compactMap({ $0 }) {
            guard let type = candidate.message(named: name),
                let message = try? WireDecoder(pool: candidate).decode(bytes, as: type),
                case .object(let fields)? = try? ProtoJSON(pool: candidate).json(message)
            else { continue }
            return .object([JSON.Member(key: "@type", value: .string(url))] + fields)
        }
        return .object([
            JSON.Member(key: "@type", value: .string(url)),
            JSON.Member(key: "value", value: .string(Base64.encode(bytes))),
        ])
    }
}
