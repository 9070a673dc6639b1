/// Writes JSON tokens with jq's layout and color sequence, into a buffer flushed in large blocks.
///
/// The order of escapes follows jq 1.6's `jv_dump_term`: a value starts with its color and ends with
/// a reset; a container's color is written again after each of its elements; each object key is
/// preceded by a reset and written in the key color; `:` (and its space) is in the object's color.
struct JSONWriter: ~Copyable {
    /// The output block: a raw buffer (no reference counting on the hot path), handed to `sink` when full.
    private let storage: UnsafeMutablePointer<UInt8>
    private var count = 0
    private let capacity: Int
    private let sink: (UnsafeBufferPointer<UInt8>) -> Void
    private let pretty: Bool
    private let indentWidth: Int
    /// The escape sequences; empty (length 0) when printing without colors, so no branch is needed.
    private let nullColor, falseColor, trueColor, numberColor, stringColor, arrayColor, objectColor, keyColor,
        reset: Escape

    /// An escape sequence held inline, so writing one touches no heap object.
    struct Escape {
        var bytes: SIMD16<UInt8> = .zero
        var length = 0

        init(_ text: String) {
            for (index, byte) in text.utf8.prefix(16).enumerated() { bytes[index] = byte }
            length = min(text.utf8.count, 16)
        }
    }

    enum Container {
        case array, object
    }

    /// Room kept beyond the flush threshold for the largest single token written without a check.
    private static let slack = 4096

    init(format: JSONFormat, flushThreshold: Int = 256 * 1024, sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.sink = sink
        self.pretty = format.isPretty
        self.indentWidth = format.indent
        func sgr(_ code: String?) -> Escape { Escape(code.map { "\u{1B}[\($0)m" } ?? "") }
        let colors = format.colors
        nullColor = sgr(colors?.null)
        falseColor = sgr(colors?.falseValue)
        trueColor = sgr(colors?.trueValue)
        numberColor = sgr(colors?.number)
        stringColor = sgr(colors?.string)
        arrayColor = sgr(colors?.array)
        objectColor = sgr(colors?.object)
        keyColor = sgr(colors?.key)
        reset = sgr(colors == nil ? nil : "0")
        self.capacity = flushThreshold
        self.storage = .allocate(capacity: flushThreshold + Self.slack)
    }

    deinit {
        storage.deallocate()
    }

    mutating func flush() {
        guard count > 0 else { return }
        sink(UnsafeBufferPointer(start: storage, count: count))
        count = 0
    }

    private mutating func flushIfFull() {
        if count >= capacity { flush() }
    }

    /// Makes room for `needed` more bytes.
    private mutating func reserve(_ needed: Int) {
        if count + needed > capacity + Self.slack { flush() }
    }

    private mutating func put(_ byte: UInt8) {
        storage[count] = byte
        count += 1
    }

