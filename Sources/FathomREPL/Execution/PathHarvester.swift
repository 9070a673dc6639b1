@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// Finds paths worth completing in a response: `Location`, `Link` targets, and string values in
/// a JSON body that are paths (`/users/2`) or URLs on the base URL's origin.
enum PathHarvester {
    static let limit = 200

    /// Whether a response's body is worth walking: JSON, and no larger than 1 MiB.
    static func harvests(_ response: NetworkResponse<Data>) -> Bool {
        MediaType.isJSON(response.contentType) && response.body.count <= 1 << 20
    }

    /// - Parameter json: The body parsed, when ``harvests(_:)`` says it is worth it (the
    ///   executor's parse, which `expect` and `let` then reuse).
    static func paths(in response: NetworkResponse<Data>, base: String?, json: () -> JSON?) -> [String] {
        var found: [String] = []
        let origin = base.flatMap { try? RequestURL(parsing: $0) } ?? response.url
        func consider(_ text: String) {
            guard found.count < limit, text.count < 300 else { return }
            if text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains(" ") {
                found.append(text)
            } else if text.hasPrefix("http"), let url = try? RequestURL(parsing: text), url.isSameOrigin(as: origin) {
                found.append(url.pathAndQuery)
            }
        }
        if let location = response.headers[.location] { consider(location) }
        for link in response.headers.values(for: .link) {
            for part in link.split(separator: ",") {
                if let open = part.firstIndex(of: "<"), let close = part.firstIndex(of: ">"), open < close {
                    consider(String(part[part.index(after: open)..<close]))
                }
            }
        }
        if let document = json() { walk(document, consider) }
        return found
    }

    private static func walk(_ value: JSON, _ consider: (String) -> Void) {
        switch value {
        case .string(let text): consider(text)
        case .array(let items):
            for item in items { walk(item, consider) }
        case .object(let members):
            for member in members { walk(member.value, consider) }
        default: break
        }
    }
}
