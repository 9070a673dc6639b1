import FathomOpenAPI
import Foundation

/// A loaded API description. What the session learns against it — the operations called, what
/// its structure check found — is in the ``SessionRecord``, by ``id``.
struct LoadedSpec: Equatable, Sendable {
    var description: APIDescription
    /// The file or URL as given (`spec FILE|URL`).
    var source: String
    /// This load: its coverage and structure findings are kept by this.
    var id = UUID()

    /// The same load of the same description.
    static func == (a: LoadedSpec, b: LoadedSpec) -> Bool {
        a.id == b.id && a.source == b.source && a.description.title == b.description.title
            && a.description.version == b.description.version
            && a.description.operations.count == b.description.operations.count
    }
}

/// How requests are checked against the description before they go.
enum ValidationMode: String, Sendable, CaseIterable {
    /// Problems are warnings; the request is sent.
    case warn
    /// A request with a problem is not sent.
    case strict
    /// Requests and responses are not checked.
    case off
}

/// A response checked against its operation.
struct SchemaCheck: Sendable {
    /// `GET /pets/{petId}`, or `nil` when the description has no operation for the request.
    var operation: String?
    var violations: [SchemaViolation]

    var passed: Bool { operation != nil && violations.isEmpty }
}
