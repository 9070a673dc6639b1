// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Fathom",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "FathomHTTP", targets: ["FathomHTTP"]),
        .library(name: "FathomJSON", targets: ["FathomJSON"]),
        .library(name: "FathomDemo", targets: ["FathomDemo"]),
        .library(name: "FathomOpenAPI", targets: ["FathomOpenAPI"]),
        .library(name: "FathomGraphQL", targets: ["FathomGraphQL"]),
        .library(name: "FathomProtobuf", targets: ["FathomProtobuf"]),
        .library(name: "FathomGRPC", targets: ["FathomGRPC"]),
        .library(name: "FathomREPL", targets: ["FathomREPL"]),
        .executable(name: "fathom", targets: ["fathom"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Without its default ExternalLoading trait: Fathom resolves references itself, and the
        // trait's concurrency code is slow to build.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0", traits: []),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // Latency distributions of batches (`send --repeat`): percentiles in bounded memory.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // The demo's WebSocket endpoint (`/ws`). Fathom's client is its own, on NIOWebSocket.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // GraphQL: the language's parser, SDL schemas and the specification's validation rules
        // (FathomGraphQL); the demo's GraphQL endpoint executes with it.
        .package(url: "https://github.com/GraphQLSwift/GraphQL", from: "4.3.0"),
        // Protocol buffers: the descriptor messages (`FileDescriptorProto`) and the well-known types'
        // proto3 JSON. The linker, the wire codec and the JSON mapping are FathomProtobuf's own:
        // swift-protobuf has no dynamic message.
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // gRPC calls of any method named by strings, their messages as bytes (FathomGRPC), over
        // HTTP/2 with NIO.
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        // `swift package generate-documentation --target FathomHTTP` (make docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "FathomHTTP",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSOCKS", package: "swift-nio-extras"),
            ]
        ),
        .target(name: "FathomJSON"),
        .target(
            name: "FathomOpenAPI",
            dependencies: [
                "FathomJSON",
                .product(name: "Yams", package: "Yams"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
            ]
        ),
        .target(
            name: "FathomGraphQL",
            dependencies: [
                "FathomJSON",
                .product(name: "GraphQL", package: "GraphQL"),
            ]
        ),
        .target(
            name: "FathomProtobuf",
            dependencies: [
                "FathomJSON",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .target(
            name: "FathomGRPC",
            dependencies: [
                "FathomHTTP",
                "FathomProtobuf",
                "FathomJSON",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        .target(
            name: "FathomREPL",
            dependencies: [
                "CEditLine",
                "FathomHTTP",
                "FathomJSON",
                "FathomOpenAPI",
                "FathomGraphQL",
                "FathomProtobuf",
                "FathomGRPC",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .target(
            name: "FathomDemo",
            dependencies: [
                "CZlib",
                "FathomJSON",
                "FathomProtobuf",
                "FathomGRPC",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            // The .proto the demo's gRPC descriptors are compiled from (scripts/demo-descriptors.sh).
            exclude: ["Protos"]
        ),
        .executableTarget(
            name: "fathom",
            dependencies: [
                "FathomHTTP",
                "FathomREPL",
                "FathomJSON",
                "FathomDemo",
                "FathomGraphQL",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [
                // `--static-swift-stdlib` links with `-export-dynamic`, which puts every symbol of
                // every module (68,000) in the dynamic symbol table, and the Swift runtime's
                // start-up (its path, through `dladdr`) then scans them all: 2 ms of every run,
                // a third of `fathom --version`. Nothing looks Fathom's symbols up at run time.
                .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux]))
            ],
            plugins: ["BuildInfo"]
        ),
        .plugin(name: "BuildInfo", capability: .buildTool(), path: "Plugins/BuildInfo"),
        .executableTarget(
            name: "fathom-bench",
            dependencies: [
                "FathomHTTP",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Benchmarks/ClientBench"
        ),
        .executableTarget(
            name: "fathom-openapi-bench",
            dependencies: ["FathomOpenAPI", "FathomJSON", "FathomREPL"],
            path: "Benchmarks/OpenAPIBench"
        ),
        .executableTarget(
            name: "fathom-graphql-bench",
            dependencies: ["FathomGraphQL", "FathomREPL"],
            path: "Benchmarks/GraphQLBench"
        ),
        .target(
            name: "FathomTestSupport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/FathomTestSupport"
        ),
        .testTarget(
            name: "FathomHTTPTests",
            dependencies: ["FathomHTTP", "FathomTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "FathomJSONTests",
            dependencies: ["FathomJSON", "FathomTestSupport"]
        ),
        .testTarget(
            name: "FathomOpenAPITests",
            dependencies: ["FathomOpenAPI", "FathomJSON", "FathomTestSupport"]
        ),
        .testTarget(
            name: "FathomGraphQLTests",
            dependencies: [
                "FathomGraphQL", "FathomJSON", "FathomTestSupport", .product(name: "GraphQL", package: "GraphQL"),
            ]
        ),
        .testTarget(
            name: "FathomProtobufTests",
            dependencies: [
                "FathomProtobuf", "FathomJSON", "FathomTestSupport",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "FathomGRPCTests",
            dependencies: ["FathomGRPC", "FathomProtobuf", "FathomJSON"]
        ),
        .testTarget(
            name: "FathomHTTPIntegrationTests",
            dependencies: [
                "FathomHTTP",
                "FathomTestSupport",
                "FathomDemo",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "FathomREPLTests",
            dependencies: ["FathomREPL", "FathomHTTP", "FathomDemo", "FathomOpenAPI", "FathomTestSupport"],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "FathomEndToEndTests",
            dependencies: [
                "FathomDemo", "FathomTestSupport", "FathomOpenAPI", "FathomJSON", "FathomHTTP", "FathomGraphQL",
                "FathomProtobuf", "FathomGRPC", .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["Snapshots"]
        ),
    ]
)
