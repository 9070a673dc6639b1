import FathomGraphQL

/// Tab in a GraphQL operation: what the schema allows where the cursor is — the fields of the
/// type whose selection it is in, a field's arguments inside its parentheses, an enum's values or
/// the declared variables after an argument's colon, directives after `@`, types after `on`.
struct GraphQLCompletion {
    let index: SchemaIndex

    /// What the text before the cursor is in.
    private enum Place {
        /// A selection of this type: its fields.
        case selection(String)
        /// The arguments of a field of `type`.
        case arguments(type: String, field: String)
        /// The value of an argument of that type.
        case value(TypeReference?)
    }

    func complete(_ line: String) -> Completer.Completion {
        let tokens = Self.tokens(line)
        let endsInWord = line.last.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" || $0 == "@" } ?? false
        let current = endsInWord ? tokens.last ?? "" : ""
        let before = endsInWord ? Array(tokens.dropLast()) : tokens
        if current.hasPrefix("@") {
            let names = index.directives.map { "@" + $0.name }
            return Completer.Completion(word: current, candidates: Completer.matching(names, current, suffix: " "))
        }
        if current.hasPrefix("$") {
            return Completer.Completion(
                word: current, candidates: Completer.matching(Self.variables(tokens), current, suffix: " "))
        }
        // A spread: the fragments the document defines, and `on` for an inline fragment.
        if before.last == "..." || current.hasPrefix("...") {
            let head = current.hasPrefix("...") ? "..." : ""
            let partial = String(current.dropFirst(head.count))
            let names = Self.fragments(tokens) + (head.isEmpty ? ["on"] : [])
            return Completer.Completion(
                word: current, candidates: Completer.matching(names, partial, suffix: " ").map { head + $0 })
        }
        if before.last == "on" {
            let composite = index.types.values.filter { $0.isComposite && !$0.name.hasPrefix("__") }.map(\.name)
            return Completer.Completion(
                word: current, candidates: Completer.matching(composite.sorted(), current, suffix: " "))
        }
        var candidates: [String] = []
        switch place(before) {
        case .selection(let type)?:
            let fields = (index[type]?.fields ?? []).map(\.name) + ["__typename"]
            candidates = Completer.matching(fields, current, suffix: " ")
        case .arguments(let type, let field)?:
            let arguments = index[type]?.field(field)?.arguments ?? []
            candidates = Completer.matching(arguments.map { $0.name + ":" }, current, suffix: " ")
        case .value(let type?)?:
            let named = index[type.namedType]
            var words = named?.enumValues.map(\.name) ?? []
            if type.namedType == "Boolean" { words = ["true", "false"] }
            candidates = Completer.matching(words, current, suffix: " ")
        case .value(nil)?, nil:
            candidates = []
        }
        return Completer.Completion(word: current, candidates: candidates)
    }

    /// Walks the tokens before the cursor with a stack of selection types: `{` after a field
    /// enters its type, `... on T {` enters T, `}` leaves; `(` after a field enters its arguments.
    private func place(_ tokens: [String]) -> Place? {
        var stack: [String] = []
        var arguments: (type: String, field: String)?
        var argumentName: String?
        /// After `name:` inside arguments, before the value.
        var expectingValue = false
        var lastField: String?
        var pendingType: String?
        var rootKind = OperationKind.query
        var inVariables = false
        for (offset, token) in tokens.enumerated() {
            if offset == 0, let kind = OperationKind(rawValue: token) { rootKind = kind }
            switch token {
            case "{":
                if inVariables { continue }
                if stack.isEmpty {
                    stack.append(index.root(rootKind)?.name ?? "")
                } else if let pending = pendingType {
                    stack.append(pending)
                } else if let parent = stack.last, let field = lastField,
                    let type = index[parent]?.field(field)?.type.namedType
                {
                    stack.append(type)
                } else {
                    stack.append("")
                }
                pendingType = nil
                lastField = nil
            case "}":
                if arguments == nil, !stack.isEmpty { stack.removeLast() }
                lastField = nil
            case "(":
                if stack.isEmpty {
                    inVariables = true
                } else if let parent = stack.last, let field = lastField {
                    arguments = (parent, field)
                }
            case ")":
                inVariables = false
                arguments = nil
                argumentName = nil
                expectingValue = false
            case ":":
                if arguments != nil { expectingValue = true }
            case ",", "[", "]", "!", "=":
                continue
            default:
                if arguments != nil {
                    if expectingValue {
                        expectingValue = false
                    } else {
                        argumentName = token
                    }
                    continue
                }
                if inVariables || stack.isEmpty { continue }
                if offset > 0, tokens[offset - 1] == "on" {
                    pendingType = token
                } else if token != "..." && token != "on" && !token.hasPrefix("@") {
                    lastField = token
                }
            }
        }
        if let arguments {
            guard expectingValue else { return .arguments(type: arguments.type, field: arguments.field) }
            let argument = index[arguments.type]?.field(arguments.field)?.arguments.first { $0.name == argumentName }
            return .value(argument?.type)
        }
        guard let top = stack.last, !top.isEmpty else { return nil }
        return .selection(top)
    }

    /// The fragments the document defines (`fragment Card on User`).
    private static func fragments(_ tokens: [String]) -> [String] {
        tokens.indices.dropLast().filter { tokens[$0] == "fragment" }.map { tokens[$0 + 1] }
    }

    /// The variables the operation declares (`$id`), from its `(…)` before the first `{`.
    private static func variables(_ tokens: [String]) -> [String] {
        let head = tokens.prefix { $0 != "{" }
        return head.filter { $0.hasPrefix("$") && $0.count > 1 }
    }

    /// Names (with a leading `$` or `@`), `...`, and each punctuator, strings and comments skipped.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var word = ""
        var inString = false
        var inComment = false
        var previous: Character?
        for character in text {
            defer { previous = character }
            if inComment {
                if character == "\n" { inComment = false }
                continue
            }
            if inString {
                if character == "\"" && previous != "\\" { inString = false }
                continue
            }
            if character.isLetter || character.isNumber || character == "_" || character == "$" || character == "@"
                || character == "-" || character == "."
            {
                word.append(character)
                continue
            }
            if !word.isEmpty {
                tokens.append(word)
                word = ""
            }
            switch character {
            case "\"": inString = true
            case "#": inComment = true
            case "{", "}", "(", ")", ":", "=", "[", "]", "!", ",": tokens.append(String(character))
            default: continue
            }
        }
        if !word.isEmpty { tokens.append(word) }
        return tokens
    }
}
