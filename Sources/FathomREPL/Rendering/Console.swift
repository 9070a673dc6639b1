/// Where the executor's output goes and how it asks for hidden input: a terminal, plain standard
/// streams, or a buffer in tests.
public protocol Console: Sendable {
    /// Writes to standard output.
    func write(_ text: String)
    /// Writes to standard error.
    func writeError(_ text: String)
    /// Whether a person is at a terminal (prompts without echo and the pager are possible).
    var isInteractive: Bool { get }
    /// The terminal's height in rows; 0 when unknown.
    var rows: Int { get }
    /// Shows `text` through the pager; returns `false` when no pager could run.
    func page(_ text: String) -> Bool
    /// Reads a line without echo after showing `prompt`; `nil` when there is no terminal.
    func readSecret(prompt: String) async -> String?
    /// Whether ``readSecret(prompt:)`` can ask a person (a terminal is there to type on).
    var canAskForSecrets: Bool { get }
}

extension Console {
    public func page(_ text: String) -> Bool { false }
    public func readSecret(prompt: String) async -> String? { nil }
    public var rows: Int { 0 }
    public var canAskForSecrets: Bool { isInteractive }
}
