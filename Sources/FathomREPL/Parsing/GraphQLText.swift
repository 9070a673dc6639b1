/// How a line holding a GraphQL operation is read: whether a line starts one, how deep its
/// braces are open (the prompt goes on reading while they are), and where the document ends and
/// the line's variables begin. Braces inside strings, block strings and comments do not count.
enum GraphQLText {
    /// Whether `line` starts a GraphQL operation: `{`, `mutation`, `subscription`, or `query`
    /// followed by what only an operation has after it — `{`, `(`, a name then `{`, `(` or
    /// `@`, or `@FILE.graphql` — so `query name=value` stays the draft's query items.
    static func startsOperation(_ line: String) -> Bool {
        let text = line.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        // `{{` is a variable (`query {{name}}=1`): GraphQL never opens two braces at once.
        if text.first == "{" { return !text.hasPrefix("{{") }
        let keyword = text.prefix { $0.isLetter }
        let after = text.dropFirst(keyword.count)
        guard
            after.isEmpty || after.first == " " || after.first == "\t" || after.first == "{" || after.first == "("
                || after.first == "\n"
        else { return false }
        switch keyword {
        case "mutation", "subscription": return true
        case "query":
            let rest = after.drop { $0 == " " || $0 == "\t" }
            guard let first = rest.first else { return false }
            if first == "{" { return !rest.hasPrefix("{{") }
            if first == "(" { return true }
            if first == "@" {
                let file = rest.dropFirst().prefix { $0 != " " && $0 != "\t" }.lowercased()
                return file.hasSuffix(".graphql") || file.hasSuffix(".gql")
            }
            let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            guard !name.isEmpty else { return false }
            let next = rest.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }.first
            return next == "{" || next == "(" || next == "@"
        default: return false
        }
    }

    /// How many braces and parentheses `text` leaves open (negative: closed more than opened).
    static func depth(_ text: String) -> Int {
        var depth = 0
        scan(text) { character, _ in
            if character == "{" || character == "(" { depth += 1 }
            if character == "}" || character == ")" { depth -= 1 }
            return true
        }
        return depth
    }

    /// Where the document in `text` ends: after the brace that closes its last definition, when
    /// what follows is not another definition (`query`, `mutation`, `subscription`, `fragment`,
    /// `{`). What follows is the line's words: the operation's name and its variables.
    static func documentEnd(_ text: String) -> String.Index {
        var depth = 0
        var end = text.endIndex
        scan(text) { character, index in
            if character == "{" || character == "(" { depth += 1 }
            if character == "}" || character == ")" { depth -= 1 }
            guard character == "}", depth == 0 else { return true }
            let after = text.index(after: index)
            let rest = text[after...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "," }
            let word = rest.prefix { $0.isLetter }
            if rest.first == "{" || ["query", "mutation", "subscription", "fragment"].contains(word) {
                return true
            }
            end = after
            return false
        }
        return end
    }

    /// Calls `visit` with each character outside strings and comments, until it returns false.
    private static func scan(_ text: String, _ visit: (Character, String.Index) -> Bool) {
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "#" {
                // A comment runs to the end of its line.
                index = text[index...].firstIndex { $0 == "\n" || $0 == "\r" } ?? text.endIndex
                continue
            }
            if character == "\"" {
                index = stringEnd(text, from: index)
                continue
            }
            guard visit(character, index) else { return }
            index = text.index(after: index)
        }
    }

    /// The index after the string starting at `start` (`"…"` with escapes, or `"""…"""`).
    private static func stringEnd(_ text: String, from start: String.Index) -> String.Index {
        if text[start...].hasPrefix("\"\"\"") {
            var index = text.index(start, offsetBy: 3)
            while index < text.endIndex {
                if text[index...].hasPrefix("\\\"\"\"") {
                    index = text.index(index, offsetBy: 4)
                } else if text[index...].hasPrefix("\"\"\"") {
                    return text.index(index, offsetBy: 3)
                } else {
                    index = text.index(after: index)
                }
            }
            return text.endIndex
        }
        var index = text.index(after: start)
        while index < text.endIndex {
            let character = text[index]
            if character == "\\" {
                index = text.index(after: index)
                if index < text.endIndex { index = text.index(after: index) }
                continue
            }
            // A string ends at its quote, or (unterminated) at the end of its line.
            if character == "\"" { return text.index(after: index) }
            if character == "\n" || character == "\r" { return index }
            index = text.index(after: index)
        }
        return text.endIndex
    }
}
