@_spi(Fathom) import FathomJSON

/// The words after a command name, consumed one at a time, with the raw text still at hand for
/// commands that take the rest of the line as written (`header`, `body`, `set`).
struct Arguments {
    private(set) var raw: Substring
    private(set) var column: Int
    let command: String

    init(raw: Substring, column: Int, command: String) {
        self.raw = raw
        self.column = column
        self.command = command
    }

    /// `usage: SYNOPSIS` from the command's spec: the one copy of its usage.
    var usage: String? { CommandRegistry.spec(named: command).map { "usage: \($0.synopsis)" } }

    var isEmpty: Bool { raw.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" } || raw.first == "#" }

    /// The next word, or `nil` at the end.
    mutating func optionalWord() throws(CommandError) -> Word? {
        // The next word only: what follows is read when it is asked for (raw, by some commands).
        guard let first = try Tokenizer.scan(raw, firstColumn: column, limit: 1).first else {
            raw = raw[raw.endIndex...]
            return nil
        }
        // By scalars: a word may end where a Character does not (a blank with a combining mark).
        let rest = raw.unicodeScalars[first.end...]
        let trimmed = rest.drop { $0 == " " || $0 == "\t" }
        column = first.endColumn + rest.distance(from: rest.startIndex, to: trimmed.startIndex)
        raw = Substring(trimmed)
        return first.word
    }

    /// The next word; an error naming `what` when there is none.
    mutating func word(_ what: String) throws(CommandError) -> Word {
        guard let word = try optionalWord() else {
            throw CommandError(.parse, "missing \(what)", column: column, hint: usage)
        }
        return word
    }

    /// The only remaining word.
    mutating func single(_ what: String) throws(CommandError) -> Word {
        let word = try word(what)
        try end()
        return word
    }

    /// All remaining words.
    mutating func words() throws(CommandError) -> [Word] {
        let words = try Tokenizer.words(raw, firstColumn: column)
        raw = raw[raw.endIndex...]
        return words
    }

    /// Fails when anything is left.
    mutating func end() throws(CommandError) {
        let left = try Tokenizer.words(raw, firstColumn: column)
        if let extra = left.first {
            throw CommandError(.parse, .unexpected(word: extra.text), column: extra.column, hint: usage)
        }
    }

    /// The rest of the line as written, blanks around it taken off.
    mutating func rest() -> String {
        defer { raw = raw[raw.endIndex...] }
        return raw.trimmingBlanks
    }

    /// `= VALUE` (or just `VALUE`): the value as written, one pair of surrounding quotes removed.
    mutating func afterEquals() throws(CommandError) -> String {
        var text = raw
        if text.first == "=" {
            text = text.dropFirst().drop { $0 == " " || $0 == "\t" }
        }
        guard !text.isEmpty else {
            throw CommandError(.parse, .missing("value"), column: column, hint: "write NAME = VALUE")
        }
        raw = raw[raw.endIndex...]
        return CommandParser.unquote(String(text).trimmingTrailingBlanks)
    }

    mutating func optionalChoice<Choice: RawRepresentable & CaseIterable>(
        _: Choice.Type
    ) throws(CommandError)
        -> Choice? where Choice.RawValue == String
    {
        guard let word = try optionalWord() else { return nil }
        try end()
        guard let choice = Choice(rawValue: word.text.lowercased()) else {
            throw badChoice(word, Choice.allCases.map(\.rawValue))
        }
        return choice
    }

    mutating func optionalSwitch() throws(CommandError) -> Bool? {
        guard let word = try optionalWord() else { return nil }
        try end()
        switch word.text.lowercased() {
        case "on", "true", "yes": return true
        case "off", "false", "no": return false
        default: throw badChoice(word, ["on", "off"])
        }
    }

    mutating func setting<Value>(_ parse: (Word) throws(CommandError) -> Value) throws(CommandError) -> Setting<Value> {
        guard let word = try optionalWord() else { return .show }
        try end()
        if word.text.lowercased() == "off" { return .off }
        return .set(try parse(word))
    }

    func badChoice(_ word: Word, _ choices: [String]) -> CommandError {
        CommandError(
            .parse,
            .unknown(
                kind: "\(command) option", word: word.text,
                suggestion: Spelling.closest(to: word.text, among: choices)),
            column: word.column, hint: "expected \(choices.joined(separator: ", "))")
    }
}

extension String {
    var trimmingTrailingBlanks: String {
        var copy = self
        while let last = copy.last, last == " " || last == "\t" { copy.removeLast() }
        return copy
    }
}
