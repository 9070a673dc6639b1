import FathomGRPC
import FathomHTTP
@_spi(Fathom) import FathomJSON
@_spi(Fathom) import FathomProtobuf
import Foundation

/// A call's messages between JSON and the wire, by its method's descriptors: requests encoded
/// from JSON (one line error when one is not the message type), responses decoded to JSON by the
/// proto3 JSON mapping.
struct GRPCMessages: Sendable {
    let pool: DescriptorPool
    /// The response message type.
    let output: MessageID

    /// A response message as one line of JSON. One that does not decode is kept as what it is:
    /// `{"@undecodable": why, "@bytes": base64}`, so a stream goes on and nothing is lost.
    func text(_ bytes: [UInt8]) -> String {
        let json: JSON
        do {
            json = try ProtoJSON(pool: pool).json(WireDecoder(pool: pool).decode(bytes, as: output))
        } catch {
            json = .object([
                JSON.Member(key: "@undecodable", value: .string(error.message)),
                JSON.Member(key: "@bytes", value: .string(Base64.encode(bytes))),
            ])
        }
        return Self.compact(json)
    }

    /// The request messages a call sends, encoded: exactly one for a method that takes one (none
    /// given is `{}`), any number for a client or bidirectional stream.
    static func requests(
        _ values: [JSON], for method: MethodDescriptor, named name: String, in pool: DescriptorPool
    ) throws(CommandError) -> (json: [JSON], bytes: [[UInt8]]) {
        var values = values
        if !method.clientStreaming {
            if values.isEmpty { values = [.object([])] }
            guard values.count == 1 else {
                throw CommandError(
                    .parse, "\(name) is \(method.kind): it takes one request message, not \(values.count)",
                    hint: "an array of messages is for client and bidirectional streaming")
            }
        }
        var encoded: [[UInt8]] = []
        let type = pool[method.input]
        for (index, value) in values.enumerated() {
            do {
                let message = try ProtoJSON(pool: pool).message(from: value, as: method.input)
                encoded.append(WireEncoder(pool: pool).encode(message))
            } catch {
                let which = values.count > 1 ? "message \(index + 1)" : "the request"
                throw CommandError(
                    .parse, "\(which) is not a \(type.fullName): \(error.message)",
                    hint: "`describe \(type.name)` shows its fields")
            }
        }
        return (values, encoded)
    }

    /// The request as the kept request's body: the message, or the array of them for a client stream.
    static func text(_ values: [JSON], streaming: Bool) -> String {
        compact(streaming ? .array(values) : values.first ?? .object([]))
    }

    /// Metadata as header fields: text as it is, bytes as base64 (as a `-bin` name goes on the
    /// wire); HTTP/2's `content-type` (`application/grpc`) left out — the kept response's own
    /// says how its body is kept.
    static func headers(_ metadata: GRPCMetadata) -> NetworkHeaders {
        var headers = NetworkHeaders()
        for entry in metadata.entries where entry.name != "content-type" {
            switch entry.value {
            case .text(let text): headers.add(NetworkHeaders.Name(entry.name), text)
            case .bytes(let bytes): headers.add(NetworkHeaders.Name(entry.name), Base64.encode(bytes))
            }
        }
        return headers
    }

    static func compact(_ json: JSON) -> String {
        json.formatted(.compactText).trimmingCharacters(in: .newlines)
    }
}
