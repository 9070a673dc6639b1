import FathomGRPC
import FathomJSON
import Testing

@Suite struct GRPCStatusDetailsTests {
    /// Bytes of a field: tag, then a varint or a length and the payload.
    static func field(_ number: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [number << 3 | 2, UInt8(payload.count)] + payload
    }
    static func text(_ number: UInt8, _ value: String) -> [UInt8] { field(number, Array(value.utf8)) }
    static func any(_ type: String, _ value: [UInt8]) -> [UInt8] {
        field(3, text(1, "type.googleapis.com/\(type)") + field(2, value))
    }

    @Test func standardDetailsAreNamedAndOthersKeptAsBytes() throws {
        // ErrorInfo { reason, domain, metadata {"k": "v"} }, RetryInfo { retry_delay { seconds: 3 } },
        // and a type nobody here knows.
        let errorInfo =
            Self.text(1, "QUOTA") + Self.text(2, "example.com") + Self.field(3, Self.text(1, "k") + Self.text(2, "v"))
        let retryInfo = Self.field(1, [0x08, 0x03])
        let bytes: [UInt8] =
            [0x08, 0x08] + Self.text(2, "slow down") + Self.any("google.rpc.ErrorInfo", errorInfo)
            + Self.any("google.rpc.RetryInfo", retryInfo) + Self.any("acme.Mystery", [0x08, 0x01])
        let json = try GRPCStatusDetails.json(bytes).formatted(.compactText)
        #expect(
            json
                == #"{"code":8,"message":"slow down","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"QUOTA","domain":"example.com","metadata":{"k":"v"}},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"3s"},{"@type":"type.googleapis.com/acme.Mystery","value":"CAE="}]}"#
                + "\n")
    }

    @Test func bytesThatAreNoStatusAreAnError() {
        #expect(throws: GRPCError.self) { try GRPCStatusDetails.json([0x0a, 0x09]) }
    }
}
