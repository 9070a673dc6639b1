/// Asks a person for a secret without echo: a terminal, or nobody.
public protocol SecretPrompter: Sendable {
    /// Reads a line without echo after showing `prompt`; `nil` when nobody can answer.
    func readSecret(prompt: String) async -> String?
    /// Whether ``readSecret(prompt:)`` can ask a person (a terminal is there to type on).
    var canAskForSecrets: Bool { get }
}

/// Nobody to ask: scripts without a terminal, tests.
public struct NoPrompter: SecretPrompter {
    public init() {}
    public func readSecret(prompt: String) async -> String? { nil }
    public var canAskForSecrets: Bool { false }
}
