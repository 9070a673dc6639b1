import FathomGraphQL
import FathomHTTP
import FathomJSON
import Foundation
import Testing

@testable import FathomREPL

/// GraphQL on the exchange pipeline, on a MockTransport: the schema belongs to its API, an
/// operation is a POST with the API's credentials, checked before it goes and after it comes.
@Suite struct GraphQLTests {
    static let sdl = """
        type Query { user(id: ID!): User users(role: Role): [User!]! }
        type Mutation { rename(id: ID!, name: String!): User }
        type User { id: ID! name: String! age: Int role: Role! }
        enum Role { ADMIN MEMBER }
        """

    /// An executor whose `/graphql` answers `answer`, with the schema above loaded from a file.
    static func executor(answer: String) async throws -> (Executor, MockTransport, String) {
        let transport = MockTransport()
        transport.register("/graphql", .json(answer))
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        let file = NSTemporaryDirectory() + "fathom-graphql-\(UUID().uuidString).graphql"
        try Data(sdl.utf8).write(to: URL(fileURLWithPath: file))
        for line in ["base http://api.test", "auth bearer t0ken-planted", "graphql /graphql --schema \(file)"] {
            let result = await executor.run(line)
            #expect(result.outcome == .succeeded, "\(line): \(result.outputs)")
        }
        return (executor, transport, file)
    }

    static func response(_ result: CommandResult) -> ResponseOutput? {
        result.outputs.lazy.compactMap { if case .response(let output) = $0 { output } else { nil } }.first
    }

    @Test func anOperationIsAPostOfTheEndpointWithTheAPIsCredentials() async throws {
        let (executor, transport, file) = try await Self.executor(answer: #"{"data": {"user": {"name": "Ada"}}}"#)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = await executor.run("query User($id: ID!, $n: Int) { user(id: $id) { name } } id=2 n:=3")
        #expect(result.outcome == .succeeded, "\(result.outputs)")
        let request = try #require(transport.requests.last)
        #expect(request.method == .post)
        #expect(request.url.path == "/graphql")
        #expect(request.headers[.contentType] == "application/json")
        #expect(request.headers[.authorization] == "Bearer t0ken-planted")
        guard case .bytes(let data)? = request.body else {
            Issue.record("no body")
            return
        }
        let body = try JSON(parsing: data)
        #expect(body["query"] == .string("query User($id: ID!, $n: Int) { user(id: $id) { name } }"))
        #expect(
            body["variables"] == .object([.init(key: "id", value: .string("2")), .init(key: "n", value: .number("3"))]))
        #expect(body["operationName"] == .string("User"))
        #expect(Self.response(result)?.schema?.passed == true)
    }

