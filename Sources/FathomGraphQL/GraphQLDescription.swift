import FathomJSON
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
public struct GraphQLDescription: @unchecked Sendable {
    /// The schema as GraphQLSwift builds it: immutable once built, read by validation only.
    let schema: GraphQLSchema
    /// Its types as plain values.
    public let index: SchemaIndex
    /// The schema as SDL: the file's text, or what the introspection result was written as.
    public let sdl: String

    /// A schema from SDL (a `.graphql` file's text).
    public init(sdl: String) throws(GraphQLSchemaError) {
        if NestingBound.exceeds(sdl) {
            throw GraphQLSchemaError("the schema nests deeper than \(NestingBound.limit) levels")
        }
        let schema: GraphQLSchema
        do {
            schema = try buildSchema(source: Source(body: sdl, name: "schema"))
        } catch let error as GraphQLError {
            throw GraphQLSchemaError(GraphQLProblem(syntax: error).description)
        } catch {
            throw GraphQLSchemaError("\(error)")
        }
        let problems = validateSchema(schema: schema)
        if let first = problems.first {
            throw GraphQLSchemaError("the schema is not valid: \(GraphQLProblem(first))")
        }
        do {
            index = try SchemaIndex(schema)
        } catch {
            throw GraphQLSchemaError("the schema is not valid: \(error)")
        }
        self.schema = schema
        self.sdl = sdl
    }

    /// A schema from the result of the introspection query (``introspectionQuery``), as a
    /// server answers it or as a `.json` file saves it.
    public init(introspection result: JSON) throws(GraphQLSchemaError) {
        try self.init(sdl: SDLWriter.sdl(fromIntrospection: result))
    }

    /// The introspection query: every type with its fields, arguments, enum values, input
    /// fields, interfaces and possible types, the directives, descriptions and deprecations.
    /// `modern` also asks what servers since graphql-js 15 (2020) answer — the schema's
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
        public var queries: Int
        public var mutations: Int
        public var subscriptions: Int
    }

    public var counts: Counts {
        let builtIn: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
        return Counts(
            types: index.types.keys.filter { !$0.hasPrefix("__") && !builtIn.contains($0) }.count,
            queries: index.root(.query)?.fields.count ?? 0, mutations: index.root(.mutation)?.fields.count ?? 0,
            subscriptions: index.root(.subscription)?.fields.count ?? 0)
    }

    /// The schema printed as GraphQLSwift prints it (types in its order; built-in ones left out).
    public var printed: String { printSchema(schema: schema) }

    /// Every rule of the specification's section 5 `operation` breaks against this schema, with
    /// did-you-mean for names; empty when it may be sent.
    public func validate(_ operation: GraphQLOperation) -> [GraphQLProblem] {
        GraphQL.validate(schema: schema, ast: operation.document).map { GraphQLProblem($0) }
    }

    /// What in `response` (a GraphQL response: `data`, `errors`) does not fit the types the
    /// operation selects.
    public func check(_ response: JSON, for operation: GraphQLOperation) -> [GraphQLViolation] {
        ResponseChecker(index: index, operation: operation).check(response)
    }
}
