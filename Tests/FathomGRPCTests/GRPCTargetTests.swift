import FathomGRPC
import Testing

@Suite struct GRPCTargetTests {
    @Test(arguments: [
        ("localhost:50051", "grpcs://localhost:50051"), ("grpc://127.0.0.1:8080", "grpc://127.0.0.1:8080"),
        ("https://api.example.com", "grpcs://api.example.com:443"), ("[::1]:9000", "grpcs://[::1]:9000"),
    ])
    func targetsAreRead(text: String, expected: String) throws {
        #expect(try GRPCTarget(parsing: text).description == expected)
    }

    @Test func aTargetWithoutItsPortIsAnError() {
        #expect(throws: GRPCError("localhost: a gRPC target needs its port (HOST:PORT)")) {
            try GRPCTarget(parsing: "localhost")
        }
    }

    @Test func aPathOrABadPortIsAnError() throws {
        #expect(throws: GRPCError("grpc://host:1/a/b: a gRPC target is a host and port, not a path")) {
            try GRPCTarget(parsing: "grpc://host:1/a/b")
        }
        #expect(throws: GRPCError("host:99999: 99999 is not a port (1–65535)")) {
            try GRPCTarget(parsing: "host:99999")
        }
        #expect(try GRPCTarget(parsing: "host:1", plaintext: true).plaintext)
    }

    @Test(arguments: ["NOT_FOUND", "not_found", "NotFound", "5"])
    func statusCodesAreNamedAnyWay(name: String) {
        #expect(GRPCStatus.code(named: name) == 5)
        #expect(GRPCStatus(code: 5, message: "gone").description == "NOT_FOUND: gone")
    }
}
