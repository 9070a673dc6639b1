@_spi(Fuzzing) import FathomREPL
import FuzzDriver

/// libFuzzer: any bytes as an import (the first byte picks curl, HAR or Postman); every command
/// it makes writes a line that parses back to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzzing.importText(Array(UnsafeBufferPointer(start: start, count: count)))
    return 0
}

@_cdecl("fuzz_import_main")
public func fuzzImportMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzImport)
}
