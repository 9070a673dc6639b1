@_spi(Fathom) import FathomJSON

/// A tool an agent calls (`fathom mcp`): its name, what it does, the JSON Schema of its input, and
/// what it may do, told truthfully (the Model Context Protocol's annotations). Every tool writes
/// the lines a person would type and runs them through the same executor, so its guards are the
/// prompt's: scoping, masking, validation, the read-only rule.
public struct AgentTool: Sendable {
    public let name: String
    public let title: String
    public let description: String
    /// The input's JSON Schema, as JSON text.
    public let inputSchema: String
    /// It changes nothing anywhere.
    public let readOnly: Bool
    /// It may change or delete what the server holds.
    public let destructive: Bool
    /// Calling it twice with the same input does no more than once.
    public let idempotent: Bool
    /// It reaches outside the session (a server).
    public let openWorld: Bool

    /// The output's JSON Schema, as JSON text: `ok`, and `outputs`, each one of the objects
    /// `--output json` prints (docs/output.schema.json).
    public static let outputSchema = """
        {"type": "object", "required": ["ok", "outputs"], "properties": {
          "ok": {"type": "boolean", "description": "false when the line failed or a check did not hold"},
          "outputs": {"type": "array", "description": "what the lines printed, as --output json prints it (docs/output.schema.json)",
            "items": {"type": "object", "required": ["type", "version"]}}}}
        """

