import FathomJSON
import Foundation
import GraphQL

/// A GraphQL API's schema, read from SDL or from the result of the introspection query: what
/// operations are checked against before they go (every validation rule of the
/// specification's section 5) and responses after (their `data` against the selection's types).
///
/// ```swift
/// let schema = try GraphQLDescription(sdl: "type Query { user(id: ID!): User } type User { name: String! }")
/// let operation = try GraphQLOperation("{ user(id: 1) { nme } }")
/// schema.validate(operation)   // [1:20 Cannot query field "nme" on type "User". Did you mean "name"?]
/// ```
public struct GraphQLDescription: Sendable {
    /// Its types as plain values, read from the SDL's definitions: ready as soon as it parses.
    public let index: SchemaIndex
    /// The schema as SDL: the file's text, or what the introspection result was written as.
    public let sdl: String
    /// GraphQLSwift's schema, which validation needs: built once, when first needed or when
    /// ``build()`` is called (off the line, for a large schema).
    private let built: BuiltSchema

    /// A schema from SDL (a `.graphql` file's text), built and checked whole: a schema that is
    /// not valid is an error here.
    ///
    /// With `deferringBuild`, it is only parsed and indexed: listing, describing, completion and
    /// response checks work at once, and the rest — GraphQLSwift's build and the schema's own
    /// checks, most of a large schema's load — happens in ``build()``, which validation calls
    /// when it has not run yet (a schema that is not valid then says so in every validation).
    public init(sdl: String, deferringBuild: Bool = false) throws(GraphQLSchemaError) {
        if NestingBound.exceeds(sdl) {
            throw GraphQLSchemaError("the schema nests deeper than \(NestingBound.limit) levels")
        }
        self.sdl = sdl
        if deferringBuild, let definitions = SDLScanner.definitions(sdl) {
            // Indexed straight from the text; GraphQLSwift parses and builds it when first needed.
            index = SchemaIndex(definitions: definitions)
            built = BuiltSchema(text: sdl)
        } else {
            let document: Document
            do {
                document = try parse(source: Source(body: sdl, name: "schema"))
            } catch let error as GraphQLError {
                throw GraphQLSchemaError(GraphQLProblem(syntax: error).description)
            } catch {
                throw GraphQLSchemaError("\(error)")
            }
            index = SchemaIndex(document)
            built = BuiltSchema(document)
        }
        guard index.query != nil else { throw GraphQLSchemaError("the schema has no query type") }
        if !deferringBuild { try build() }
    }

    /// Builds GraphQLSwift's schema and checks it, if that has not happened yet.
    /// - Throws: ``GraphQLSchemaError`` when the schema is not valid (then every validation says so).
    public func build() throws(GraphQLSchemaError) {
        _ = try built.schema()
    }

    /// A schema from the result of the introspection query (one of ``introspectionQueries``), as a
    /// server answers it or as a `.json` file saves it.
    public init(introspection result: JSON, deferringBuild: Bool = false) throws(GraphQLSchemaError) {
        try self.init(sdl: SDLWriter.sdl(fromIntrospection: result), deferringBuild: deferringBuild)
    }

    /// GraphQLSwift's schema (built if it was not yet), for tests that execute against it.
    func graphQLSwiftSchema() throws(GraphQLSchemaError) -> GraphQLSchema { try built.schema() }

    /// The introspection query, in one of three forms.
    ///
    /// Every form asks for every type with its fields, arguments, enum values, input fields,
    /// interfaces and possible types, the directives, descriptions and deprecations. `modern` also asks what servers since graphql-js 15 (2020) answer — the schema's
    /// description, `specifiedByURL`, `isRepeatable`; `oneOf` whether an input object is `@oneOf`
    /// (graphql-js 16.9, 2024). A server that refuses one is asked the next of
    /// ``introspectionQueries``, down to the form every implementation answers.
    public static func introspectionQuery(modern: Bool, oneOf: Bool = false) -> String {
        """
        query IntrospectionQuery {
          __schema {
            \(modern ? "description " : "")queryType { name }
            mutationType { name }
            subscriptionType { name }
            types { ...FullType }
            directives { name description \(modern ? "isRepeatable " : "")locations args { ...InputValue } }
          }
        }
        fragment FullType on __Type {
          kind name description\(modern ? " specifiedByURL" : "")\(oneOf ? " isOneOf" : "")
          fields(includeDeprecated: true) {
            name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason
          }
          inputFields { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
          possibleTypes { ...TypeRef }
        }
        fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
        fragment TypeRef on __Type {
          kind name
          ofType { kind name ofType { kind name ofType { kind name ofType { kind name
            ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }
        }
        """
    }

