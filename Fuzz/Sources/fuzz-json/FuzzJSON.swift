import FathomJSON
import Foundation

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

/// SwiftPM links an executable's entry as `fuzz_json_main`: it hands the callback to libFuzzer's driver.
@_cdecl("fuzz_json_main")
public func fuzzJSONMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzJSON)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
