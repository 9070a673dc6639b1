import FathomJSON
import Foundation

/// Which JSON Schema a schema is written in.
public enum SchemaDialect: Sendable, Hashable {
    /// JSON Schema draft 4.
    case draft4
    /// OpenAPI 3.0's Schema Object: draft 4 with `nullable`, `readOnly`/`writeOnly` and
    /// `discriminator`.
    case openAPI30
    /// JSON Schema 2020-12, OpenAPI 3.1's Schema Object.
    case draft2020_12

    var idKeyword: String { self == .draft4 ? "id" : "$id" }
    /// Before 2019-09, `$ref` replaces the schema it sits in: its siblings are not read.
    var refOverridesSiblings: Bool { self != .draft2020_12 }
}

/// Validates JSON values against a JSON Schema, over FathomJSON values: every violation with the
/// JSONPath of the value that breaks it and what was expected there.
///
/// ```swift
/// let validator = SchemaValidator(schema: try JSON(parsing: schemaText), dialect: .draft2020_12)
/// for violation in validator.validate(try JSON(parsing: body)) { print(violation) }
/// // $.data[3].email: expected string, got null
/// ```
///
/// References resolve within the schema's document (JSON pointers, `$id`, `$anchor`,
/// `$dynamicRef`) and to the other `documents` given by URI; nothing is fetched.
public struct SchemaValidator: Sendable {
    /// How a value is checked.
    public struct Options: Sendable {
        /// Whether `format` is checked (date-time, email, uuid, uri, ipv4, ipv6…).
        ///
        /// JSON Schema 2020-12 makes it an annotation by default; API contracts mean it.
        public var assertFormats: Bool
        /// Which way the instance travels: a request ignores `readOnly` properties when checking
        /// `required`, a response `writeOnly` ones.
        public var direction: Direction?

        /// Options; formats asserted and no direction by default.
        public init(assertFormats: Bool = true, direction: Direction? = nil) {
            self.assertFormats = assertFormats
            self.direction = direction
        }
    }

    /// Which way an instance travels, for `readOnly` and `writeOnly`.
    public enum Direction: Sendable {
        case request
        case response
    }

    let registry: SchemaRegistry
    let root: JSON
    let base: String
    var options: Options

    /// - Parameters:
    ///   - schema: The schema, or the document that holds the schemas validated against (an
    ///     OpenAPI description, whose `#/components/schemas/…` references resolve within it).
    ///   - baseURI: The document's URI, against which relative references resolve.
    ///   - dialect: The JSON Schema the schemas are written in.
    ///   - documents: Other documents references may name, by absolute URI.
    ///   - options: How values are checked.
    public init(
        schema: JSON, baseURI: String = "", dialect: SchemaDialect, documents: [String: JSON] = [:],
        options: Options = Options()
    ) {
        self.root = schema
        self.base = baseURI
        self.options = options
        self.registry = SchemaRegistry(root: schema, base: baseURI, documents: documents, dialect: dialect)
    }

    /// The dialect the schema is read in.
    public var dialect: SchemaDialect { registry.dialect }

    /// The violations of `instance` against the root schema, or against `schema` (a schema within
    /// the document, whose references resolve against it); empty when it is valid.
    public func validate(_ instance: JSON, against schema: JSON? = nil) -> [SchemaViolation] {
        var violations: [SchemaViolation] = []
        var evaluation = SchemaEvaluation(validator: self, collect: true)
        _ = evaluation.evaluate(
            schema ?? root, base: SchemaURI.stripFragment(base), instance: instance, path: InstancePath(),
            scope: [SchemaURI.stripFragment(base)], depth: 0)
        violations = evaluation.violations
        return violations
    }

    /// Whether `instance` is valid; stops at the first violation.
    public func isValid(_ instance: JSON, against schema: JSON? = nil) -> Bool {
        var evaluation = SchemaEvaluation(validator: self, collect: false)
        return evaluation.evaluate(
            schema ?? root, base: SchemaURI.stripFragment(base), instance: instance, path: InstancePath(),
            scope: [SchemaURI.stripFragment(base)], depth: 0
        ).valid
    }
}
