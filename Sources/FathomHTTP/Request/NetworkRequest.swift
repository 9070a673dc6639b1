import Foundation

/// A description of an HTTP request, built with chainable builders.
///
/// ```swift
/// let request = NetworkRequest.post("/users")
///     .query("notify", true)
///     .header(.accept, "application/json")
///     .body(json: NewUser(name: "Ada"))
/// ```
///
/// The target is a path resolved against the client's base URL, or a full `http(s)` URL. Nothing is
/// checked while building: ``prepared(baseURL:)`` validates the whole request and explains what is
/// wrong (a body on `GET`, a bad URL, a JSON value that cannot be encoded).
public struct NetworkRequest: Hashable, Sendable {
    /// The method; `GET` by default.
    public var method: HTTPMethod
    /// A path relative to the base URL (`/users/42`, `users`), or a full URL.
    public var target: String
    /// Query items appended to any query the target already has.
    public var queryItems: [QueryItem]
    /// Header fields of this request.
    ///
    /// Interceptors may add more.
    public var headers: NetworkHeaders
    /// The body, or `nil`.
    public var body: RequestBody?
    /// The longest the whole request may take; `nil` uses the transport's default.
    public var timeout: Duration?
    /// A problem found while building (for example a value that could not be encoded as JSON),
    /// reported when the request is prepared.
    var buildProblem: String?

    /// A request to `target`: a path resolved against the client's base URL, or a full URL.
    public init(_ target: String = "", method: HTTPMethod = .get) {
        self.method = method
        self.target = target
        self.queryItems = []
        self.headers = NetworkHeaders()
        self.body = nil
        self.timeout = nil
    }

    // MARK: - Starting a request

    /// A `GET` request to `target`.
    public static func get(_ target: String) -> NetworkRequest { NetworkRequest(target, method: .get) }
    /// A `POST` request to `target`.
    public static func post(_ target: String) -> NetworkRequest { NetworkRequest(target, method: .post) }
    /// A `PUT` request to `target`.
    public static func put(_ target: String) -> NetworkRequest { NetworkRequest(target, method: .put) }
    /// A `PATCH` request to `target`.
    public static func patch(_ target: String) -> NetworkRequest { NetworkRequest(target, method: .patch) }
    /// A `DELETE` request to `target`.
    public static func delete(_ target: String) -> NetworkRequest { NetworkRequest(target, method: .delete) }
    /// A `HEAD` request to `target`.
    public static func head(_ target: String) -> NetworkRequest { NetworkRequest(target, method: .head) }
    /// An `OPTIONS` request to `target`.
    public static func options(_ target: String) -> NetworkRequest { NetworkRequest(target, method: .options) }

    // MARK: - Builders

    /// Sets the method.
    public func method(_ method: HTTPMethod) -> NetworkRequest {
        var copy = self
        copy.method = method
        return copy
    }

    /// Replaces the target: a path relative to the base URL, or a full URL.
    public func path(_ target: String) -> NetworkRequest {
        var copy = self
        copy.target = target
        return copy
    }

    /// Adds a header field, keeping earlier fields of the same name.
    public func header(_ name: NetworkHeaders.Name, _ value: String) -> NetworkRequest {
        var copy = self
        copy.headers.add(name, value)
        return copy
    }

    /// Sets a header field, replacing earlier fields of the same name.
    public func setHeader(_ name: NetworkHeaders.Name, _ value: String) -> NetworkRequest {
        var copy = self
        copy.headers.replace(name, with: value)
        return copy
    }

    /// Removes every header field of this name.
    public func removingHeader(_ name: NetworkHeaders.Name) -> NetworkRequest {
        var copy = self
        copy.headers.remove(name)
        return copy
    }

    /// Sets the timeout for the whole request.
    public func timeout(_ timeout: Duration) -> NetworkRequest {
        var copy = self
        copy.timeout = timeout
        return copy
    }
}
