import FathomJSON
import FathomProtobuf
import FathomTestSupport
import Foundation
import SwiftProtobuf
import Testing

/// FathomProtobuf beside Python's `protobuf` (`json_format`): 10,000 random messages of protobuf's
/// conformance schema (every scalar at its bounds, NaN and ±Infinity, packed and unpacked repeated
/// fields, maps of every key type, the oneof, recursion, unknown enum values, every well-known type,
/// `Any` holding messages and well-known types) — each one's binary read into JSON equal to
/// json_format's, and json_format's JSON written back into a binary that parses to the same message.
@Suite(.enabled(if: GraphQLServer.python != nil, "needs FATHOM_PYTHON with protobuf: run through `make test`"))
struct ProtobufOracleTests {
    static let script = FathomBinary.packageRoot + "/Tests/Servers/protobuf_oracle.py"
    static let corpus = FathomBinary.packageRoot + "/Tests/Corpora/protobuf"
    static let messageName = "protobuf_test_messages.proto3.TestAllTypesProto3"

    struct Case {
        let binary: [UInt8]
        let json: JSON?
    }

    static func generate(
        count: Int, seed: Int, in directory: String, proto: String = "test_messages_proto3.proto",
        message: String = "TestAllTypesProto3"
    ) throws -> [Case] {
        let run = try Program.run([
            GraphQLServer.python ?? "python3", script, "generate", "--proto-dir", corpus, "--proto", proto,
            "--message", message, "--count", String(count), "--seed", String(seed), "--out", directory,
        ])
        guard run.status == 0 else { throw OracleFailure(text: run.output) }
        let lines = try String(contentsOfFile: directory + "/cases.jsonl", encoding: .utf8).split(separator: "\n")
        return try lines.map { line in
            let object = try JSON(parsing: String(line))
            guard case .string(let binary) = object["binary"], let bytes = Data(base64Encoded: binary) else {
                throw OracleFailure(text: "a case without its binary")
            }
            var json: JSON?
            if case .string(let text) = object["json"] { json = try JSON(parsing: text) }
            return Case(binary: Array(bytes), json: json)
        }
    }

    /// A directory of its own under the temporary directory, removed when the test is done.
    final class TemporaryDirectory {
        let path: String

        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("fathom-protobuf-\(UUID())").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit {
            // FATHOM_KEEP_TEMPORARY=1 keeps it, to read what the oracle saw.
            if ProcessInfo.processInfo.environment["FATHOM_KEEP_TEMPORARY"] == nil {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    struct OracleFailure: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }

    /// proto3's schema 10,000 times; proto2's (groups, closed enums, explicit presence) 3,000.
    @Test(arguments: [
        ("test_messages_proto3.proto", "protobuf_test_messages.proto3.TestAllTypesProto3", 10_000),
        ("test_messages_proto2.proto", "protobuf_test_messages.proto2.TestAllTypesProto2", 3_000),
    ])
    func theCodecAgreesWithJSONFormat(proto: String, messageName: String, count: Int) throws {
        let directory = try TemporaryDirectory()
        let shortName = String(messageName.split(separator: ".").last ?? "")
        let cases = try Self.generate(
            count: count, seed: 20_261_128, in: directory.path, proto: proto, message: shortName)
        let set = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory.path + "/descriptors.pb")))
        let pool = try DescriptorPool(fileDescriptorSet: set)
        let type = try #require(pool.message(named: messageName))
        let decoder = WireDecoder(pool: pool)
        let encoder = WireEncoder(pool: pool)
        let mapping = ProtoJSON(pool: pool)
        var lines: [String] = []
        lines.reserveCapacity(cases.count)
        for item in cases {
            var result: [JSON.Member] = []
            do {
                let json = try mapping.json(try decoder.decode(item.binary, as: type))
                result.append(JSON.Member(key: "json", value: .string(json.formatted(.compactText))))
            } catch {
                result.append(JSON.Member(key: "error", value: .string(error.message)))
            }
            if let json = item.json {
                do {
                    let bytes = encoder.encode(try mapping.message(from: json, as: type))
                    result.append(JSON.Member(key: "binary", value: .string(Data(bytes).base64EncodedString())))
                } catch {
                    result.append(JSON.Member(key: "encodeError", value: .string(error.message)))
                }
            }
            // The compact text ends its line.
            lines.append(JSON.object(result).formatted(.compactText))
        }
        try lines.joined().write(
            toFile: directory.path + "/fathom.jsonl", atomically: true, encoding: .utf8)
        let check = try Program.run([
            GraphQLServer.python ?? "python3", Self.script, "check", "--out", directory.path, "--module",
            proto.replacingOccurrences(of: ".proto", with: "_pb2"), "--message", shortName,
        ])
        guard check.status == 0 else { throw OracleFailure(text: check.output) }
        let summary = try JSON(parsing: check.output)
        print("protobuf codec beside json_format, \(proto): \(summary.formatted(.compactText))")
        #expect(summary["cases"] == .number(String(count)))
        let refused =
            Int(summary["pythonRefused"].flatMap { if case .number(let n) = $0 { n } else { nil } } ?? "0") ?? 0
        #expect(summary["jsonAgree"] == .number(String(count - refused)))
        #expect(summary["binaryAgree"] == .number(String(count - refused)))
        #expect(summary["refusalsAgree"] == .number(String(refused)))
        #expect(summary["mismatches"] == .array([]))
    }

    /// Servers' reflection answers leave `json_name` out and send a file before its dependencies:
    /// the names derived and the files linked in that order give the same JSON.
    @Test func derivedJSONNamesAndAnyFileOrderGiveTheSameJSON() throws {
        let directory = try TemporaryDirectory()
        let cases = try Self.generate(count: 1_000, seed: 7, in: directory.path)
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/descriptors.pb"))
        let set = try Google_Protobuf_FileDescriptorSet(serializedBytes: data)
        let stripped = set.file.reversed().map { file in
            var file = file
            for index in file.messageType.indices { Self.stripJSONNames(&file.messageType[index]) }
            file.sourceCodeInfo = Google_Protobuf_SourceCodeInfo()
            return file
        }
        #expect(stripped.allSatisfy { file in file.messageType.allSatisfy { $0.field.allSatisfy { !$0.hasJsonName } } })
        let given = try DescriptorPool(files: set.file)
        let derived = try DescriptorPool(files: stripped)
        let type = try #require(given.message(named: Self.messageName))
        for item in cases {
            let a = try ProtoJSON(pool: given).json(try WireDecoder(pool: given).decode(item.binary, as: type))
            let b = try ProtoJSON(pool: derived).json(
                try WireDecoder(pool: derived).decode(
                    item.binary, as: try #require(derived.message(named: Self.messageName))))
            let difference = zip(a.formatted(.compactText), b.formatted(.compactText)).prefix { $0 == $1 }.count
            #expect(
                a == b,
                "from \(a.formatted(.compactText).dropFirst(max(0, difference - 80)).prefix(200)) | \(b.formatted(.compactText).dropFirst(max(0, difference - 80)).prefix(200))"
            )
            if a != b { break }
        }
    }

    static func stripJSONNames(_ message: inout Google_Protobuf_DescriptorProto) {
        for index in message.field.indices { message.field[index].clearJsonName() }
        for index in message.nestedType.indices { stripJSONNames(&message.nestedType[index]) }
    }
}
