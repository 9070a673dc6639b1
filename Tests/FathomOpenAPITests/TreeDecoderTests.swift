import FathomJSON
import FathomTestSupport
import Foundation
import Testing

@testable import FathomOpenAPI

/// OpenAPIKit's verdict through ``TreeDecoder`` (the structure check's quick answer, over the
/// parsed tree) against its verdict through Foundation's `JSONDecoder` (the oracle, which the
/// check falls back to for its words): the same yes or no on the corpus and on thousands of
/// broken descriptions made from it.
@Suite struct TreeDecoderTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Corpora/openapi").standardized

    /// The corpus's JSON descriptions up to `largest` bytes, parsed.
    static func descriptions(largest: Int) throws -> [(name: String, document: JSON)] {
        let files = FileManager.default.enumerator(atPath: corpus.path)?.compactMap { $0 as? String } ?? []
        return try files.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            let data = try Data(contentsOf: corpus.appendingPathComponent(name))
            return data.count <= largest ? (name, try JSON(parsing: data)) : nil
        }
    }

    static func decoding(_ document: JSON) -> any StructureDecoding.Type {
        if case .string(let version)? = document["openapi"], version.hasPrefix("3.1") { return StructureCheck31.self }
        return StructureCheck30.self
    }

    /// (through the tree, through Foundation's decoder).
    static func verdicts(_ document: JSON) -> (tree: Bool, foundation: Bool) {
        let decoding = decoding(document)
        let text = Data(document.formatted(.compactText).utf8)
        return (decoding.decodes(document), decoding.problem(decoding: text) == nil)
    }

    @Test func theCorpusDecodesBothWays() throws {
        let all = try Self.descriptions(largest: 4 << 20)
        #expect(all.count >= 9)
        for (name, document) in all {
            let (tree, foundation) = Self.verdicts(document)
            #expect(tree && foundation, "\(name)")
        }
    }

    @Test func brokenDescriptionsGetTheSameVerdict() throws {
        let documents = try Self.descriptions(largest: 100_000)
        var random = SeededGenerator(seed: 2_026)
        var decoded = 0
        var refused = 0
        for round in 0..<3_000 {
            let (name, original) = documents[round % documents.count]
            var document = original
            for _ in 0...Int.random(in: 0...2, using: &random) {
                document = Mutation.apply(to: document, using: &random)
            }
            let (tree, foundation) = Self.verdicts(document)
            #expect(
                tree == foundation, "\(name), round \(round): the tree says \(tree), Foundation's decoder \(foundation)"
            )
            if foundation { decoded += 1 } else { refused += 1 }
        }
        // Both verdicts are exercised.
        #expect(decoded > 300 && refused > 300)
    }

    @Test func valuesReadAsFoundationReadsThem() throws {
        struct Numbers: Decodable, Equatable {
            var int: Int
            var whole: Int
            var exponent: Int
            var double: Double
            var flag: Bool
            var missing: String?
            var null: String?
            var url: URL
            var list: [UInt8]
        }
        let text =
            #"{"int":7,"whole":2.0,"exponent":1e2,"double":-1.5,"flag":true,"null":null,"url":"https://a.example/x","list":[1,2]}"#
        let tree = try TreeDecoder().decode(Numbers.self, from: JSON(parsing: Data(text.utf8)))
        let foundation = try JSONDecoder().decode(Numbers.self, from: Data(text.utf8))
        #expect(tree == foundation)
        for bad in [
            #"{"a":1.5}"#, #"{"a":"1"}"#, #"{"a":null}"#, #"{"a":1e30}"#, #"{}"#, #"{"a":[1]}"#, #"{"a":true}"#,
        ] {
            struct One: Decodable { var a: Int }
            let viaTree = (try? TreeDecoder().decode(One.self, from: JSON(parsing: Data(bad.utf8)))) != nil
            let viaFoundation = (try? JSONDecoder().decode(One.self, from: Data(bad.utf8))) != nil
            #expect(viaTree == viaFoundation, "\(bad)")
        }
    }
}

/// One random change somewhere in a document: a member dropped, renamed or added, a value of
/// another kind put in a value's place, an array emptied.
enum Mutation {
    static func apply(to document: JSON, using random: inout SeededGenerator) -> JSON {
        var places: [[PathStep]] = []
        collect(document, at: [], into: &places)
        guard let place = places.randomElement(using: &random) else { return document }
        return change(document, at: place[...], using: &random)
    }

    enum PathStep: Hashable {
        case key(String)
        case index(Int)
    }

    private static func collect(_ value: JSON, at path: [PathStep], into places: inout [[PathStep]]) {
        places.append(path)
        switch value {
        case .object(let members):
            for member in members { collect(member.value, at: path + [.key(member.key)], into: &places) }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                collect(element, at: path + [.index(index)], into: &places)
            }
        default:
            break
        }
    }

    private static let replacements: [JSON] = [
        .null, .bool(true), .number("7"), .number("-1.5"), .string(""), .string("body"), .string("#/nope"),
        .array([]), .object([]), .object([.init(key: "$ref", value: .string("#/components/schemas/Nope"))]),
    ]

    private static func change(
        _ value: JSON, at path: ArraySlice<PathStep>, using random: inout SeededGenerator
    )
        -> JSON
    {
        guard let step = path.first else { return mutate(value, using: &random) }
        switch (value, step) {
        case (.object(var members), .key(let key)):
            guard let index = members.firstIndex(where: { $0.key == key }) else { return value }
            members[index].value = change(members[index].value, at: path.dropFirst(), using: &random)
            return .object(members)
        case (.array(var elements), .index(let index)) where elements.indices.contains(index):
            elements[index] = change(elements[index], at: path.dropFirst(), using: &random)
            return .array(elements)
        default:
            return value
        }
    }

    private static func mutate(_ value: JSON, using random: inout SeededGenerator) -> JSON {
        switch (value, Int.random(in: 0...4, using: &random)) {
        case (.object(var members), 0) where !members.isEmpty:
            members.remove(at: Int.random(in: members.indices, using: &random))
            return .object(members)
        case (.object(var members), 1) where !members.isEmpty:
            let index = Int.random(in: members.indices, using: &random)
            let key = ["x-extra", "extra", "$ref", "in", "type", "required", "200", "/new"].randomElement(
                using: &random)!
            // One member per key: a document with two is not one both sides read alike.
            guard !members.contains(where: { $0.key == key }) else { return value }
            members[index].key = key
            return .object(members)
        case (.object(var members), 2):
            let key = ["extra", "x-ok", "nullable", "deprecated"].randomElement(using: &random)!
            guard !members.contains(where: { $0.key == key }) else { return value }
            members.append(.init(key: key, value: replacements.randomElement(using: &random)!))
            return .object(members)
        case (.array, 3):
            return .array([])
        default:
            return replacements.randomElement(using: &random)!
        }
    }
}
