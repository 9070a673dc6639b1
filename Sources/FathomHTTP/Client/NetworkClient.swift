import Foundation
import Logging

/// Sends ``NetworkRequest``s through interceptors and a transport.
///
/// ```swift
/// let client = NetworkClient(baseURL: "https://api.example.com")
/// let user = try await client.value(.get("/users/1"), as: User.self)
/// ```
///
/// `send(_:)` returns every response whatever its status. The decoding variants (``send(_:decoder:)``,
/// ``value(_:as:)``, ``NetworkTask``) treat a non-2xx status as ``NetworkError/httpStatus(_:message:response:)``
/// carrying the best message found in the body, or as the error ``Configuration/errorMapper`` returns.
/// Everything thrown is a ``NetworkError`` with secrets masked by the ``Configuration/redactor``.
public final class NetworkClient: Sendable {
    /// Turns an unsuccessful response into the error to throw; `nil` keeps the default error.
    public typealias ErrorMapper = @Sendable (NetworkResponse<Data>) -> (any Error)?

    /// How a client sends and decodes: base URL, interceptors, decoding, logging and masking.
    public struct Configuration: Sendable {
        /// The URL relative request targets resolve against.
        public var baseURL: String?
        /// Interceptors, outermost first.
        public var interceptors: [any Interceptor]
        /// The decoder `.json` decoding uses when none is given.
        public var jsonDecoder: JSONDecoder
        /// Maps non-2xx responses to errors in the decoding variants.
        public var errorMapper: ErrorMapper?
        /// Where the wire log goes; `nil` (the default) logs nothing.
        public var logger: Logger?
        /// How much the wire log shows.
        ///
        /// `info` by default.
        public var logDetail: LogDetail
        /// Masks secrets in logs and errors.
        public var redactor: Redactor

        /// A configuration; every part has a default (no base URL, no interceptors, no log).
        public init(
            baseURL: String? = nil, interceptors: [any Interceptor] = [], jsonDecoder: JSONDecoder = JSONDecoder(),
            errorMapper: ErrorMapper? = nil, logger: Logger? = nil, logDetail: LogDetail = .info,
            redactor: Redactor = Redactor()
        ) {
            self.baseURL = baseURL
            self.interceptors = interceptors
            self.jsonDecoder = jsonDecoder
            self.errorMapper = errorMapper
            self.logger = logger
            self.logDetail = logDetail
            self.redactor = redactor
        }
    }

    /// How the client sends and decodes.
    public let configuration: Configuration
    /// Where requests go.
    public let transport: any Transport
    private let pipeline: Next
    private let wireLog: WireLog?

    /// A client with the default transport and no base URL.
    public static let shared = NetworkClient()

    /// - Parameters:
    ///   - configuration: Base URL, interceptors, decoding and logging.
    ///   - transport: Where requests go; ``AsyncHTTPClientTransport/shared`` by default.
    public init(configuration: Configuration, transport: any Transport = AsyncHTTPClientTransport.shared) {
        self.configuration = configuration
        self.transport = transport
        let wireLog = configuration.logger.map {
            WireLog(logger: $0, detail: configuration.logDetail, redactor: configuration.redactor)
        }
        self.wireLog = wireLog
        self.pipeline = InterceptorChain.make(
            configuration.interceptors, ending: Self.logged({ try await transport.send($0) }, wireLog))
    }

    /// `ending` with each request, response and failure written to the wire log.
    private static func logged(_ ending: @escaping Next, _ wireLog: WireLog?) -> Next {
        { @Sendable request in
            wireLog?.logRequest(request)
            do {
                let response = try await ending(request)
                wireLog?.logResponse(response)
                return response
            } catch {
                // Mapped here only to be logged: `send` maps what it throws, once.
                if let wireLog { wireLog.logFailure(request, error: NetworkClient.normalize(error, elapsed: nil)) }
                throw error
            }
        }
    }

    /// `request` with every header that carries a secret marked as a credential (dropped when a
    /// redirect leaves the origin).
    private func markingCredentials(_ request: PreparedRequest) -> PreparedRequest {
        var request = request
        let redactor = configuration.redactor
        for field in request.headers
        where redactor.isSecretHeader(field.name) || redactor.redact(field.value) != field.value {
            request.credentialHeaders.insert(field.name)
        }
        return request
    }

    /// A client from the parts of its configuration, most often the base URL and interceptors.
    public convenience init(
        baseURL: String? = nil, interceptors: [any Interceptor] = [], logger: Logger? = nil,
        logDetail: LogDetail = .info, transport: any Transport = AsyncHTTPClientTransport.shared
    ) {
        self.init(
            configuration: Configuration(
                baseURL: baseURL, interceptors: interceptors, logger: logger, logDetail: logDetail),
            transport: transport)
    }

    // MARK: - Sending

    /// Sends `request` and returns the response, whatever its status.
    ///
    /// - Throws: ``NetworkError`` when no response arrives (bad request, connection, timeout,
    ///   cancellation, body too large).
    public func send(_ request: NetworkRequest) async throws(NetworkError) -> NetworkResponse<Data> {
        try await send(try prepared(request))
    }

