import FathomJSON
import Foundation
import OpenAPIKit

/// OpenAPI 3.1's parts, decoded by OpenAPIKit (see ``StructureCheck30``).
enum StructureCheck31: StructureDecoding {
    static func problem(decoding json: Data) -> (path: [any CodingKey], message: String)? {
        firstProblem(decoding: OpenAPI.Document.self, from: json)
    }

    static func decodes(_ document: JSON) -> Bool {
        decodes(OpenAPI.Document.self, document)
    }
}

extension StructureDecoding {
    /// Whether `document` decodes as `type` over the tree, extensions off as below.
    static func decodes<Document: Decodable>(_ type: Document.Type, _ document: JSON) -> Bool {
        let decoder = TreeDecoder(userInfo: [VendorExtensionsConfiguration.enabledKey: false])
        return (try? decoder.decode(type, from: document)) != nil
    }

    /// The first problem OpenAPIKit meets decoding `json` as `document` (either version's
    /// `OpenAPI.Document`; both report the same `OpenAPI.Error`); `nil` when it decodes.
    static func firstProblem<Document: Decodable>(
        decoding document: Document.Type, from json: Data
    ) -> (path: [any CodingKey], message: String)? {
        let decoder = JSONDecoder()
        // Vendor extensions off: five sixths of OpenAPIKit's time, and Fathom reads the few it
        // wants from its own tree.
        decoder.userInfo = [VendorExtensionsConfiguration.enabledKey: false]
        do {
            _ = try decoder.decode(document, from: json)
            return nil
        } catch {
            let described = OpenAPI.Error(from: error)
            return (described.codingPath, described.localizedDescription)
        }
    }
}