    @Test func problemsAreWarningsOrTheReasonNothingIsSent() async throws {
        let (executor, transport, file) = try await Self.executor(answer: #"{"data": {"users": []}}"#)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let warned = await executor.run("{ users(role: ADMN) { nme } }")
        let warnings = warned.outputs.compactMap { output -> String? in
            if case .event(.requestWarning(let text)) = output { text } else { nil }
        }
        #expect(warnings.contains { $0.contains("Did you mean \"name\"") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("ADMN") }, "\(warnings)")
        #expect(transport.requests.count == 1)
        #expect(await executor.run("validate strict").outcome == .succeeded)
        let refused = await executor.run("{ users(role: ADMN) { nme } }")
        #expect(refused.outcome == .failed)
        #expect(transport.requests.count == 1, "a strict refusal sends nothing")
        #expect(await executor.run("validate off").outcome == .succeeded)
        let unchecked = await executor.run("{ users(role: ADMN) { nme } }")
        #expect(unchecked.outputs.allSatisfy { if case .event(.requestWarning) = $0 { false } else { true } })
    }

    @Test func theResponseIsCheckedAgainstTheSelectionAndItsErrorsListed() async throws {
        let answer =
            #"{"data": {"user": {"name": 5, "age": "old"}}, "errors": [{"message": "partial", "path": ["user", "role"], "locations": [{"line": 1, "column": 30}]}]}"#
        let (executor, _, file) = try await Self.executor(answer: answer)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = await executor.run("{ user(id: 1) { name age role } }")
        let output = try #require(Self.response(result))
        #expect(
            output.schema?.violations.map(\.description) == [
                "$.data.user.name: expected String!, got number", "$.data.user.age: expected Int, got string",
            ])
        #expect(output.schema?.operation == "query")
        #expect(
            output.graphQLErrors == [GraphQLResponseError(message: "partial", path: "user.role", locations: ["1:30"])])
        let expectation = await executor.run("expect schema")
        #expect(expectation.outcome == .checkFailed)
    }

    @Test func anOperationFromAFileHoldingSeveral() async throws {
        let (executor, transport, file) = try await Self.executor(answer: #"{"data": {"user": {"name": "Ada"}}}"#)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let operations = NSTemporaryDirectory() + "fathom-ops-\(UUID().uuidString).graphql"
        try Data(
            """
            query One($id: ID!) { user(id: $id) { name } }
            query All { users { id } }
            """.utf8
        ).write(to: URL(fileURLWithPath: operations))
        defer { try? FileManager.default.removeItem(atPath: operations) }
        let result = await executor.run("query @\(operations) One id=7")
        #expect(result.outcome == .succeeded, "\(result.outputs)")
        guard case .bytes(let data)? = transport.requests.last?.body else {
            Issue.record("no body")
            return
        }
        let body = try JSON(parsing: data)
        #expect(body["operationName"] == .string("One"))
        #expect(body["variables"]?["id"] == .string("7"))
        let unnamed = await executor.run("query @\(operations)")
        #expect(unnamed.outcome == .failed, "two operations and none named")
        #expect(transport.requests.count == 1)
    }

    @Test func anOperationIsSentAsABatch() async throws {
        let (executor, transport, file) = try await Self.executor(answer: #"{"data": {"users": []}}"#)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = await executor.run("{ users { id } } --repeat 6 -c 2")
        #expect(result.outcome == .succeeded, "\(result.outputs)")
        #expect(transport.requests.count == 6)
        #expect(
            transport.requests.allSatisfy { $0.method == .post && $0.headers[.authorization] == "Bearer t0ken-planted" }
        )
        #expect(await executor.run("validate strict").outcome == .succeeded)
        #expect(await executor.run("{ users { nme } } --repeat 6").outcome == .failed)
        #expect(transport.requests.count == 6, "a strict refusal sends none of the batch")
    }

    @Test func theSchemaBelongsToItsAPI() async throws {
        let (executor, transport, file) = try await Self.executor(answer: #"{"data": {"users": []}}"#)
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(await executor.run("base http://other.test").outcome == .succeeded)
        let elsewhere = await executor.run("{ users { id } }")
        #expect(elsewhere.outcome == .failed)
        #expect(transport.requests.isEmpty)
        #expect(await executor.run("base http://api.test").outcome == .succeeded)
        #expect(await executor.run("{ users { id } }").outcome == .succeeded)
    }

    @Test func lsAndDescribeReadTheSchema() async throws {
        let (executor, _, file) = try await Self.executor(answer: "{}")
        defer { try? FileManager.default.removeItem(atPath: file) }
        func listing(_ line: String) async -> Listing? {
            await executor.run(line).outputs.lazy.compactMap { if case .listing(let l) = $0 { l } else { nil } }.first
        }
        let root = await listing("ls")
        #expect(
            root?.items.map(\.name) == [
                "query user(id: ID!)", "query users(role: Role)", "mutation rename(id: ID!, name: String!)",
            ])
        let user = await listing("describe User")
        #expect(user?.items.map(\.name) == ["id", "name", "age", "role"])
        let field = await listing("describe Query.user")
        #expect(field?.items.map(\.name) == ["→", "id"])
        let role = await listing("describe Role")
        #expect(role?.items.map(\.name) == ["ADMIN", "MEMBER"])
        let unknown = await executor.run("describe Usr")
        #expect(unknown.outcome == .failed)
    }

    @Test func aSchemaFileThatIsNotOneIsOneLine() async throws {
        let (executor, _, file) = try await Self.executor(answer: "{}")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data("type Query { a: Nope }".utf8).write(to: URL(fileURLWithPath: file))
        let result = await executor.run("graphql /graphql --schema \(file)")
        #expect(result.outcome == .failed)
        guard case .failure(let failure)? = result.outputs.first, case .command(let error) = failure.reason else {
            Issue.record("\(result.outputs)")
            return
        }
        #expect(error.message.contains("is not a GraphQL schema"), "\(error.message)")
        #expect(error.message.contains("Nope"), "\(error.message)")
    }
}

