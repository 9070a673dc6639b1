import Foundation
import OpenAPIKit30

/// OpenAPI 3.0's parts, decoded by OpenAPIKit30 (3.0 and 3.1 are types of the same names in two
/// modules, so each has its own file; ``StructureCheck`` walks them).
enum StructureCheck30: StructureDecoding {
    static func problem(decoding json: Data) -> (path: [any CodingKey], message: String)? {
        let decoder = JSONDecoder()
        // Vendor extensions off: five sixths of OpenAPIKit's time, and Fathom reads the few it
        // wants from its own tree.
        decoder.userInfo = [VendorExtensionsConfiguration.enabledKey: false]
        do {
            _ = try decoder.decode(OpenAPI.Document.self, from: json)
            return nil
        } catch {
            let described = OpenAPI.Error(from: error)
            return (described.codingPath, described.localizedDescription)
        }
    }
}
