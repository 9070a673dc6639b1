/// The closest of some names to a misspelt one: what "did you mean" hints are made from, for
/// commands and options in the REPL as for parameters and operationIds of an API description.
/// Shared by Fathom's modules; not part of the JSON API.
@_spi(Fathom) public enum Spelling {
    /// The candidate closest to `word` (case ignored), if one is close enough to be a slip: at most
    /// two edits, and fewer for short names.
    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            // More than two letters apart in length is more than two edits: not worth computing
            // (a pasted megabyte is no misspelling).
            guard abs(lowered.count - candidate.count) <= 2 else { continue }
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= max(1, min(2, candidate.count / 3)), distance < (best?.1 ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.0
    }

    /// Damerau–Levenshtein distance (adjacent transpositions count as one edit).
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