    /// The tools, their annotations as this session allows (`allowWrites`).
    public static func all(allowWrites: Bool) -> [AgentTool] {
        let sends = { (name: String, title: String, description: String, schema: String) in
            AgentTool(
                name: name, title: title, description: description, inputSchema: schema, readOnly: !allowWrites,
                destructive: allowWrites, idempotent: !allowWrites, openWorld: true)
        }
        let reads = { (name: String, title: String, description: String, schema: String) in
            AgentTool(
                name: name, title: title, description: description, inputSchema: schema, readOnly: true,
                destructive: false, idempotent: true, openWorld: false)
        }
        let writeRule =
            allowWrites
            ? "Any method may be sent (the session was started with --allow-writes)."
            : "Only GET, HEAD and OPTIONS are sent: the session is read-only, and any other method is refused before anything is sent."
        return [
            sends(
                "send", "Send a request",
                """
                Send one HTTP request, as Fathom's one-liner (`get /users/1 page==2`). `url` is a path under \
                the session's base or a full URL. The API's own default headers and credentials are added by \
                Fathom for its origin only; you never see or send secrets. \(writeRule) The response is kept as \
                #N for inspect and expect, and checked against the API's description when one is loaded.
                """,
                """
                {"type": "object", "required": ["url"], "additionalProperties": false, "properties": {
                  "method": {"enum": ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"], "default": "GET"},
                  "url": {"type": "string", "description": "a path under the base (/users/1) or a full URL"},
                  "headers": {"type": "object", "additionalProperties": {"type": "string"}},
                  "query": {"type": "object", "additionalProperties": {"type": ["string", "number", "boolean"]}},
                  "body": {"type": "object", "description": "a JSON object: its members are the body's fields"}}}
                """),
            sends(
                "op", "Call an operation of the description",
                """
                Send the request for an operation of the loaded API description by its operationId \
                (`ls` lists them), its parameters by name: path, query and header parameters go where the \
                operation takes them, the rest into the JSON body. \(writeRule)
                """,
                """
                {"type": "object", "required": ["operationId"], "additionalProperties": false, "properties": {
                  "operationId": {"type": "string"},
                  "parameters": {"type": "object", "description": "name → value; a string as it is, anything else as JSON"}}}
                """),
            AgentTool(
                name: "graphql", title: "Run a GraphQL operation",
                description: """
                    Run a GraphQL query or mutation against the current API's GraphQL endpoint (`endpoint`, e.g. \
                    /graphql, sets it and loads its schema by introspection the first time). The operation is \
                    checked against the schema before it is sent and the response after. A query is always sent; \
                    \(allowWrites ? "a mutation too (--allow-writes)." : "a mutation only with --allow-writes, or when the person accepts.")
                    """,
                inputSchema: """
                    {"type": "object", "required": ["document"], "additionalProperties": false, "properties": {
                      "document": {"type": "string", "description": "the operation: { users { id name } }"},
                      "variables": {"type": "object"},
                      "operationName": {"type": "string", "description": "which operation, when the document has several"},
                      "endpoint": {"type": "string", "description": "the endpoint's path, when it is not set yet: /graphql"}}}
                    """, readOnly: !allowWrites, destructive: allowWrites, idempotent: !allowWrites, openWorld: true),
            sends(
                "call", "Call a gRPC method",
                """
                Call a method of the current API's gRPC services (loaded with `grpc HOST:PORT` in the setup; `ls` \
                lists them), the request as proto3 JSON; a client stream takes an array of messages. Fathom cannot \
                tell what a method changes: \(allowWrites ? "every call is sent (--allow-writes)." : "a read-only session asks the person before each call, or refuses it.")
                """,
                """
                {"type": "object", "required": ["method"], "additionalProperties": false, "properties": {
                  "method": {"type": "string", "description": "pkg.Service/Method, or a name only one method has"},
                  "request": {"type": ["object", "array"], "description": "the message as proto3 JSON; an array for a client stream"}}}
                """),
            reads(
                "ls", "List the description's paths",
                "The loaded description's paths and operations (operationIds), or those under `path`.",
                """
                {"type": "object", "additionalProperties": false, "properties": {
                  "path": {"type": "string", "description": "a path prefix: /users"}}}
                """),
            reads(
                "describe", "Describe an operation",
                "An operation of the description — its parameters, body, responses and security — by operationId or as `GET /users/{id}`.",
                """
                {"type": "object", "required": ["operation"], "additionalProperties": false, "properties": {
                  "operation": {"type": "string", "description": "an operationId, or METHOD PATH"}}}
                """),
            reads(
                "inspect", "Query a response",
                "A JSONPath over response #N (the last when `response` is not given): `$.items[0].id`, `$..name`.",
                """
                {"type": "object", "required": ["expression"], "additionalProperties": false, "properties": {
                  "expression": {"type": "string"},
                  "response": {"type": "integer", "minimum": 1}}}
                """),
            reads(
                "expect", "Check the last response",
                """
                A check on the last response, as a Fathom `expect` line reads it: `status 200`, `$.id == 2`, \
                `header Content-Type contains json`, `time < 500ms`, `schema`. It is kept in the transcript, so \
                a replay checks it again.
                """,
                """
                {"type": "object", "required": ["check"], "additionalProperties": false, "properties": {
                  "check": {"type": "string", "description": "what follows `expect`: status 200, $.name == \\"Ada\\""}}}
                """),
            reads(
                "responses", "List the responses", "The numbered responses of the session so far: #1, #2, …",
                #"{"type": "object", "additionalProperties": false, "properties": {}}"#),
            reads(
                "save", "Write the transcript",
                """
                Write the session so far as a Fathom session file (the transcript, which is also written \
                after every call): `fathom replay FILE` runs the same requests and checks. Never a secret's value.
                """,
                #"{"type": "object", "additionalProperties": false, "properties": {}}"#),
        ]
    }
}

/// What a tool call answers: a short text, the objects `--output json` prints, and whether it failed.
public struct AgentAnswer: Sendable {
    /// What the lines printed at a terminal without colors, masked.
    public var text: String
    /// `{"ok": …, "outputs": [...]}` as JSON text, masked.
    public var structured: String
    public var isError: Bool
}

extension AgentTool {
    /// The tools as docs/mcp-tools.json publishes them: for a read-only session and with
    /// `--allow-writes` (only `send` and `op`'s annotations differ), each with its schemas.
    static func published() -> String {
        func tools(_ allowWrites: Bool) -> JSON {
            .array(
                all(allowWrites: allowWrites).map { tool in
                    .object([
                        JSON.Member(key: "name", value: .string(tool.name)),
                        JSON.Member(key: "title", value: .string(tool.title)),
                        JSON.Member(key: "description", value: .string(tool.description)),
                        JSON.Member(key: "inputSchema", value: (try? JSON(parsing: tool.inputSchema)) ?? .null),
                        JSON.Member(key: "outputSchema", value: (try? JSON(parsing: outputSchema)) ?? .null),
                        JSON.Member(
                            key: "annotations",
                            value: .object([
                                JSON.Member(key: "readOnlyHint", value: .bool(tool.readOnly)),
                                JSON.Member(key: "destructiveHint", value: .bool(tool.destructive)),
                                JSON.Member(key: "idempotentHint", value: .bool(tool.idempotent)),
                                JSON.Member(key: "openWorldHint", value: .bool(tool.openWorld)),
                            ])),
                    ])
                })
        }
        return JSON.object([
            JSON.Member(
                key: "description",
                value: .string(
                    "The tools `fathom mcp` serves (tools/list), generated from FathomREPL's AgentTool; results carry {ok, outputs} with each output as docs/output.schema.json describes it."
                )),
            JSON.Member(key: "readOnly", value: tools(false)),
            JSON.Member(key: "allowWrites", value: tools(true)),
        ]).formatted(.pretty)
    }
}

/// A prompt template an MCP client offers its person: what to ask the agent to do with the tools.
public struct AgentPrompt: Sendable {
    public let name: String
    public let title: String
    public let description: String
    /// The one argument it takes, when it takes one.
    public let argument: (name: String, description: String)?
    let template: @Sendable (String?) -> String

    /// The prompt's text, `value` its argument's.
    public func text(_ value: String?) -> String { template(value) }

    public static let all = [
        AgentPrompt(
            name: "explore", title: "Explore this API",
            description: "Find out what the API offers and how it answers, read-only, leaving a replayable file.",
            argument: ("goal", "what to find out (optional)")
        ) { goal in
            """
            Explore the API this Fathom session points at\(goal.map { ", to find out: \($0)" } ?? ""). Start with `ls` \
            (and `describe` an operation) when a description is loaded, else with `send` of the paths you can \
            guess. After each request that matters, `expect` what you learned (its status, a field's value) so the \
            transcript checks it on every replay. Use `inspect` to read parts of long responses. Never put a \
            credential in an argument: the session adds its API's own. End with `save` and say where the file is.
            """
        },
        AgentPrompt(
            name: "regression", title: "Write a regression file",
            description:
                "Turn what this session did into a file of requests and checks that `fathom replay` runs in CI.",
            argument: nil
        ) { _ in
            """
            Write a regression test of this API with Fathom: for each operation worth keeping, `send` (or `op`) \
            the request and follow it with `expect` lines for its status and the fields a client relies on \
            (`$.id == 2`, `$.items.length() > 0`), not for values that change on every call. Check `responses` \
            for what has been sent. Finish with `save`: the transcript is the test, run with `fathom replay FILE` \
            (add --junit report.xml in CI).
            """
        },
    ]
}
