import Foundation

/// The external test suites, copied into the repository under `Tests/Corpora` (see its README):
/// one place that finds them for every test target.
public enum TestCorpora {
    /// `FATHOM_CORPORA`, else `Tests/Corpora` in this repository.
    public static let root: URL = {
        if let override = ProcessInfo.processInfo.environment["FATHOM_CORPORA"] {
            return URL(fileURLWithPath: override)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpora")
    }()

    /// One suite's folder: `folder("openapi")`, `folder("har/har-schema/lib")`.
    public static func folder(_ path: String) -> URL { root.appendingPathComponent(path) }
}
