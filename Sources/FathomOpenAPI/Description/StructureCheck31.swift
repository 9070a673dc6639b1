import Foundation
import OpenAPIKit

/// OpenAPI 3.1's parts, decoded by OpenAPIKit (see ``StructureCheck30``).
enum StructureCheck31: StructureDecoding {
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