@Suite struct GraphQLTextTests {
    @Test func whatStartsAnOperation() {
        for line in [
            "{ a }", "  {a}", "query { a }", "query Q { a }", "query Q($x: Int) { a }", "query($x: Int) { a }",
            "query Q @cached { a }", "mutation { a }", "subscription { a }", "query @ops.graphql", "query @a.gql Q",
        ] {
            #expect(GraphQLText.startsOperation(line), "\(line)")
        }
        for line in [
            "query", "query a=1", "query -a", "query name", "query @list.txt", "queryx { a }", "get /", "{{x}}",
            "query {{name}}=1",
        ] {
            #expect(!GraphQLText.startsOperation(line), "\(line)")
        }
    }

    @Test func theDocumentEndsWhereItsLastDefinitionCloses() {
        func split(_ text: String) -> (String, String) {
            let end = GraphQLText.documentEnd(text)
            return (String(text[..<end]), String(text[end...]))
        }
        #expect(split("{ a } id=1") == ("{ a }", " id=1"))
        #expect(
            split("query A { a } fragment F on Q { b } A x:=2") == ("query A { a } fragment F on Q { b }", " A x:=2"))
        #expect(split(#"{ a(s: "}") # }"# + "\n b } n={{x}}") == (#"{ a(s: "}") # }"# + "\n b }", " n={{x}}"))
        #expect(split(#"{ a(s: """ } """) }"#) == (#"{ a(s: """ } """) }"#, ""))
    }

    @Test func anOperationGoesOnOverLinesUntilItsBracesClose() {
        var assembler = LineAssembler()
        #expect(assembler.add("query User($id: ID!) {") == nil)
        #expect(assembler.add("  user(id: $id) { name } # } not this one") == nil)
        #expect(assembler.add("} id=1") == "query User($id: ID!) {\n  user(id: $id) { name } # } not this one\n} id=1")
        #expect(assembler.add("query a=1") == "query a=1")
        #expect(assembler.add("{ a }") == "{ a }")
    }
}

@Suite struct GraphQLCompletionTests {
    static let index: SchemaIndex = {
        let sdl = GraphQLTests.sdl + "\ndirective @cached(seconds: Int) on FIELD"
        return (try? GraphQLDescription(sdl: sdl))!.index
    }()

    func candidates(_ line: String) -> [String] {
        var values = SessionSnapshot.Values()
        values.graphQL = Self.index
        return Completer(values: values, listFiles: { _ in [] }).complete(line).candidates
    }

    @Test func theFieldsOfTheTypeAtTheCursor() {
        #expect(candidates("{ ") == ["user ", "users ", "__typename "])
        #expect(candidates("{ user(id: 1) { n") == ["name "])
        #expect(candidates("query Q { users { id ") == ["id ", "name ", "age ", "role ", "__typename "])
        #expect(candidates("mutation { re") == ["rename "])
        #expect(candidates("{ users { id } u") == ["user ", "users "])
    }

    @Test func argumentsValuesVariablesAndDirectives() {
        #expect(candidates("{ user(") == ["id: "])
        #expect(candidates("mutation { rename(id: 1, n") == ["name: "])
        #expect(candidates("{ users(role: ") == ["ADMIN ", "MEMBER "])
        #expect(candidates("{ users(role: M") == ["MEMBER "])
        #expect(candidates("query Q($id: ID!, $r: Role) { users(role: $") == ["$id ", "$r "])
        #expect(candidates("{ users @ca") == ["@cached "])
        #expect(candidates("{ users { ... on U") == ["User "])
        let earlier = "query A { users { ...Card } } fragment Card on User { id } query B { users { "
        #expect(candidates(earlier + "...C") == ["...Card "])
        #expect(candidates(earlier + "... ") == ["Card ", "on "])
    }

    @Test func aQueryItemLineIsNotAnOperation() {
        #expect(!candidates("query ").contains("user "))
    }
}
