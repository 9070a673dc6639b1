/// The callback libFuzzer calls with each input.
public typealias FuzzInput = @convention(c) (UnsafePointer<UInt8>, Int) -> CInt

/// Runs libFuzzer's driver with `callback`, from a target's entry point. SwiftPM links an
/// executable's entry under its own name (`fuzz_json_main`), so each target defines that name
/// and calls this; libFuzzer's `main` would do the same with `LLVMFuzzerTestOneInput`.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, _ callback: FuzzInput
) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, callback)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzInput
) -> CInt
