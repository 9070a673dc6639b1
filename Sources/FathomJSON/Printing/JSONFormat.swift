/// How JSON is printed: indentation, compactness and colors.
///
/// The defaults print exactly what `jq .` prints, and with ``Colors/jq`` what `jq -C .` prints,
/// except that numbers keep their source text where jq would reformat them.
public struct JSONFormat: Hashable, Sendable {
    /// Spaces per level; 2 by default. 0 prints compactly, as `jq --indent 0` does.
    public var indent: Int
    /// One line, no spaces (`jq -c`).
    public var compact: Bool
    /// ANSI colors, or `nil` for plain text.
    public var colors: Colors?

    public init(indent: Int = 2, compact: Bool = false, colors: Colors? = nil) {
        self.indent = indent
        self.compact = compact
        self.colors = colors
    }

    public static let pretty = JSONFormat()
    public static let compactText = JSONFormat(compact: true)

    /// SGR parameters for each kind of token, such as `"0;32"`.
    public struct Colors: Hashable, Sendable {
        public var null: String
        public var falseValue: String
        public var trueValue: String
        public var number: String
        public var string: String
        public var array: String
        public var object: String
        public var key: String

        public init(
            null: String, falseValue: String, trueValue: String, number: String, string: String, array: String,
            object: String, key: String
        ) {
            self.null = null
            self.falseValue = falseValue
            self.trueValue = trueValue
            self.number = number
            self.string = string
            self.array = array
            self.object = object
            self.key = key
        }

        /// jq 1.6's default scheme (`JQ_COLORS` unset).
        public static let jq = Colors(
            null: "1;30", falseValue: "0;39", trueValue: "0;39", number: "0;39", string: "0;32", array: "1;39",
            object: "1;39", key: "34;1")
    }

    var isPretty: Bool { !compact && indent > 0 }
}
