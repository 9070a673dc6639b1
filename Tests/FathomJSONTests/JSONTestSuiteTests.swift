import Foundation
import Testing

@testable import FathomJSON

/// JSONTestSuite: every `y_` accepted, every `n_` rejected, no crash on `i_` — by the tree parser
/// and by the streaming printer alike.
@Suite struct JSONTestSuiteTests {
    static func streamFormats(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            (try? JSONFormatter.format(buffer, sink: { _ in })) != nil
        }
    }

    @Test func corpusIsComplete() throws {
        let files = try Corpus.jsonTestSuite()
        #expect(files.filter { $0.name.hasPrefix("y_") }.count == 95)
        #expect(files.filter { $0.name.hasPrefix("n_") }.count == 188)
        #expect(files.filter { $0.name.hasPrefix("i_") }.count == 35)
    }

    @Test func acceptsEveryYesCase() throws {
        for file in try Corpus.jsonTestSuite() where file.name.hasPrefix("y_") {
            #expect(throws: Never.self, "\(file.name)") { try JSON(parsing: file.bytes) }
            #expect(Self.streamFormats(file.bytes), "\(file.name)")
        }
    }

    @Test func rejectsEveryNoCase() throws {
        for file in try Corpus.jsonTestSuite() where file.name.hasPrefix("n_") {
            #expect(throws: JSONError.self, "\(file.name)") { try JSON(parsing: file.bytes) }
            #expect(!Self.streamFormats(file.bytes), "\(file.name)")
        }
    }

    @Test func decidesEveryImplementationDefinedCaseTheSameWayTwice() throws {
        for file in try Corpus.jsonTestSuite() where file.name.hasPrefix("i_") {
            let tree = (try? JSON(parsing: file.bytes)) != nil
            #expect(tree == Self.streamFormats(file.bytes), "\(file.name)")
            // Lenient mode repairs invalid UTF-8 instead of failing.
            let lenient = try? JSON(parsing: file.bytes, options: .lenient)
            if file.name.contains("utf") && !file.name.contains("16") && !file.name.contains("BOM") {
                #expect(lenient != nil, "\(file.name)")
            }
        }
    }
}
