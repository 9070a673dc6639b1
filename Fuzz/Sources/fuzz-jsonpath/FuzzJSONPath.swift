import FathomJSON
import Foundation
import FuzzDriver

let document = try! JSON(
    parsing: #"{"a":[1,2,{"b":"c","d":[true,null,3.5]}],"e":{"f":"g","h":[]},"i":-0,"j":"k\u00e9"}"#)

/// libFuzzer: any text as an RFC 9535 JSONPath; one that compiles is run against a document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPath(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    if let path = try? JSONPath(text) {
        for node in path.query(document) { _ = node.path.description }
    }
    return 0
}

@_cdecl("fuzz_jsonpath_main")
public func fuzzJSONPathMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzJSONPath)
}
