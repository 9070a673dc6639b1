@_spi(Fuzzing) import FathomREPL
import FuzzDriver

/// libFuzzer: any text as a `.fathom` session file, read and checked as `load` and `replay` do.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSession(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzzing.sessionFile(String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self))
    return 0
}

@_cdecl("fuzz_session_main")
public func fuzzSessionMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzSession)
}
