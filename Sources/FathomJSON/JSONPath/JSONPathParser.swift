/// Parses RFC 9535 syntax into ``Segment``s, checking function types as §2.4.3 requires.
///
/// Longer than most files (~490 lines) on purpose: it is one recursive-descent parser over one
/// grammar (selectors, filters, comparisons, function calls and their type checks), and its parts
/// call each other; split by concern they would each need the whole scanner state.
struct JSONPathParser {
    private let scalars: [Unicode.Scalar]
    private let text: String
    private let columnOffset: Int
    private var index = 0

    init(_ text: String, columnOffset: Int) {
        self.text = text
        self.scalars = Array(text.unicodeScalars)
        self.columnOffset = columnOffset
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    private func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private func error(_ reason: String, at position: Int? = nil) -> JSONPathError {
        let written = String(String.UnicodeScalarView(scalars.dropFirst(columnOffset < 0 ? -columnOffset : 0)))
        return JSONPathError(
            reason: reason, column: max(1, (position ?? index) + 1 + columnOffset), expression: written)
    }

    private var describeCurrent: String {
        guard let current else { return "end of expression" }
        return "'\(Character(current))'"
    }

    private mutating func skipBlank() {
        while let c = current, c == " " || c == "\t" || c == "\n" || c == "\r" { index += 1 }
    }

    private mutating func expect(_ scalar: Unicode.Scalar, _ what: String) throws(JSONPathError) {
        guard current == scalar else { throw error("expected \(what), found \(describeCurrent)") }
        index += 1
    }

    // MARK: Queries and segments

    mutating func parseQuery() throws(JSONPathError) -> [Segment] {
        guard current == "$" else { throw error("a query starts with '$', found \(describeCurrent)") }
        index += 1
        let segments = try parseSegments()
        guard current == nil else { throw error("unexpected \(describeCurrent)") }
        return segments
    }

    private mutating func parseSegments() throws(JSONPathError) -> [Segment] {
        var segments: [Segment] = []
        while true {
            let save = index
            skipBlank()
            guard let c = current, c == "." || c == "[" else {
                index = save
                return segments
            }
            segments.append(try parseSegment())
        }
    }

    private mutating func parseSegment() throws(JSONPathError) -> Segment {
        if current == "[" { return .child(try parseBracketed()) }
        index += 1  // "."
        if current == "." {
            index += 1
            if current == "[" { return .descendant(try parseBracketed()) }
            if current == "*" {
                index += 1
                return .descendant([.wildcard])
            }
            return .descendant([.name(try parseMemberName())])
        }
        if current == "*" {
            index += 1
            return .child([.wildcard])
        }
        return .child([.name(try parseMemberName())])
    }

    private static func isNameFirst(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" || (0x80...0xD7FF).contains(c.value)
            || (0xE000...0x10FFFF).contains(c.value)
    }

    private mutating func parseMemberName() throws(JSONPathError) -> String {
        guard let first = current, Self.isNameFirst(first) else {
            throw error("expected a member name, '*' or '[' after '.', found \(describeCurrent)")
        }
        var name = String.UnicodeScalarView()
        while let c = current, Self.isNameFirst(c) || ("0"..."9").contains(c) {
            name.append(c)
            index += 1
        }
        return String(name)
    }

    private mutating func parseBracketed() throws(JSONPathError) -> [Selector] {
        index += 1  // "["
        var selectors: [Selector] = []
        while true {
            skipBlank()
            selectors.append(try parseSelector())
            skipBlank()
            if current == "," {
                index += 1
                continue
            }
            try expect("]", "',' or ']'")
            return selectors
        }
    }

    private mutating func parseSelector() throws(JSONPathError) -> Selector {
        switch current {
        case "'", "\"":
            return .name(try parseStringLiteral())
        case "*":
            index += 1
            return .wildcard
        case "?":
            index += 1
            skipBlank()
            return .filter(try parseLogicalOr())
        case "-", ":", .some("0"..."9"):
            return try parseIndexOrSlice()
        default:
            throw error("expected a selector (name, index, slice, '*' or filter), found \(describeCurrent)")
        }
    }

    private mutating func parseIndexOrSlice() throws(JSONPathError) -> Selector {
        let start = current == ":" ? nil : try parseInteger()
        skipBlank()
        guard current == ":" else {
            guard let start else { throw error("expected an index") }
            return .index(start)
        }
        index += 1
        skipBlank()
        var end: Int?
        if let c = current, c == "-" || ("0"..."9").contains(c) { end = try parseInteger() }
        skipBlank()
        var step: Int?
        if current == ":" {
            index += 1
            skipBlank()
            if let c = current, c == "-" || ("0"..."9").contains(c) { step = try parseInteger() }
        }
        return .slice(start: start, end: end, step: step)
    }

    /// An integer as RFC 9535 allows: no leading zeros, no `-0`, within ±(2⁵³−1).
    private mutating func parseInteger() throws(JSONPathError) -> Int {
        let start = index
        var negative = false
        if current == "-" {
            negative = true
            index += 1
        }
        guard let first = current, ("0"..."9").contains(first) else { throw error("expected a digit") }
        if first == "0" {
            index += 1
            if negative { throw error("-0 is not a valid index", at: start) }
            if let c = current, ("0"..."9").contains(c) { throw error("leading zeros are not allowed", at: start) }
            return 0
        }
        var value = 0
        while let c = current, ("0"..."9").contains(c) {
            value = value &* 10 &+ Int(c.value - 48)
            index += 1
            if value > 9_007_199_254_740_991 { throw error("integer out of range (±2^53-1)", at: start) }
        }
        return negative ? -value : value
    }

    // MARK: String literals

    private mutating func parseStringLiteral() throws(JSONPathError) -> String {
        let quote = current!
        index += 1
        var out = String.UnicodeScalarView()
        while true {
            guard let c = current else { throw error("unterminated string literal") }
            index += 1
            if c == quote { return String(out) }
            if c == "\\" {
                guard let escaped = current else { throw error("unterminated escape") }
                index += 1
                switch escaped {
                case "b": out.append("\u{8}")
                case "f": out.append("\u{C}")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "/": out.append("/")
                case "\\": out.append("\\")
                case "u": out.append(try parseUnicodeEscape())
                case _ where escaped == quote: out.append(escaped)
                default: throw error("invalid escape '\\\(Character(escaped))'", at: index - 2)
                }
            } else if c.value < 0x20 {
                throw error("control character in string literal (escape it)", at: index - 1)
            } else {
                out.append(c)
            }
        }
    }

    private mutating func parseHex4() throws(JSONPathError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = current, let digit = Int(String(Character(c)), radix: 16) else {
                throw error("expected 4 hex digits in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(JSONPathError) -> Unicode.Scalar {
        let high = try parseHex4()
        if (0xDC00...0xDFFF).contains(high) { throw error("lone low surrogate in \\u escape") }
        if (0xD800...0xDBFF).contains(high) {
            guard current == "\\", peek(1) == "u" else { throw error("high surrogate without a low one") }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("high surrogate without a low one") }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        return Unicode.Scalar(high)!
    }

    // MARK: Filter expressions

    private mutating func parseLogicalOr() throws(JSONPathError) -> LogicalExpression {
        try parseChain(of: "|")
    }

    /// Terms joined by `||` (whose terms are `&&` chains) or by `&&` (whose terms are basic expressions).
    private mutating func parseChain(of symbol: Unicode.Scalar) throws(JSONPathError) -> LogicalExpression {
        func term(_ parser: inout JSONPathParser) throws(JSONPathError) -> LogicalExpression {
            symbol == "|" ? try parser.parseChain(of: "&") : try parser.parseBasic()
        }
        var terms = [try term(&self)]
        while true {
            let save = index
            skipBlank()
            guard current == symbol, peek(1) == symbol else {
                index = save
                break
            }
            index += 2
            skipBlank()
            terms.append(try term(&self))
        }
        if terms.count == 1 { return terms[0] }
        return symbol == "|" ? .or(terms) : .and(terms)
    }

    private mutating func parseBasic() throws(JSONPathError) -> LogicalExpression {
        if current == "!" {
            index += 1
            skipBlank()
            if current == "(" { return .not(try parseParenthesized()) }
            let start = index
            let operand = try parseOperand()
            return .not(try testExpression(operand, at: start))
        }
        if current == "(" { return try parseParenthesized() }
        let start = index
        let left = try parseOperand()
        let save = index
        skipBlank()
        if let op = parseComparisonOperator() {
            skipBlank()
            let rightStart = index
            let right = try parseOperand()
            return .comparison(try comparable(left, at: start), op, try comparable(right, at: rightStart))
        }
        index = save
        return try testExpression(left, at: start)
    }

    private mutating func parseParenthesized() throws(JSONPathError) -> LogicalExpression {
        index += 1
        skipBlank()
        let inner = try parseLogicalOr()
        skipBlank()
        try expect(")", "')'")
        return inner
    }

    private mutating func parseComparisonOperator() -> ComparisonOperator? {
        let pairs: [(String, ComparisonOperator)] = [
            ("==", .equal), ("!=", .notEqual), ("<=", .lessOrEqual), (">=", .greaterOrEqual), ("<", .less),
            (">", .greater),
        ]
        for (text, op) in pairs {
            let operatorScalars = Array(text.unicodeScalars)
            if (0..<operatorScalars.count).allSatisfy({ peek($0) == operatorScalars[$0] }) {
                index += operatorScalars.count
                return op
            }
        }
        return nil
    }

    /// What may stand on either side of a comparison or alone as a test, before its role is known.
    private enum Operand {
        case literal(JSON)
        case query(FilterQuery)
        case function(FunctionCall)
    }

    private mutating func parseOperand() throws(JSONPathError) -> Operand {
        switch current {
        case "@", "$":
            let relative = current == "@"
            index += 1
            return .query(FilterQuery(relative: relative, segments: try parseSegments()))
        case "'", "\"":
            return .literal(.string(try parseStringLiteral()))
        case "-", .some("0"..."9"):
            return .literal(try parseNumberLiteral())
        case .some("a"..."z"):
            let start = index
            var word = ""
            while let c = current, ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "_" {
                word.unicodeScalars.append(c)
                index += 1
            }
            if current == "(" {
                guard let function = JSONPathFunction(rawValue: word) else {
                    throw error("unknown function '\(word)'", at: start)
                }
                return .function(try parseFunctionArguments(function, at: start))
            }
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default: throw error("unexpected '\(word)'", at: start)
            }
        default:
            throw error("expected a query, literal or function, found \(describeCurrent)")
        }
    }

    private mutating func parseNumberLiteral() throws(JSONPathError) -> JSON {
        let start = index
        var text = ""
        func take() {
            text.unicodeScalars.append(current!)
            index += 1
        }
        if current == "-" { take() }
        guard let first = current, ("0"..."9").contains(first) else { throw error("expected a digit") }
        take()
        if first != "0" {
            while let c = current, ("0"..."9").contains(c) { take() }
        } else if let c = current, ("0"..."9").contains(c) {
            throw error("leading zeros are not allowed", at: start)
        }
        if current == "." {
            take()
            guard let c = current, ("0"..."9").contains(c) else { throw error("expected a digit after '.'") }
            while let c = current, ("0"..."9").contains(c) { take() }
        }
        if current == "e" || current == "E" {
            take()
            if current == "+" || current == "-" { take() }
            guard let c = current, ("0"..."9").contains(c) else { throw error("expected a digit in exponent") }
            while let c = current, ("0"..."9").contains(c) { take() }
        }
        return .number(text)
    }

    private mutating func parseFunctionArguments(
        _ function: JSONPathFunction, at start: Int
    ) throws(JSONPathError)
        -> FunctionCall
    {
        index += 1  // "("
        skipBlank()
        var arguments: [FunctionArgument] = []
        if current != ")" {
            while true {
                let argumentStart = index
                let parameter = arguments.count < function.parameters.count ? function.parameters[arguments.count] : nil
                arguments.append(try parseArgument(for: parameter, function: function, at: argumentStart))
                skipBlank()
                if current == "," {
                    index += 1
                    skipBlank()
                    continue
                }
                break
            }
        }
        try expect(")", "')' or ','")
        guard arguments.count == function.parameters.count else {
            throw error(
                "\(function.rawValue)() takes \(function.parameters.count) argument(s), not \(arguments.count)",
                at: start)
        }
        return FunctionCall(function: function, arguments: arguments)
    }

    private mutating func parseArgument(
        for parameter: JSONPathFunction.ParameterType?, function: JSONPathFunction, at start: Int
    ) throws(JSONPathError) -> FunctionArgument {
        // A single literal, query or function call is taken as itself; anything more is a logical expression.
        let save = index
        if let operand = try? parseOperand() {
            let after = index
            skipBlank()
            if current == "," || current == ")" {
                index = after
                let argument: FunctionArgument
                switch operand {
                case .literal(let value): argument = .literal(value)
                case .query(let query): argument = .query(query)
                case .function(let call): argument = .function(call)
                }
                return try check(argument, against: parameter, function: function, at: start)
            }
        }
        index = save
        return try check(.logical(try parseLogicalOr()), against: parameter, function: function, at: start)
    }

    private func check(
        _ argument: FunctionArgument, against parameter: JSONPathFunction.ParameterType?, function: JSONPathFunction,
        at start: Int
    ) throws(JSONPathError) -> FunctionArgument {
        guard let parameter else { return argument }
        let fits: Bool
        switch (parameter, argument) {
        case (.value, .literal): fits = true
        case (.value, .query(let query)): fits = query.isSingular
        case (.value, .function(let call)): fits = call.function.result == .value
        case (.nodes, .query): fits = true
        case (.logical, .logical), (.logical, .query): fits = true
        case (.logical, .function(let call)): fits = call.function.result == .logical
        default: fits = false
        }
        guard fits else {
            throw error("argument of \(function.rawValue)() has the wrong type", at: start)
        }
        return argument
    }

    /// Literal operands reach here only as function arguments; elsewhere a literal alone is no test.
    private func testExpression(_ operand: Operand, at start: Int) throws(JSONPathError) -> LogicalExpression {
        switch operand {
        case .query(let query):
            return .existence(query)
        case .function(let call):
            guard call.function.result == .logical else {
                throw error("\(call.function.rawValue)() gives a value, which must be compared", at: start)
            }
            return .function(call)
        case .literal:
            throw error("a literal must be compared with something", at: start)
        }
    }

    private func comparable(_ operand: Operand, at start: Int) throws(JSONPathError) -> ComparableOperand {
        switch operand {
        case .literal(let value):
            return .literal(value)
        case .query(let query):
            guard query.isSingular else {
                throw error("only a singular query (names and indexes) can be compared", at: start)
            }
            return .query(query)
        case .function(let call):
            guard call.function.result == .value else {
                throw error("\(call.function.rawValue)() gives a logical result, which cannot be compared", at: start)
            }
            return .function(call)
        }
    }
}
