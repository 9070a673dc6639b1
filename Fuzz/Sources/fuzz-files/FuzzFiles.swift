@_spi(Fuzzing) import FathomREPL
import FuzzDriver

/// libFuzzer: bytes as a `.env`, the user config, a `--data` CSV or a recording (the first byte
/// picks which), read as Fathom reads them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFiles(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzzing.dataFile(Array(UnsafeBufferPointer(start: start, count: count)))
    return 0
}

@_cdecl("fuzz_files_main")
public func fuzzFilesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzFiles)
}
