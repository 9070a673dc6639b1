import Foundation
import OpenAPIKit

/// OpenAPI 3.1's structure, checked by OpenAPIKit's decoder (see ``StructureCheck30``).
enum StructureCheck31 {
    static func problem(in json: Data) -> String? {
        StructureProblem.decoding(
            OpenAPI.Document.self, from: json, vendorExtensions: VendorExtensionsConfiguration.enabledKey
        ) { error in
            let described = OpenAPI.Error(from: error)
            return (described.codingPath, described.localizedDescription)
        }
    }
}
