import FathomGraphQL
import Foundation

/// An API's GraphQL endpoint (`graphql [PATH]`): where its operations are POSTed, and the
/// schema they are checked against. It belongs to the API, as a description does: an operation
/// to another origin is neither sent to it nor checked by it.
struct GraphQLEndpoint: Equatable, Sendable {
    /// The endpoint's path on the API's origin (`/graphql`), as written.
    var path: String
    /// The schema, when one is loaded (by introspection, or from a file).
    var schema: LoadedGraphQLSchema?
}

/// A loaded GraphQL schema and where it came from.
struct LoadedGraphQLSchema: Equatable, Sendable {
    var description: GraphQLDescription
    /// The file as given (`--schema FILE`), or the endpoint's URL when it came by introspection.
    var source: String
    /// This load.
    var id = UUID()

    static func == (a: LoadedGraphQLSchema, b: LoadedGraphQLSchema) -> Bool { a.id == b.id && a.source == b.source }
}

/// What `graphql` says is loaded: the endpoint, where the schema came from, and how many of each.
struct GraphQLSummary: Sendable, Equatable {
    var endpoint: String
    var source: String?
    var counts: GraphQLDescription.Counts?

    init(_ endpoint: GraphQLEndpoint, url: String) {
        self.endpoint = url
        source = endpoint.schema?.source
        counts = endpoint.schema?.description.counts
    }
}