    /// The introspection queries to try, in order: the modern one, then the one every server answers.
    public static let introspectionQueries = [
        introspectionQuery(modern: true, oneOf: true), introspectionQuery(modern: true),
        introspectionQuery(modern: false),
    ]

    /// How many of each a schema has, as `graphql` says them.
    public struct Counts: Sendable, Equatable {
        /// Named types, not counting the built-in scalars and the introspection types.
        public var types: Int
        /// The query type's fields.
        public var queries: Int
        /// The mutation type's fields.
        public var mutations: Int
        /// The subscription type's fields.
        public var subscriptions: Int
    }

    /// How many types and root fields the schema has.
    public var counts: Counts {
        let builtIn: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
        return Counts(
            types: index.types.keys.filter { !$0.hasPrefix("__") && !builtIn.contains($0) }.count,
            queries: index.root(.query)?.fields.count ?? 0, mutations: index.root(.mutation)?.fields.count ?? 0,
            subscriptions: index.root(.subscription)?.fields.count ?? 0)
    }

    /// The schema printed as GraphQLSwift prints it (types in its order; built-in ones left out),
    /// or why it cannot be built.
    public var printed: String {
        do {
            return printSchema(schema: try built.schema())
        } catch {
            return "# \(error.description)"
        }
    }

    /// Every rule of the specification's section 5 `operation` breaks against this schema, with
    /// did-you-mean for names; empty when it may be sent.
    public func validate(_ operation: GraphQLOperation) -> [GraphQLProblem] {
        do {
            return GraphQL.validate(schema: try built.schema(), ast: operation.document).map { GraphQLProblem($0) }
        } catch {
            return [GraphQLProblem(message: error.description, line: nil, column: nil)]
        }
    }

    /// What in `response` (a GraphQL response: `data`, `errors`) does not fit the types the
    /// operation selects.
    public func check(_ response: JSON, for operation: GraphQLOperation) -> [GraphQLViolation] {
        ResponseChecker(index: index, operation: operation).check(response)
    }
}

/// GraphQLSwift's schema for a parsed document, built once by whichever caller needs it first.
private final class BuiltSchema: @unchecked Sendable {
    // Guarded by `lock`; the document and the schema are immutable once made.
    private let lock = NSLock()
    private let document: Document?
    private let text: String?
    private var result: Result<GraphQLSchema, GraphQLSchemaError>?

    /// A document already parsed.
    init(_ document: Document) {
        self.document = document
        text = nil
    }

    /// A document parsed when first needed.
    init(text: String) {
        document = nil
        self.text = text
    }

    func schema() throws(GraphQLSchemaError) -> GraphQLSchema {
        lock.lock()
        defer { lock.unlock() }
        if result == nil { result = Self.build(document, text: text) }
        return try result!.get()
    }

    private static func build(_ given: Document?, text: String?) -> Result<GraphQLSchema, GraphQLSchemaError> {
        let document: Document
        if let given {
            document = given
        } else {
            do {
                document = try parse(source: Source(body: text ?? "", name: "schema"))
            } catch let error as GraphQLError {
                return .failure(GraphQLSchemaError(GraphQLProblem(syntax: error).description))
            } catch {
                return .failure(GraphQLSchemaError("\(error)"))
            }
        }
        let schema: GraphQLSchema
        do {
            schema = try buildASTSchema(documentAST: document)
        } catch let error as GraphQLError {
            return .failure(GraphQLSchemaError("the schema is not valid: \(GraphQLProblem(error))"))
        } catch {
            return .failure(GraphQLSchemaError("the schema is not valid: \(error)"))
        }
        if let first = validateSchema(schema: schema).first {
            return .failure(GraphQLSchemaError("the schema is not valid: \(GraphQLProblem(first))"))
        }
        return .success(schema)
    }
}
