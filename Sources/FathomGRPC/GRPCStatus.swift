/// How a call ended: a status code, its message, and the trailers that came with it.
public struct GRPCStatus: Hashable, Sendable, CustomStringConvertible {
    /// The status code's number (0 `OK` … 16 `UNAUTHENTICATED`).
    public let code: Int
    /// The message the server gave with it.
    public let message: String

    /// A status `code` with `message`.
    public init(code: Int, message: String = "") {
        self.code = code
        self.message = message
    }

    /// Whether the call succeeded.
    public var isOK: Bool { code == 0 }

    /// The code's name as gRPC writes it (`NOT_FOUND`), or its number when it has none.
    public var codeName: String { Self.names.indices.contains(code) ? Self.names[code] : String(code) }

    /// `NOT_FOUND: no such user`, or `OK`.
    public var description: String { message.isEmpty ? codeName : "\(codeName): \(message)" }

    /// The codes' names, by number.
    public static let names = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
        "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
        "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
    ]

    /// The code named `name` (any case, `NotFound` and `not_found` alike) or numbered so.
    public static func code(named name: String) -> Int? {
        if let number = Int(name), number >= 0 { return number }
        let key = name.replacingOccurrences(of: "_", with: "").lowercased()
        return names.firstIndex { $0.replacingOccurrences(of: "_", with: "").lowercased() == key }
    }
}

extension GRPCStatus {
    /// The HTTP status a gateway answers for this one (google.api's mapping, as grpc-gateway
    /// uses it): `OK` 200, `NOT_FOUND` 404, `UNAUTHENTICATED` 401, `UNAVAILABLE` 503… — how a call
    /// is told to what reads HTTP statuses (an authenticator, a batch's tally), its reason
    /// phrase the code's name.
    public var httpStatus: Int {
        switch code {
        case 0: 200
        case 1: 499
        case 3, 9, 11: 400
        case 4: 504
        case 5: 404
        case 6, 10: 409
        case 7: 403
        case 8: 429
        case 12: 501
        case 14: 503
        case 16: 401
        default: 500
        }
    }
}
