// swift-tools-version: 6.1
// Fuzz targets for Fathom's parsers, built with libFuzzer and AddressSanitizer by `make fuzz`
// (a package of its own, so the main build never carries the sanitizer flags).
import PackageDescription

let package = Package(
    name: "FathomFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzDriver", path: "Sources/FuzzDriver"),
        .executableTarget(
            name: "fuzz-json", dependencies: ["FuzzDriver", .product(name: "FathomJSON", package: "main")],
            path: "Sources/fuzz-json"
        ),
        .executableTarget(
            name: "fuzz-jsonpath", dependencies: ["FuzzDriver", .product(name: "FathomJSON", package: "main")],
            path: "Sources/fuzz-jsonpath"),
        .executableTarget(
            name: "fuzz-command", dependencies: ["FuzzDriver", .product(name: "FathomREPL", package: "main")],
            path: "Sources/fuzz-command"),
        .executableTarget(
            name: "fuzz-line", dependencies: ["FuzzDriver", .product(name: "FathomREPL", package: "main")],
            path: "Sources/fuzz-line"),
        .executableTarget(
            name: "fuzz-session", dependencies: ["FuzzDriver", .product(name: "FathomREPL", package: "main")],
            path: "Sources/fuzz-session"),
        .executableTarget(
            name: "fuzz-schema", dependencies: ["FuzzDriver", .product(name: "FathomOpenAPI", package: "main")],
            path: "Sources/fuzz-schema"),
        .executableTarget(
            name: "fuzz-import", dependencies: ["FuzzDriver", .product(name: "FathomREPL", package: "main")],
            path: "Sources/fuzz-import"),
        .executableTarget(
            name: "fuzz-files", dependencies: ["FuzzDriver", .product(name: "FathomREPL", package: "main")],
            path: "Sources/fuzz-files"),
        .executableTarget(
            name: "fuzz-yaml", dependencies: ["FuzzDriver", .product(name: "FathomOpenAPI", package: "main")],
            path: "Sources/fuzz-yaml"),
        .executableTarget(
            name: "fuzz-graphql", dependencies: ["FuzzDriver", .product(name: "FathomGraphQL", package: "main")],
            path: "Sources/fuzz-graphql"),
        .executableTarget(
            name: "fuzz-protobuf", dependencies: ["FuzzDriver", .product(name: "FathomProtobuf", package: "main")],
            path: "Sources/fuzz-protobuf"),
        .executableTarget(
            name: "fuzz-openapi", dependencies: ["FuzzDriver", .product(name: "FathomOpenAPI", package: "main")],
            path: "Sources/fuzz-openapi"),
    ]
)
