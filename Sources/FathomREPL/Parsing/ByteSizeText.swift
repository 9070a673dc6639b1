/// Sizes as people type them: `100MB`, `512KiB`, `2G`, `4096` (bytes). A kilobyte is 1,024
/// bytes whichever spelling is used: these bound files on a disk, not network rates.
enum ByteSizeText {
    /// The largest size the language takes: 1 TiB, far past any bound a person sets here.
    static let maximum = 1 << 40

    /// `text` in bytes; `nil` when it is not a size, or is past ``maximum``.
    static func parse(_ text: String) -> Int? {
        let lowered = text.lowercased().filter { $0 != " " }
        let units: [(String, Int)] = [
            ("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30), ("tib", 1 << 40),
            ("kb", 1 << 10), ("mb", 1 << 20), ("gb", 1 << 30), ("tb", 1 << 40),
            ("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30), ("t", 1 << 40), ("b", 1), ("", 1),
        ]
        for (suffix, scale) in units where lowered.hasSuffix(suffix) {
            guard let value = Double(lowered.dropLast(suffix.count)), value >= 0, value.isFinite else { return nil }
            // Checked as a Double before it becomes an integer: a conversion out of range traps.
            let bytes = (value * Double(scale)).rounded()
            guard bytes <= Double(maximum) else { return nil }
            return Int(bytes)
        }
        return nil
    }
}
