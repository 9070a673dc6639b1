@_spi(Fuzzing) import FathomREPL
import FuzzDriver

/// libFuzzer: any text as lines typed at the prompt, through the line assembler, the command
/// parser and the error renderer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommand(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzzing.commandLine(String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self))
    return 0
}

@_cdecl("fuzz_command_main")
public func fuzzCommandMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzCommand)
}
