import FathomJSON
import FathomOpenAPI
import Foundation
import FuzzDriver

/// libFuzzer: any bytes as an OpenAPI description (JSON or YAML). It loads or throws; when it
/// loads, the structure check answers (OpenAPIKit through Fathom's `TreeDecoder`, and through
/// Foundation's decoder when that says no), and every operation can be listed, summarised, given
/// an example and checked, and nothing traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenAPI(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: start, count: count))
    guard let api = try? APIDescription(data: data, name: "fuzz", checkStructure: false) else { return 0 }
    _ = api.structureProblems()
    for path in api.paths { _ = api.listing(at: path) }
    for operation in api.operations {
        _ = api.operation(method: operation.method, path: operation.path)
        for parameter in operation.parameters { _ = api.summary(of: parameter.schema) }
        if let (mediaType, example) = api.exampleBody(for: operation) {
            _ = api.checkRequest(
                operation, path: operation.path, query: [], headers: [], contentType: mediaType,
                body: Data(example.formatted(.compactText).utf8))
        }
        for response in operation.responses {
            for media in response.content {
                let example = api.example(of: media.schema ?? .bool(true))
                _ = api.summary(of: media.schema)
                _ = api.validateResponse(
                    status: Int(response.status) ?? 200, contentType: media.name,
                    body: Data(example.formatted(.compactText).utf8), for: operation)
            }
        }
    }
    return 0
}

@_cdecl("fuzz_openapi_main")
public func fuzzOpenAPIMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzOpenAPI)
}
