// swift-tools-version: 6.1
// A package outside Fathom's own targets that depends on FathomHTTP as a user's package would (by
// path here; by URL and version in yours), and runs the README's example. The end-to-end suite
// builds and runs it against the demo API.
import PackageDescription

let package = Package(
    name: "ReadmeExample",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Fathom", path: "../..")],
    targets: [
        .executableTarget(
            name: "readme-example",
            dependencies: [.product(name: "FathomHTTP", package: "Fathom")]
        )
    ]
)
