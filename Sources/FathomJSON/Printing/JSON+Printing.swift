extension JSON {
    /// The value as text in `format` (by default as `jq .` prints it), with a final newline.
    public func formatted(_ format: JSONFormat = .pretty) -> String {
        var output: [UInt8] = []
        write(format) { output.append(contentsOf: $0) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Writes the value in `format` to `sink` in blocks, with a final newline.
    public func write(_ format: JSONFormat = .pretty, to sink: (UnsafeBufferPointer<UInt8>) -> Void) {
        withoutActuallyEscaping(sink) { sink in
            var writer = JSONWriter(format: format, sink: sink)
            write(into: &writer, depth: 0)
            writer.endDocument()
            writer.flush()
        }
    }

    private func write(into writer: inout JSONWriter, depth: Int) {
        switch self {
        case .null:
            writer.null()
        case .bool(let value):
            writer.bool(value)
        case .number(var text):
            text.withUTF8 { writer.number($0) }
        case .string(var text):
            text.withUTF8 { writer.string($0) }
        case .array(let elements):
            guard !elements.isEmpty else { return writer.empty(.array) }
            writer.open(.array, depth: depth)
            for (index, element) in elements.enumerated() {
                if index > 0 { writer.separator(depth: depth) }
                element.write(into: &writer, depth: depth + 1)
                writer.endElement(of: .array)
            }
            writer.close(.array, depth: depth)
        case .object(let members):
            guard !members.isEmpty else { return writer.empty(.object) }
            writer.open(.object, depth: depth)
            for (index, member) in members.enumerated() {
                if index > 0 { writer.separator(depth: depth) }
                var key = member.key
                key.withUTF8 { writer.key($0) }
                member.value.write(into: &writer, depth: depth + 1)
                writer.endElement(of: .object)
            }
            writer.close(.object, depth: depth)
        }
    }
}
