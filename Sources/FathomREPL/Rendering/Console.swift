/// Where the loop writes what it rendered: a terminal, plain standard streams, or a buffer in
/// tests. Only the prompt loop, the script runner and replay write to it.
public protocol Console: SecretPrompter {
    /// Writes to standard output.
    func write(_ text: String)
    /// Writes to standard error.
    func writeError(_ text: String)
    /// Whether a person is at a terminal (prompts without echo and the pager are possible).
    var isInteractive: Bool { get }
    /// The terminal's height in rows; 0 when unknown.
    var rows: Int { get }
    /// The terminal's width in columns, which long sentences are wrapped to; 0 when unknown.
    var columns: Int { get }
    /// Shows `text` through the pager; returns `false` when no pager could run.
    func page(_ text: String) -> Bool
    /// Whether a prompt without echo is waiting for a person to type: nothing else may draw on
    /// the line meanwhile (the slow line's notice waits).
    var isAskingForSecret: Bool { get }
}

extension Console {
    public func page(_ text: String) -> Bool { false }
    public func readSecret(prompt: String) async -> String? { nil }
    public var rows: Int { 0 }
    public var columns: Int { 0 }
    public var canAskForSecrets: Bool { isInteractive }
    public var isAskingForSecret: Bool { false }
}
