@_spi(Fathom) import FathomJSON
import GraphQL

/// An operation document and the operation in it that is sent: what a GraphQL request carries
/// (`{"query", "variables", "operationName"}`) and what its response is checked against.
public struct GraphQLOperation: @unchecked Sendable {
    /// The document as written.
    public let text: String
    /// The operation's name, when it has one or one was chosen among several.
    public let operationName: String?
    /// Whether it reads, writes or listens.
    public let kind: OperationKind
    /// The names of every operation in the document, in order (`nil` for an anonymous one).
    public let operationNames: [String?]

    // GraphQLSwift's AST is immutable once parsed; it is read, never changed, after `init`.
    let document: Document
    let operation: OperationDefinition
    let fragments: [String: FragmentDefinition]

    /// Parses `text` and picks the operation named `operationName`, or the only one.
    public init(_ text: String, operationName: String? = nil) throws(GraphQLProblems) {
        if NestingBound.exceeds(text) {
            throw GraphQLProblems([
                GraphQLProblem(
                    message: "the operation nests deeper than \(NestingBound.limit) levels", line: nil, column: nil)
            ])
        }
        let document: Document
        do {
            document = try parse(source: Source(body: text, name: "operation"))
        } catch let error as GraphQLError {
            throw GraphQLProblems([GraphQLProblem(syntax: error)])
        } catch {
            throw GraphQLProblems([GraphQLProblem(message: "\(error)", line: nil, column: nil)])
        }
        let operations = document.definitions.compactMap { $0 as? OperationDefinition }
        var fragments: [String: FragmentDefinition] = [:]
        for case let fragment as FragmentDefinition in document.definitions {
            fragments[fragment.name.value] = fragments[fragment.name.value] ?? fragment
        }
        let chosen: OperationDefinition
        if let operationName {
            guard let named = operations.first(where: { $0.name?.value == operationName }) else {
                let names = operations.compactMap { $0.name?.value }
                let suggestion = Spelling.closest(to: operationName, among: names).map { " (did you mean '\($0)'?)" }
                throw GraphQLProblems([
                    GraphQLProblem(
                        message: "the document has no operation named '\(operationName)'\(suggestion ?? "")",
                        line: nil, column: nil)
                ])
            }
            chosen = named
        } else {
            guard let only = operations.first else {
                throw GraphQLProblems([GraphQLProblem(message: "the document has no operation", line: nil, column: nil)]
                )
            }
            guard operations.count == 1 else {
                let names = operations.map { $0.name?.value ?? "(anonymous)" }.joined(separator: ", ")
                throw GraphQLProblems([
                    GraphQLProblem(
                        message: "the document has \(operations.count) operations (\(names)): name the one to send",
                        line: nil, column: nil)
                ])
            }
            chosen = only
        }
        self.text = text
        self.operationName = operationName ?? chosen.name?.value
        self.kind = OperationKind(rawValue: chosen.operation.rawValue) ?? .query
        self.operationNames = operations.map { $0.name?.value }
        self.document = document
        self.operation = chosen
        self.fragments = fragments
    }

    /// The names of the variables the chosen operation declares, with their types as written.
    public var variables: [(name: String, type: String)] {
        operation.variableDefinitions.map { ($0.variable.name.value, print(ast: $0.type)) }
    }

    /// The request body: `{"query": …, "variables": …, "operationName": …}` (variables and the
    /// name only when there are any).
    public func body(variables: [JSON.Member]) -> JSON {
        var members = [JSON.Member(key: "query", value: .string(text))]
        if !variables.isEmpty { members.append(JSON.Member(key: "variables", value: .object(variables))) }
        if let operationName, operationNames.count > 1 || operation.name != nil {
            members.append(JSON.Member(key: "operationName", value: .string(operationName)))
        }
        return .object(members)
    }
}

/// One thing wrong with an operation: a syntax error, a rule of the specification's section 5
/// it breaks, or a name it cannot be sent by; where in the document, when known.
public struct GraphQLProblem: Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, with the closest name when a name is misspelt.
    public let message: String
    /// Where in the document (from 1), when known.
    public let line: Int?
    /// The column on that line (from 1), when known.
    public let column: Int?

    /// A problem at `line`:`column`.
    public init(message: String, line: Int?, column: Int?) {
        self.message = message
        self.line = line
        self.column = column
    }

    init(_ error: GraphQLError) {
        self.init(message: error.message, line: error.locations.first?.line, column: error.locations.first?.column)
    }

    /// A syntax error: GraphQLSwift's message without the source it quotes after it.
    init(syntax error: GraphQLError) {
        var message = error.message
        if let cut = message.range(of: "\n\n") { message = String(message[..<cut.lowerBound]) }
        // "Syntax Error operation (1:5) Expected Name, found }" → "syntax error: Expected Name, found }"
        if message.hasPrefix("Syntax Error"), let close = message.firstIndex(of: ")") {
            message = "syntax error: " + message[message.index(after: close)...].drop { $0 == " " }
        }
        self.init(message: message, line: error.locations.first?.line, column: error.locations.first?.column)
    }

    /// The problem in one line: `3:7 Cannot query field "nme" on type "User". Did you mean "name"?`.
    public var description: String {
        guard let line, let column else { return message }
        return "\(line):\(column) \(message)"
    }
}

/// The problems that stop an operation from being read or sent.
public struct GraphQLProblems: Error, Sendable, Equatable {
    /// Each problem, in the document's order.
    public let problems: [GraphQLProblem]

    /// The problems of one document.
    public init(_ problems: [GraphQLProblem]) {
        self.problems = problems
    }
}
