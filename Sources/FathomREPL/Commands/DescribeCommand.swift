import FathomHTTP
@_spi(Fathom) import FathomJSON
import FathomOpenAPI

/// `describe [METHOD PATH | OPERATION_ID]`: an operation as the description states it — summary,
/// parameters, request body, responses by status, security. The draft's operation by default.
struct DescribeCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "describe", synopsis: "describe [METHOD PATH | OPERATION_ID]",
        summary: "show an operation: parameters, body and response schemas, security (the draft's by default)",
        completion: .operationIDs, group: .api)

    enum Subject: Equatable {
        case draft
        case route(method: String, path: String)
        case id(String)
    }

    var subject: Subject

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        guard let first = try arguments.optionalWord() else { return DescribeCommand(subject: .draft) }
        if let path = try arguments.optionalWord() {
            try arguments.end()
            return DescribeCommand(subject: .route(method: try CommandParser.method(first).rawValue, path: path.text))
        }
        return DescribeCommand(subject: .id(first.text))
    }

    var logKind: SessionLog.Kind? { nil }

    var line: String {
        var writer = LineWriter("describe")
        switch subject {
        case .draft: break
        case .route(let method, let path):
            writer.word(method)
            writer.word(path)
        case .id(let id): writer.word(id)
        }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        if case .id(let name) = subject, let explorer = executor.graphQLExplorer(describing: name) {
            return .shows(.listing(try explorer.describe(name)))
        }
        if case .id(let name) = subject, (try? executor.requireSpec()) == nil, let explorer = executor.grpcExplorer() {
            return .shows(.listing(try explorer.describe(name)))
        }
        let description = try executor.requireSpec().description
        let operation: APIOperation
        switch subject {
        case .id(let id):
            operation = try Self.operation(id: id, in: description)
        case .route(let method, let path):
            let relative = description.relativePath(path, basePath: executor.session.basePath)
            guard let found = description.operation(method: method, path: relative) else {
                throw CommandError(
                    .session, "the description has no operation for \(method) \(path)", hint: "`ls` lists them")
            }
            operation = found
        case .draft:
            operation = try executor.draftOperation(hint: "`describe OPERATION_ID` or `describe METHOD PATH`")
        }
        return .shows(.operation(OperationDetail(operation, in: description)))
    }

    /// The operation with this id, or an error naming the closest one.
    static func operation(id: String, in description: APIDescription) throws(CommandError) -> APIOperation {
        if let found = description.operation(id: id) { return found }
        throw CommandError(
            .session,
            .notFound(
                kind: "operation", name: id, suggestion: Spelling.closest(to: id, among: description.operationIDs)),
            hint: "`ls` lists the operations")
    }
}

/// An operation laid out for `describe`: schemas already in their compact form.
struct OperationDetail: Sendable {
    struct Parameter: Sendable {
        var location: String
        var name: String
        var required: Bool
        var type: String
        var defaultValue: String?
        var description: String?
        var deprecated: Bool
    }

    struct Content: Sendable {
        var mediaType: String
        var schema: String
    }

    struct Response: Sendable {
        var status: String
        var description: String?
        var content: [Content]
    }

    var title: String
    var operationID: String?
    var summary: String?
    var description: String?
    var deprecated: Bool
    var parameters: [Parameter]
    var bodyRequired: Bool
    var body: [Content]
    var responses: [Response]
    var security: [[String]]?

    init(_ operation: APIOperation, in api: APIDescription) {
        title = operation.title
        operationID = operation.operationID
        summary = operation.summary
        description = operation.description
        deprecated = operation.deprecated
        parameters = operation.parameters.map { parameter in
            Parameter(
                location: parameter.location.rawValue, name: parameter.name, required: parameter.required,
                type: api.summary(of: parameter.schema),
                defaultValue: parameter.schema.flatMap { api.resolvedDefault($0) },
                description: parameter.description, deprecated: parameter.deprecated)
        }
        bodyRequired = operation.requestBody?.required ?? false
        body = (operation.requestBody?.content ?? []).map {
            Content(mediaType: $0.name, schema: api.summary(of: $0.schema))
        }
        responses = operation.responses.map { response in
            Response(
                status: response.status, description: response.description,
                content: response.content.map { Content(mediaType: $0.name, schema: api.summary(of: $0.schema)) })
        }
        security = operation.security
    }
}