    /// `request` against the base URL, its error masked.
    func prepared(_ request: NetworkRequest) throws(NetworkError) -> PreparedRequest {
        do {
            return try request.prepared(baseURL: configuration.baseURL)
        } catch {
            throw redacted(error)
        }
    }

    /// Sends a request that is already prepared.
    public func send(_ request: PreparedRequest) async throws(NetworkError) -> NetworkResponse<Data> {
        let start = ContinuousClock.now
        do {
            return try await pipeline(markingCredentials(request))
        } catch {
            throw redacted(Self.normalize(error, elapsed: ContinuousClock.now - start))
        }
    }

    /// Sends a prepared request through this client's interceptors and wire log, with `ending`
    /// in place of the transport: the way a protocol whose wire is not this client's (a gRPC
    /// call over its own HTTP/2 connection) gets what every request gets — an ``Authenticator``'s
    /// credentials (and its one retry after a `401` answer), signing, default headers, and the
    /// wire log, masked.
    ///
    /// ```swift
    /// let response = try await client.send(prepared) { request in
    ///     // request.headers now carry the credentials; make the call with them.
    ///     try await call(with: request.headers)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request as the protocol's call is described to the interceptors.
    ///   - ending: Makes the call with the request the interceptors leave, and answers with a
    ///     response they can read (a `401` to have an authenticator try once more).
    /// - Returns: What `ending` answered.
    /// - Throws: ``NetworkError``, masked, as ``send(_:)-(PreparedRequest)`` throws.
    public func send(
        _ request: PreparedRequest, through ending: @escaping Next
    ) async throws(NetworkError) -> NetworkResponse<Data> {
        let start = ContinuousClock.now
        do {
            return try await InterceptorChain.make(configuration.interceptors, ending: Self.logged(ending, wireLog))(
                markingCredentials(request))
        } catch {
            throw redacted(Self.normalize(error, elapsed: ContinuousClock.now - start))
        }
    }

    /// Sends `request` and decodes a successful response with `decoder`.
    ///
    /// - Throws: ``NetworkError/httpStatus(_:message:response:)`` (or the mapped error) for a non-2xx
    ///   status, ``NetworkError/decodingFailed(type:codingPath:reason:snippet:)``, or any sending error.
    public func send<Decoder: ResponseDecoder>(
        _ request: NetworkRequest, decoder: Decoder
    ) async throws
        -> NetworkResponse<Decoder.Output>
    {
        let response = try await send(request)
        return try decode(response, with: decoder)
    }

    /// Sends `request` and decodes a successful JSON response as `type`.
    public func send<Value: Decodable & Sendable>(
        _ request: NetworkRequest, as type: Value.Type
    ) async throws
        -> NetworkResponse<Value>
    {
        try await send(request, decoder: JSONResponseDecoder(type, decoder: configuration.jsonDecoder))
    }

    /// Sends `request` and returns the decoded JSON value of a successful response.
    public func value<Value: Decodable & Sendable>(
        _ request: NetworkRequest, as type: Value.Type = Value.self
    )
        async throws -> Value
    {
        try await send(request, as: type).body
    }

    /// Checks the status and decodes the body.
    public func decode<Decoder: ResponseDecoder>(
        _ response: NetworkResponse<Data>, with decoder: Decoder
    ) throws
        -> NetworkResponse<Decoder.Output>
    {
        try validate(response)
        do {
            return response.withBody(try decoder.decode(response))
        } catch let error as NetworkError {
            throw redacted(error)
        }
    }

    /// Throws the mapped or default error when the status is not 2xx.
    public func validate(_ response: NetworkResponse<Data>) throws {
        guard !response.status.isSuccess else { return }
        if let mapper = configuration.errorMapper, let error = mapper(response) {
            throw error
        }
        throw redacted(.httpStatus(response.status, message: ErrorMessage.extract(from: response), response: response))
    }

    /// A lazy task for `request` that decodes JSON into `type` when run.
    public func task<Value: Decodable & Sendable>(
        _ request: NetworkRequest, expecting type: Value.Type
    )
        -> NetworkTask<Value>
    {
        NetworkTask(
            client: self, request: request, decoder: JSONResponseDecoder(type, decoder: configuration.jsonDecoder))
    }

    // MARK: - Errors

    private func redacted(_ error: NetworkError) -> NetworkError {
        let redactor = configuration.redactor
        return error.mapText { redactor.redact($0) }
    }

    /// Maps any error into ``NetworkError``; cancellation gets the elapsed time when known.
    static func normalize(_ error: any Error, elapsed: Duration?) -> NetworkError {
        switch error {
        case NetworkError.cancelled(nil):
            return .cancelled(after: elapsed)
        case let error as NetworkError:
            return error
        case is CancellationError:
            return .cancelled(after: elapsed)
        default:
            return .transport(String(describing: error))
        }
    }
}

extension NetworkRequest {
    /// A lazy task that sends this request with `client` and decodes JSON into `type`.
    public func task<Value: Decodable & Sendable>(
        expecting type: Value.Type, on client: NetworkClient = .shared
    )
        -> NetworkTask<Value>
    {
        client.task(self, expecting: type)
    }
}
