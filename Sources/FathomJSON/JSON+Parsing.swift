import Foundation

extension JSON {
    /// How strictly to parse.
    public struct ParsingOptions: Hashable, Sendable {
        /// The deepest nesting accepted; 512 by default.
        public var maxDepth: Int
        /// Replace invalid UTF-8 in strings with U+FFFD instead of failing (for showing response
        /// bodies); `false` by default.
        public var lenientUTF8: Bool

        public init(maxDepth: Int = 512, lenientUTF8: Bool = false) {
            self.maxDepth = maxDepth
            self.lenientUTF8 = lenientUTF8
        }

        public static let strict = ParsingOptions()
        public static let lenient = ParsingOptions(lenientUTF8: true)
    }

    /// Parses a JSON document.
    ///
    /// - Throws: ``JSONError`` with the line, column and byte offset of the first problem.
    public init(parsing bytes: some Collection<UInt8>, options: ParsingOptions = .strict) throws(JSONError) {
        let result: Result<JSON, JSONError> =
            bytes.withContiguousStorageIfAvailable { Self.parse($0, options: options) }
            ?? Array(bytes).withUnsafeBufferPointer { Self.parse($0, options: options) }
        self = try result.get()
    }

    /// Parses JSON text.
    public init(parsing text: String, options: ParsingOptions = .strict) throws(JSONError) {
        var text = text
        let result = text.withUTF8 { Self.parse($0, options: options) }
        self = try result.get()
    }

    /// Parses a JSON document held in `Data`.
    public init(parsing data: Data, options: ParsingOptions = .strict) throws(JSONError) {
        let result = data.withUnsafeBytes { raw in
            Self.parse(raw.bindMemory(to: UInt8.self), options: options)
        }
        self = try result.get()
    }

    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, options: ParsingOptions) -> Result<JSON, JSONError> {
        var parser = JSONParser(buffer, options: options)
        do {
            return .success(try parser.document())
        } catch {
            return .failure(JSONError(reason: error.reason, offset: error.offset, in: buffer))
        }
    }
}
