import Foundation
import OpenAPIKit30

/// OpenAPI 3.0's structure, checked by OpenAPIKit's decoder (vendor extensions off: they are five
/// sixths of its time, and Fathom reads the few it wants from its own tree).
enum StructureCheck30 {
    /// The first structural problem, as `paths./pets.get.responses: …`, or `nil`.
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
