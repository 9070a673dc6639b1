/// Writes JSON tokens with jq's layout and color sequence, into a buffer flushed in large blocks.
///
/// The order of escapes follows jq 1.6's `jv_dump_term`: a value starts with its color and ends with
/// a reset; a container's color is written again after each of its elements; each object key is
/// preceded by a reset and written in the key color; `:` (and its space) is in the object's color.
struct JSONWriter {
    private(set) var buffer: [UInt8] = []
    private let sink: (UnsafeBufferPointer<UInt8>) -> Void
    private let pretty: Bool
    private let indentWidth: Int
    private let colors: Colors?
    private let flushThreshold: Int

    /// The escape sequences, prepared once.
    struct Colors {
        let null, falseValue, trueValue, number, string, array, object, key: [UInt8]
        static let reset: [UInt8] = Array("\u{1B}[0m".utf8)

        init(_ colors: JSONFormat.Colors) {
            func sgr(_ code: String) -> [UInt8] { Array("\u{1B}[\(code)m".utf8) }
            null = sgr(colors.null)
            falseValue = sgr(colors.falseValue)
            trueValue = sgr(colors.trueValue)
            number = sgr(colors.number)
            string = sgr(colors.string)
            array = sgr(colors.array)
            object = sgr(colors.object)
            key = sgr(colors.key)
        }
    }

    enum Container {
        case array, object
    }

    init(format: JSONFormat, flushThreshold: Int = 256 * 1024, sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.sink = sink
        self.pretty = format.isPretty
        self.indentWidth = format.indent
        self.colors = format.colors.map(Colors.init)
        self.flushThreshold = flushThreshold
        buffer.reserveCapacity(flushThreshold + 4096)
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBufferPointer { sink($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func flushIfFull() {
        if buffer.count >= flushThreshold { flush() }
    }

    private func color(for container: Container) -> [UInt8]? {
        guard let colors else { return nil }
        return container == .array ? colors.array : colors.object
    }

    private mutating func newline(depth: Int) {
        buffer.append(UInt8(ascii: "\n"))
        let spaces = depth * indentWidth
        for _ in 0..<spaces { buffer.append(UInt8(ascii: " ")) }
    }

    // MARK: Scalars

    mutating func null() { scalar(colors?.null, "null") }
    mutating func bool(_ value: Bool) {
        value ? scalar(colors?.trueValue, "true") : scalar(colors?.falseValue, "false")
    }

    private mutating func scalar(_ color: [UInt8]?, _ text: StaticString) {
        if let color { buffer.append(contentsOf: color) }
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        if color != nil { buffer.append(contentsOf: Colors.reset) }
        flushIfFull()
    }

    /// A number, written as given.
    mutating func number(_ text: UnsafeBufferPointer<UInt8>) {
        if let colors { buffer.append(contentsOf: colors.number) }
        buffer.append(contentsOf: text)
        if colors != nil { buffer.append(contentsOf: Colors.reset) }
        flushIfFull()
    }

    /// A string value from its decoded UTF-8.
    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) {
        if let colors { buffer.append(contentsOf: colors.string) }
        quoted(utf8)
        if colors != nil { buffer.append(contentsOf: Colors.reset) }
        flushIfFull()
    }

    // MARK: Containers

    mutating func empty(_ container: Container) {
        if let color = color(for: container) { buffer.append(contentsOf: color) }
        buffer.append(
            contentsOf: container == .array
                ? [UInt8(ascii: "["), UInt8(ascii: "]")] : [UInt8(ascii: "{"), UInt8(ascii: "}")])
        if colors != nil { buffer.append(contentsOf: Colors.reset) }
    }

    /// Opens a non-empty container whose contents are at `depth + 1`.
    mutating func open(_ container: Container, depth: Int) {
        if let color = color(for: container) { buffer.append(contentsOf: color) }
        buffer.append(container == .array ? UInt8(ascii: "[") : UInt8(ascii: "{"))
        if pretty { newline(depth: depth + 1) }
    }

    /// After each element: the container's color again (the element ended with a reset).
    mutating func endElement(of container: Container) {
        if let color = color(for: container) { buffer.append(contentsOf: color) }
    }

    /// Between elements of a container at `depth`.
    mutating func separator(depth: Int) {
        buffer.append(UInt8(ascii: ","))
        if pretty { newline(depth: depth + 1) }
    }

    /// An object key (decoded UTF-8) and its colon.
    mutating func key(_ utf8: UnsafeBufferPointer<UInt8>) {
        if let colors {
            buffer.append(contentsOf: Colors.reset)
            buffer.append(contentsOf: colors.key)
        }
        quoted(utf8)
        if let colors {
            buffer.append(contentsOf: Colors.reset)
            buffer.append(contentsOf: colors.object)
        }
        buffer.append(UInt8(ascii: ":"))
        if pretty { buffer.append(UInt8(ascii: " ")) }
        if colors != nil { buffer.append(contentsOf: Colors.reset) }
    }

    /// Closes a non-empty container at `depth`.
    mutating func close(_ container: Container, depth: Int) {
        if pretty { newline(depth: depth) }
        if let color = color(for: container) { buffer.append(contentsOf: color) }
        buffer.append(container == .array ? UInt8(ascii: "]") : UInt8(ascii: "}"))
        if colors != nil { buffer.append(contentsOf: Colors.reset) }
        flushIfFull()
    }

    /// The newline after a top-level value.
    mutating func endDocument() {
        buffer.append(UInt8(ascii: "\n"))
    }

    // MARK: Escaping

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `"…"` with jq's escaping: `"`, `\`, and control characters and DEL escaped; everything
    /// else, non-ASCII included, as UTF-8.
    private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        buffer.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else {
                continue
            }
            if index > runStart { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
            runStart = index + 1
            buffer.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
            case 0x08: buffer.append(UInt8(ascii: "b"))
            case 0x0C: buffer.append(UInt8(ascii: "f"))
            case 0x0A: buffer.append(UInt8(ascii: "n"))
            case 0x0D: buffer.append(UInt8(ascii: "r"))
            case 0x09: buffer.append(UInt8(ascii: "t"))
            default:
                buffer.append(contentsOf: [
                    UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hexDigits[Int(byte >> 4)],
                    Self.hexDigits[Int(byte & 0xF)],
                ])
            }
        }
        if utf8.count > runStart { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        buffer.append(UInt8(ascii: "\""))
    }
}
