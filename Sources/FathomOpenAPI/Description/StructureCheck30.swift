import Foundation
import OpenAPIKit30

/// OpenAPI 3.0's structure, checked by OpenAPIKit's decoder (the 3.0 and 3.1 documents are
/// types of the same name in two modules, so each has its own file; ``StructureProblem`` does the rest).
enum StructureCheck30 {
    /// The first structural problem, as `paths./pets.get.responses: …`, or `nil`.
    static func problem(in json: Data) -> String? {
        StructureProblem.decoding(
            OpenAPI.Document.self, from: json, vendorExtensions: VendorExtensionsConfiguration.enabledKey
        ) { error in
            let described = OpenAPI.Error(from: error)
            return (described.codingPath, described.localizedDescription)
        }
    }
}
