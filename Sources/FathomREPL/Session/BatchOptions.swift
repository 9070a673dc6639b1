import FathomHTTP

/// The flags that make a request a batch: `--repeat N`, `--concurrency C` (`-c C`),
/// `--duration 30s`, `--rate 50/s` and `--data rows.csv`, on `send` and on the one-liners.
struct BatchOptions: Equatable, Sendable {
    var count: Int?
    var concurrency: Int?
    var duration: Duration?
    /// Requests per second.
    var rate: Double?
    /// A CSV file: one request per row, its columns as `{{name}}`s.
    var data: String?

    /// The most a batch may ask for at once: far past any loopback server's connection limit.
    static let maxConcurrency = 4096

    static let flags = ["--repeat", "--concurrency", "-c", "--duration", "--rate", "--data"]

    /// Takes the batch flags (each with its value) out of `words`; `nil` when there are none.
    static func take(from words: inout [Word]) throws(CommandError) -> BatchOptions? {
        var options = BatchOptions()
        var found = false
        var index = 0
        while index < words.count {
            let flag = words[index]
            guard !flag.quoted, flags.contains(flag.text) else {
                index += 1
                continue
            }
            guard index + 1 < words.count else {
                throw CommandError(.parse, "\(flag.text) needs a value", column: flag.column, hint: hint(flag.text))
            }
            let value = words[index + 1]
            switch flag.text {
            case "--repeat": options.count = try positive(value, of: flag.text, limit: Int.max)
            case "--concurrency", "-c": options.concurrency = try positive(value, of: flag.text, limit: maxConcurrency)
            case "--duration": options.duration = try DurationText.parse(value, hint: "write 30s or 2m")
            case "--rate": options.rate = try rate(value)
            default: options.data = value.text
            }
            words.removeSubrange(index...(index + 1))
            found = true
        }
        return found ? options : nil
    }

    /// The plan the library sends by; `rows` is the data file's row count, when there is one.
    func plan(rows: Int?) -> BatchPlan {
        var count = self.count
        // One request per row, unless a count or a duration says how many (rows then cycle).
        if count == nil, duration == nil, let rows { count = rows }
        return BatchPlan(count: count, duration: duration, rate: rate, maxConcurrent: maxConcurrent)
    }

    /// The most requests in flight: `-c`, else one at a time — or with a rate, as many as the
    /// schedule needs up to ``rateConcurrency``, so a slow server does not quietly slow the
    /// schedule down (an open model, as wrk2 and vegeta send).
    var maxConcurrent: Int { concurrency ?? (rate == nil ? 1 : Self.rateConcurrency) }

    /// How many a rate keeps in flight at most when `-c` does not say.
    static let rateConcurrency = 256

    /// How many requests the plan means to send, when it says (a count, or a rate for a duration).
    var planned: Int? {
        if let count { return count }
        guard let rate, let duration else { return nil }
        let planned = (rate * duration.seconds).rounded(.up)
        return planned < Double(Int.max) ? Int(planned) : nil
    }

    /// The flags as a line writes them, each with its value.
    var words: [String] {
        var words: [String] = []
        if let count { words += ["--repeat", String(count)] }
        if let concurrency { words += ["--concurrency", String(concurrency)] }
        if let duration { words += ["--duration", DurationText.word(duration)] }
        if let rate { words += ["--rate", Self.rateWord(rate)] }
        if let data { words += ["--data", Quoting.word(data)] }
        return words
    }

    static func rateWord(_ rate: Double) -> String {
        rate == rate.rounded() ? "\(Int(rate))/s" : "\(rate)/s"
    }

    private static func hint(_ flag: String) -> String {
        switch flag {
        case "--duration": "e.g. --duration 30s"
        case "--rate": "e.g. --rate 50/s"
        case "--data": "e.g. --data rows.csv"
        default: "e.g. \(flag) 10"
        }
    }

    private static func positive(_ word: Word, of flag: String, limit: Int) throws(CommandError) -> Int {
        guard let number = Int(word.text), number > 0 else {
            throw CommandError(.parse, "\(flag) takes a whole number above 0, not '\(word.text)'", column: word.column)
        }
        guard number <= limit else {
            throw CommandError(.parse, "\(flag) is at most \(limit)", column: word.column)
        }
        return number
    }

    /// `50/s`, `600/m`, `2/h` or a bare `50` (per second).
    private static func rate(_ word: Word) throws(CommandError) -> Double {
        var text = Substring(word.text.lowercased())
        var per = 1.0
        for (suffix, seconds) in [("/s", 1.0), ("/m", 60.0), ("/min", 60.0), ("/h", 3600.0)]
        where text.hasSuffix(suffix) {
            text = text.dropLast(suffix.count)
            per = seconds
            break
        }
        guard let count = Double(text), count.isFinite, count > 0 else {
            throw CommandError(
                .parse, .invalid(kind: "rate", value: word.text), column: word.column, hint: "write 50/s or 600/m")
        }
        let rate = count / per
        guard (Self.slowestRate...Self.fastestRate).contains(rate) else {
            throw CommandError(
                .parse, "rate '\(word.text)' is out of range", column: word.column,
                hint: "from one request in 365 days to 1,000,000/s")
        }
        return rate
    }

    /// The slowest rate a batch takes: one request in 365 days (the longest `--duration`).
    static let slowestRate = 1.0 / (365 * 86_400)
    /// The fastest: far past what one machine sends, and still a whole number of requests a second.
    static let fastestRate = 1_000_000.0
}
