/// How much of each exchange the wire log shows.
///
/// Everything shown is masked by the ``Redactor``.
public enum LogDetail: String, CaseIterable, Comparable, Sendable {
    /// Nothing is logged.
    case off
    /// The request line, the status, the time and the size.
    case info
    /// As `info`, plus request and response headers.
    case headers
    /// As `headers`, plus request and response bodies (the first 64 KiB of each).
    case body

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    /// Whether `lhs` shows less than `rhs`.
    public static func < (lhs: LogDetail, rhs: LogDetail) -> Bool { lhs.rank < rhs.rank }
}
