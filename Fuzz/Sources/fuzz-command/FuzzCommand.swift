@_spi(Fuzzing) import FathomREPL

/// libFuzzer: any text as lines typed at the prompt, through the line assembler, the command
/// parser and the error renderer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommand(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzzing.commandLine(String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self))
    return 0
}

/// SwiftPM links an executable's entry as `fuzz_command_main`: it hands the callback to libFuzzer's driver.
@_cdecl("fuzz_command_main")
public func fuzzCommandMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzCommand)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
