import Foundation
import OpenAPIKit

/// OpenAPI 3.1's structure, checked by OpenAPIKit's decoder (see ``StructureCheck30``).
enum StructureCheck31 {
    static func problem(in json: Data) -> String? {
        let decoder = JSONDecoder()
        decoder.userInfo = [VendorExtensionsConfiguration.enabledKey: false]
        do {
            _ = try decoder.decode(OpenAPI.Document.self, from: json)
            return nil
        } catch {
            let described = OpenAPI.Error(from: error)
            return StructureProblem.line(path: described.codingPath, message: described.localizedDescription)
        }
    }
}
