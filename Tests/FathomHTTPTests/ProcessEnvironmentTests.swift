import Foundation
import Testing

@testable import FathomHTTP

/// The environment read once from `environ`: the variables Foundation reads, name for name.
@Suite struct ProcessEnvironmentTests {
    @Test func theSameVariablesAsFoundationReads() {
        let foundation = ProcessInfo.processInfo.environment
        #expect(!foundation.isEmpty)
        #expect(ProcessEnvironment.current == foundation)
        #expect(ProcessEnvironment.current["PATH"] == String(cString: getenv("PATH")))
    }

    @Test func entriesSplitAtTheirFirstEqualsSign() {
        let entries = ["A=b=c", "EMPTY=", "NO_EQUALS", "=nameless", "É=ü ✓", "TWICE=1", "TWICE=2"]
        var pointers: [UnsafeMutablePointer<CChar>?] = entries.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        let values = pointers.withUnsafeMutableBufferPointer { ProcessEnvironment.variables(in: $0.baseAddress!) }
        #expect(values == ["A": "b=c", "EMPTY": "", "": "nameless", "É": "ü ✓", "TWICE": "2"])
    }
}
