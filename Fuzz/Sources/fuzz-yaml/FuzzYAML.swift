@_spi(Fuzzing) import FathomOpenAPI
import Foundation
import FuzzDriver

/// libFuzzer: any bytes as a YAML document read the way a description is (YAML 1.2, aliases
/// within their budget): a value or one error, never a trap or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    Fuzzing.yaml(Data(UnsafeBufferPointer(start: start, count: count)))
    return 0
}

@_cdecl("fuzz_yaml_main")
public func fuzzYAMLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzYAML)
}
