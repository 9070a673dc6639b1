import FathomGraphQL
import FathomJSON
import Foundation
import FuzzDriver

/// A schema every operation is checked against: interfaces, a union, enums, an input object.
let schema = try? GraphQLDescription(
    sdl: """
        type Query { user(id: ID!): User users(role: Role, filter: Filter): [User!]! node(id: ID!): Node
          search(text: String!): [Result!]! }
        interface Node { id: ID! }
        type User implements Node { id: ID! name: String! age: Int role: Role! friends: [User] }
        type Team implements Node { id: ID! members: [User!]! }
        union Result = User | Team
        enum Role { ADMIN MEMBER }
        input Filter { name: String role: Role ids: [ID!] }
        """)

/// libFuzzer: the first byte picks what the rest is — 0 SDL, 1 an introspection result, 2 an
/// operation, a newline, and a response to check against it. None may trap or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGraphQL(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start + 1, count: count - 1))
    switch start[0] % 3 {
    case 0:
        if let built = try? GraphQLDescription(sdl: String(decoding: bytes, as: UTF8.self)) { _ = built.counts }
    case 1:
        if let json = try? JSON(parsing: bytes), let built = try? GraphQLDescription(introspection: json) {
            _ = built.printed
        }
    default:
        let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        guard let schema, let operation = try? GraphQLOperation(String(decoding: bytes[..<newline], as: UTF8.self))
        else { return 0 }
        _ = schema.validate(operation)
        if newline < bytes.count, let response = try? JSON(parsing: bytes[(newline + 1)...]) {
            _ = schema.check(response, for: operation)
        }
    }
    return 0
}

@_cdecl("fuzz_graphql_main")
public func fuzzGraphQLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzGraphQL)
}
