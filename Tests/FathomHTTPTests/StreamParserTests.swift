import Foundation
import Testing

@testable import FathomHTTP

/// Server-sent events by the WHATWG HTML rules, JSON Lines and JSON text sequences, whatever
/// the network's splits.
@Suite struct StreamParserTests {
    /// The events of `text` fed in one piece.
    private func events(_ text: String, _ format: StreamFormat = .serverSentEvents) -> [StreamEvent] {
        var parser = StreamParser(format: format)
        return parser.feed(Array(text.utf8)) + parser.finish()
    }

    /// The events of `bytes` fed split at `split`.
    private func events(_ bytes: [UInt8], splitAt split: Int, _ format: StreamFormat) -> [StreamEvent] {
        var parser = StreamParser(format: format)
        return parser.feed(bytes[..<split]) + parser.feed(bytes[split...]) + parser.finish()
    }

    /// The specification's examples, with what each dispatches.
    static let examples: [(text: String, events: [StreamEvent])] = [
        ("data: YHOO\ndata: +2\ndata: 10\n\n", [StreamEvent(data: "YHOO\n+2\n10", type: "message")]),
        (
            ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n",
            [
                StreamEvent(data: "first event", type: "message", id: "1"),
                StreamEvent(data: "second event", type: "message", id: ""),
            ]
        ),
        (
            "data\n\ndata\ndata\n\ndata:",
            [StreamEvent(data: "", type: "message"), StreamEvent(data: "\n", type: "message")]
        ),
        (
            "data:test\n\ndata: test\n\n",
            [StreamEvent(data: "test", type: "message"), StreamEvent(data: "test", type: "message")]
        ),
        (
            "event: add\ndata: {\"a\": 1}\nretry: 3000\nid: 7\n\nretry: 1e3\nevent: remove\ndata: x\n\n",
            [
                StreamEvent(data: "{\"a\": 1}", type: "add", id: "7", retry: 3000),
                // `retry: 1e3` is not digits: ignored.
                StreamEvent(data: "x", type: "remove", id: "7"),
            ]
        ),
        // An ID with NUL is ignored; the one before it stays. A field with no known name is ignored.
        (
            "id: 1\ndata: a\n\nid: 2\u{0}x\nfoo: bar\ndata: b\n\n",
            [
                StreamEvent(data: "a", type: "message", id: "1"), StreamEvent(data: "b", type: "message", id: "1"),
            ]
        ),
        // A byte order mark is dropped once; a second one is data.
        ("\u{FEFF}data: a\n\n", [StreamEvent(data: "a", type: "message")]),
        ("data: é — ✓ 🎉\n\n", [StreamEvent(data: "é — ✓ 🎉", type: "message")]),
    ]

    @Test func theSpecificationsExamples() {
        for example in Self.examples {
            #expect(events(example.text) == example.events, "\(example.text.debugDescription)")
        }
    }

    @Test func everyLineEndingForm() {
        for example in Self.examples {
            for ending in ["\r\n", "\r"] {
                let text = example.text.replacingOccurrences(of: "\n", with: ending)
                #expect(events(text) == example.events, "\(text.debugDescription)")
            }
            // Mixed: CRLF, LF and CR in turn — CR only where no LF follows, which would make
            // the two one CRLF.
            var mixed = ""
            let characters = Array(example.text)
            for (index, character) in characters.enumerated() {
                guard character == "\n" else {
                    mixed.append(character)
                    continue
                }
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let ending = ["\r\n", "\n", "\r"][index % 3]
                mixed += ending == "\r" && next == "\n" ? "\n" : ending
            }
            #expect(events(mixed) == example.events, "\(mixed.debugDescription)")
        }
    }

    @Test func everySplitOfTheBytes() {
        for example in Self.examples {
            for ending in ["\n", "\r\n", "\r"] {
                let bytes = Array(example.text.replacingOccurrences(of: "\n", with: ending).utf8)
                for split in 0...bytes.count {
                    #expect(
                        events(bytes, splitAt: split, .serverSentEvents) == example.events,
                        "\(example.text.debugDescription) split at \(split) with \(ending.debugDescription)")
                }
            }
        }
    }

    @Test func oneByteAtATime() {
        let text = "event: tick\r\ndata: {\"n\": 1}\r\n\r\n: keep-alive\r\ndata: 2\r\n\r\n"
        var parser = StreamParser(format: .serverSentEvents)
        var found: [StreamEvent] = []
        for byte in text.utf8 { found += parser.feed([byte]) }
        found += parser.finish()
        #expect(found == [StreamEvent(data: "{\"n\": 1}", type: "tick"), StreamEvent(data: "2", type: "message")])
    }

    @Test func jsonLinesAndSequences() {
        let lines = "{\"a\":1}\n\n{\"b\":2}\r\n  {\"c\":3}"
        #expect(events(lines, .jsonLines).map(\.data) == ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
        for split in 0...lines.utf8.count {
            #expect(events(Array(lines.utf8), splitAt: split, .jsonLines).count == 3)
        }
        let sequence = "\u{1E}{\"a\":\n1}\n\u{1E}[2]\n\u{1E}\"x\""
        #expect(events(sequence, .jsonSequence).map(\.data) == ["{\"a\":\n1}", "[2]", "\"x\""])
        for split in 0...sequence.utf8.count {
            #expect(events(Array(sequence.utf8), splitAt: split, .jsonSequence).count == 3)
        }
    }

    @Test func formatsFromTheContentType() {
        #expect(StreamFormat(contentType: "text/event-stream; charset=utf-8") == .serverSentEvents)
        #expect(StreamFormat(contentType: "application/x-ndjson") == .jsonLines)
        #expect(StreamFormat(contentType: "application/jsonl") == .jsonLines)
        #expect(StreamFormat(contentType: "application/json-seq") == .jsonSequence)
        #expect(StreamFormat(contentType: "application/json") == nil)
        #expect(StreamFormat(contentType: nil) == nil)
    }

    @Test func chunksAreEventsAsTheyCame() {
        var parser = StreamParser(format: .chunks)
        #expect(parser.feed(Array("one ".utf8)).map(\.data) == ["one "])
        #expect(parser.feed(Array("two".utf8)).map(\.data) == ["two"])
        #expect(parser.finish().isEmpty)
    }
}
