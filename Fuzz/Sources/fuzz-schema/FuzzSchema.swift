import FathomJSON
import FathomOpenAPI
import Foundation
import FuzzDriver

/// libFuzzer: a schema and an instance (two JSON documents, one per line) through the validator
/// in each dialect. It must end, and its quick verdict must agree with its full one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchema(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    guard let schema = try? JSON(parsing: bytes[..<newline]),
        let instance = try? JSON(parsing: newline < bytes.count ? Array(bytes[(newline + 1)...]) : [UInt8]("null".utf8))
    else { return 0 }
    for dialect in [SchemaDialect.draft4, .openAPI30, .draft2020_12] {
        let validator = SchemaValidator(schema: schema, dialect: dialect)
        let violations = validator.validate(instance)
        precondition(violations.isEmpty == validator.isValid(instance), "the quick and full verdicts disagree")
    }
    return 0
}

@_cdecl("fuzz_schema_main")
public func fuzzSchemaMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzSchema)
}
