import FathomJSON
import Foundation
import FuzzDriver

/// libFuzzer: any bytes through the tree parser and the streaming formatter. A document one
/// accepts the other must accept, and printing it compactly must parse back to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let tree = try? JSON(parsing: bytes)
    var formatted = true
    do {
        try JSONFormatter.format(bytes) { _ in }
    } catch {
        formatted = false
    }
    precondition((tree != nil) == formatted, "the parser and the formatter disagree")
    if let tree {
        let again = try? JSON(parsing: tree.formatted(.compactText))
        precondition(again == tree, "a compact print does not parse back to the same value")
    }
    return 0
}

@_cdecl("fuzz_json_main")
public func fuzzJSONMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzJSON)
}
