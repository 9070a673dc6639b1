@_spi(Fuzzing) import FathomREPL
import FuzzDriver

/// libFuzzer: any text as lines typed at the prompt; each command that parses writes its line,
/// which must parse back to an equal command.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLine(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzzing.lineRoundTrip(String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self))
    return 0
}

@_cdecl("fuzz_line_main")
public func fuzzLineMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzLine)
}
