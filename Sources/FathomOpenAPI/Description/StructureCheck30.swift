import FathomJSON
import Foundation
import OpenAPIKit30

/// OpenAPI 3.0's parts, decoded by OpenAPIKit30 (3.0 and 3.1 are types of the same names in two
/// modules, so each has its own file; ``StructureCheck`` walks them).
enum StructureCheck30: StructureDecoding {
    static func problem(decoding json: Data) -> (path: [any CodingKey], message: String)? {
        firstProblem(decoding: OpenAPI.Document.self, from: json)
    }

    static func decodes(_ document: JSON) -> Bool {
        decodes(OpenAPI.Document.self, document)
    }
}
