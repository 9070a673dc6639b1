import Foundation

/// Validates and prints a JSON document in one pass, without building a tree.
///
/// Memory stays flat whatever the input size: the only state is a stack of open containers and a
/// 256 KiB output buffer handed to `sink` as it fills. On invalid input nothing more is handed over:
/// output that fits in one buffer is never partly printed, while a larger document may already have
/// had its first blocks printed when the error is found.
public enum JSONFormatter {
    /// Formats `input`, handing output to `sink` in blocks.
    ///
    /// - Throws: ``JSONError`` at the first problem.
    public static func format(
        _ input: UnsafeBufferPointer<UInt8>, as format: JSONFormat = .pretty, options: JSON.ParsingOptions = .strict,
        sink: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(JSONError) {
        let result: Result<Void, LexError> = withoutActuallyEscaping(sink) { sink in
            var writer = JSONWriter(format: format, sink: sink)
            var lexer = JSONLexer(input, lenient: options.lenientUTF8)
            do throws(LexError) {
                try run(&lexer, &writer, maxDepth: options.maxDepth)
                writer.flush()
                return .success(())
            } catch {
                // What is still buffered is dropped: output up to 256 KiB never shows a partial document.
                return .failure(error)
            }
        }
        if case .failure(let error) = result {
            throw JSONError(reason: error.reason, offset: error.offset, in: input)
        }
    }

    /// Formats `data` into at most `limit` bytes of text, cut at a line break, and says whether
    /// that is all of it. Formatting stops soon after the limit, so a small document that prints
    /// huge (deep nesting, long indentation) costs the limit in memory and time, not its output.
    ///
    /// - Throws: ``JSONError`` at the first problem before the limit.
    public static func formatted(
        _ data: Data, as format: JSONFormat = .pretty, options: JSON.ParsingOptions = .strict, limit: Int
    ) throws(JSONError) -> (text: String, isComplete: Bool) {
        var output: [UInt8] = []
        var full = false
        // The limit counts what is read, not colour escapes: a coloured body is cut where a plain
        // one is.
        var visible = 0
        var inEscape = false
        func count(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                if inEscape {
                    if (0x40...0x7E).contains(byte), byte != UInt8(ascii: "[") { inEscape = false }
                } else if byte == 0x1B {
                    inEscape = true
                } else {
                    visible += 1
                }
            }
        }
        let result: Result<Void, LexError> = data.withUnsafeBytes { raw in
            let input = raw.bindMemory(to: UInt8.self)
            var writer = JSONWriter(format: format, flushThreshold: min(256 * 1024, max(limit, 1))) { block in
                guard !full else { return }
                output.append(contentsOf: block)
                count(block)
                if visible > limit { full = true }
            }
            var lexer = JSONLexer(input, lenient: options.lenientUTF8)
            do throws(LexError) {
                try run(&lexer, &writer, maxDepth: options.maxDepth) { full }
                writer.flush()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error) = result {
            throw data.withUnsafeBytes {
                JSONError(reason: error.reason, offset: error.offset, in: $0.bindMemory(to: UInt8.self))
            }
        }
        guard full else { return (String(decoding: output, as: UTF8.self), true) }
        // The last line break before `limit` visible bytes.
        visible = 0
        inEscape = false
        var end = 0
        var lastBreak = 0
        while end < output.count, visible < limit {
            count(output[end...end])
            end += 1
            if output[end - 1] == UInt8(ascii: "\n") { lastBreak = end }
        }
        return (String(decoding: output[..<lastBreak], as: UTF8.self), false)
    }

    /// Formats `data` into a string (for bodies that fit in memory twice).
    public static func formatted(
        _ data: Data, as format: JSONFormat = .pretty, options: JSON.ParsingOptions = .strict
    )
        throws(JSONError) -> String
    {
        var output: [UInt8] = []
        let result: Result<Void, JSONError> = data.withUnsafeBytes { raw in
            do throws(JSONError) {
                try Self.format(raw.bindMemory(to: UInt8.self), as: format, options: options) {
                    output.append(contentsOf: $0)
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        return String(decoding: output, as: UTF8.self)
    }

    private enum State {
        case value, afterValue
    }

    /// - Parameter stop: Asked after each value: `true` ends formatting there (the output is cut).
    private static func run(
        _ lexer: inout JSONLexer, _ writer: inout JSONWriter, maxDepth: Int, stop: () -> Bool = { false }
    ) throws(LexError) {
        var stack: [JSONWriter.Container] = []
        var text: [UInt8] = []
        var state = State.value
        lexer.skipWhitespace()
        guard !lexer.isAtEnd else { throw lexer.error("empty input: expected a JSON value") }

        func key(_ lexer: inout JSONLexer, _ writer: inout JSONWriter) throws(LexError) {
            lexer.skipWhitespace()
            guard lexer.current == UInt8(ascii: "\"") else {
                throw lexer.error("expected a string key in object, found \(lexer.currentDescription)")
            }
            if let range = lexer.plainString() {
                writer.rawKey(UnsafeBufferPointer(rebasing: lexer.bytes[range]))
            } else {
                try lexer.string(into: &text)
                text.withUnsafeBufferPointer { writer.key($0) }
            }
            lexer.skipWhitespace()
            guard lexer.current == UInt8(ascii: ":") else {
                throw lexer.error("expected ':' after object key, found \(lexer.currentDescription)")
            }
            lexer.index += 1
        }

        while true {
            switch state {
            case .value:
                lexer.skipWhitespace()
                switch lexer.current {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let container: JSONWriter.Container = lexer.current == UInt8(ascii: "{") ? .object : .array
                    guard stack.count < maxDepth else { throw lexer.error("nesting deeper than \(maxDepth) levels") }
                    lexer.index += 1
                    lexer.skipWhitespace()
                    let closer = container == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    if lexer.current == closer {
                        lexer.index += 1
                        writer.empty(container)
                        state = .afterValue
                    } else {
                        writer.open(container, depth: stack.count)
                        stack.append(container)
                        if container == .object { try key(&lexer, &writer) }
                    }
                case UInt8(ascii: "\""):
                    if let range = lexer.plainString() {
                        writer.rawString(UnsafeBufferPointer(rebasing: lexer.bytes[range]))
                    } else {
                        try lexer.string(into: &text)
                        text.withUnsafeBufferPointer { writer.string($0) }
                    }
                    state = .afterValue
                case UInt8(ascii: "t"):
                    try lexer.literal("true")
                    writer.bool(true)
                    state = .afterValue
                case UInt8(ascii: "f"):
                    try lexer.literal("false")
                    writer.bool(false)
                    state = .afterValue
                case UInt8(ascii: "n"):
                    try lexer.literal("null")
                    writer.null()
                    state = .afterValue
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let range = try lexer.number()
                    writer.number(UnsafeBufferPointer(rebasing: lexer.bytes[range]))
                    state = .afterValue
                default:
                    throw lexer.error("expected a value, found \(lexer.currentDescription)")
                }
            case .afterValue:
                if stop() { return }
                guard let top = stack.last else {
                    lexer.skipWhitespace()
                    guard lexer.isAtEnd else {
                        throw lexer.error("unexpected \(lexer.currentDescription) after the JSON value")
                    }
                    writer.endDocument()
                    return
                }
                writer.endElement(of: top)
                lexer.skipWhitespace()
                switch (lexer.current, top) {
                case (UInt8(ascii: ","), _):
                    lexer.index += 1
                    writer.separator(depth: stack.count - 1)
                    if top == .object { try key(&lexer, &writer) }
                    state = .value
                case (UInt8(ascii: "]"), .array), (UInt8(ascii: "}"), .object):
                    lexer.index += 1
                    stack.removeLast()
                    writer.close(top, depth: stack.count)
                case (_, .array):
                    throw lexer.error("expected ',' or ']' in array, found \(lexer.currentDescription)")
                case (_, .object):
                    throw lexer.error("expected ',' or '}' in object, found \(lexer.currentDescription)")
                }
            }
        }
    }
}
