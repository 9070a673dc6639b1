/// A credential fetched once and shared: callers that need it while a fetch is under way wait for
/// that fetch instead of starting their own. Used by ``BearerTokenAuthenticator`` and
/// ``OAuth2ClientCredentials`` and ``OAuth2Authenticator``.
actor CredentialCache<Value: Sendable> {
    private var value: Value?
    private var pending: Task<Value, any Error>?
    /// Whether a cached value is still good (an OAuth2 token expires).
    private let isUsable: @Sendable (Value) -> Bool

    /// - Parameters:
    ///   - value: A value to start with (tokens a flow already got).
    ///   - isUsable: Whether a cached value is still good.
    init(_ value: Value? = nil, isUsable: @escaping @Sendable (Value) -> Bool = { _ in true }) {
        self.value = value
        self.isUsable = isUsable
    }

    /// The cached value when it is good, else `fetch`'s — one fetch for all who ask meanwhile.
    func value(orFetch fetch: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let current { return current }
        if let pending { return try await pending.value }
        let task = Task { try await fetch() }
        pending = task
        defer { pending = nil }
        let fetched = try await task.value
        value = fetched
        return fetched
    }

    /// The cached value, if it is good now.
    var current: Value? {
        guard let value, isUsable(value) else { return nil }
        return value
    }

    func clear() { value = nil }
}