    /// Stores all 16 bytes at once and advances by the sequence's length; callers reserve room first.
    private mutating func put(_ escape: Escape) {
        UnsafeMutableRawPointer(storage + count).storeBytes(of: escape.bytes, as: SIMD16<UInt8>.self)
        count += escape.length
    }

    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count > Self.slack {
            flush()
            sink(bytes)
            return
        }
        reserve(bytes.count)
        (storage + count).update(from: bytes.baseAddress!, count: bytes.count)
        count += bytes.count
    }

    private func color(for container: Container) -> Escape {
        container == .array ? arrayColor : objectColor
    }

    private mutating func newline(depth: Int) {
        let spaces = depth * indentWidth
        reserve(spaces + 1)
        put(UInt8(ascii: "\n"))
        (storage + count).update(repeating: UInt8(ascii: " "), count: spaces)
        count += spaces
    }

    // MARK: Scalars

    mutating func null() { scalar(nullColor, "null") }
    mutating func bool(_ value: Bool) {
        value ? scalar(trueColor, "true") : scalar(falseColor, "false")
    }

    private mutating func scalar(_ color: Escape, _ text: StaticString) {
        reserve(40)
        put(color)
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        put(reset)
        flushIfFull()
    }

    /// A number, written as given.
    mutating func number(_ text: UnsafeBufferPointer<UInt8>) {
        reserve(32)
        put(numberColor)
        put(text)
        reserve(32)
        put(reset)
        flushIfFull()
    }

    /// A string value from its decoded UTF-8.
    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
        reserve(32)
        put(stringColor)
        quoted(utf8)
        reserve(32)
        put(reset)
        flushIfFull()
    }

    /// A string value whose source bytes need no re-escaping (no `\\`, control or DEL; valid UTF-8):
    /// written as it stands in the input, quotes included.
    mutating func rawString(_ quotedBytes: UnsafeBufferPointer<UInt8>) {
        reserve(32)
        put(stringColor)
        put(quotedBytes)
        reserve(32)
        put(reset)
        flushIfFull()
    }

    // MARK: Containers

    mutating func empty(_ container: Container) {
        reserve(40)
        put(color(for: container))
        put(container == .array ? UInt8(ascii: "[") : UInt8(ascii: "{"))
        put(container == .array ? UInt8(ascii: "]") : UInt8(ascii: "}"))
        put(reset)
    }

    /// Opens a non-empty container whose contents are at `depth + 1`.
    mutating func open(_ container: Container, depth: Int) {
        reserve(40)
        put(color(for: container))
        put(container == .array ? UInt8(ascii: "[") : UInt8(ascii: "{"))
        if pretty { newline(depth: depth + 1) }
    }

    /// After each element: the container's color again (the element ended with a reset).
    mutating func endElement(of container: Container) {
        reserve(40)
        put(color(for: container))
    }

    /// Between elements of a container at `depth`.
    mutating func separator(depth: Int) {
        reserve(40)
        put(UInt8(ascii: ","))
        if pretty { newline(depth: depth + 1) }
    }

    /// An object key (decoded UTF-8) and its colon.
    mutating func key(_ utf8: UnsafeBufferPointer<UInt8>) {
        reserve(40)
        put(reset)
        put(keyColor)
        quoted(utf8)
        keyEnd()
    }

    /// An object key that needs no re-escaping, as written in the input with its quotes, and its colon.
    mutating func rawKey(_ quotedBytes: UnsafeBufferPointer<UInt8>) {
        reserve(40)
        put(reset)
        put(keyColor)
        put(quotedBytes)
        keyEnd()
    }

    private mutating func keyEnd() {
        reserve(60)
        put(reset)
        put(objectColor)
        put(UInt8(ascii: ":"))
        if pretty { put(UInt8(ascii: " ")) }
        put(reset)
    }

    /// Closes a non-empty container at `depth`.
    mutating func close(_ container: Container, depth: Int) {
        if pretty { newline(depth: depth) }
        reserve(40)
        put(color(for: container))
        put(container == .array ? UInt8(ascii: "]") : UInt8(ascii: "}"))
        put(reset)
        flushIfFull()
    }

    /// The newline after a top-level value.
    mutating func endDocument() {
        reserve(1)
        put(UInt8(ascii: "\n"))
    }

    // MARK: Escaping

    /// `"…"` with jq's escaping: `"`, `\`, and control characters and DEL escaped; everything
    /// else, non-ASCII included, as UTF-8.
    private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        reserve(1)
        put(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else {
                continue
            }
            if index > runStart { put(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            reserve(6)
            put(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): put(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): put(UInt8(ascii: "\\"))
            case 0x08: put(UInt8(ascii: "b"))
            case 0x0C: put(UInt8(ascii: "f"))
            case 0x0A: put(UInt8(ascii: "n"))
            case 0x0D: put(UInt8(ascii: "r"))
            case 0x09: put(UInt8(ascii: "t"))
            default:
                put(UInt8(ascii: "u"))
                put(UInt8(ascii: "0"))
                put(UInt8(ascii: "0"))
                put(Self.hexDigit(byte >> 4))
                put(Self.hexDigit(byte & 0xF))
            }
        }
        if utf8.count > runStart { put(UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        reserve(1)
        put(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
