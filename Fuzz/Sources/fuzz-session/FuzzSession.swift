@_spi(Fuzzing) import FathomREPL

/// libFuzzer: any text as a `.fathom` session file, read and checked as `load` and `replay` do.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSession(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzzing.sessionFile(String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self))
    return 0
}

/// SwiftPM links an executable's entry as `fuzz_session_main`: it hands the callback to libFuzzer's driver.
@_cdecl("fuzz_session_main")
public func fuzzSessionMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzSession)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
