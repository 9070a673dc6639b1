import Foundation

/// A request paired with how to decode its response, run only when asked.
///
/// ```swift
/// let task = NetworkRequest.get("/users/1").task(expecting: User.self, on: client)
/// let name = try await task.map(\.name).value()
/// ```
public struct NetworkTask<Value: Sendable>: Sendable {
    /// The client that sends the request.
    public let client: NetworkClient
    /// The request, sent when the task runs.
    public let request: NetworkRequest
    private let transform: @Sendable (NetworkResponse<Data>) throws -> Value

    init<Decoder: ResponseDecoder>(client: NetworkClient, request: NetworkRequest, decoder: Decoder)
    where Decoder.Output == Value {
        self.client = client
        self.request = request
        self.transform = { response in try client.decode(response, with: decoder).body }
    }

    private init(
        client: NetworkClient, request: NetworkRequest,
        transform: @escaping @Sendable (NetworkResponse<Data>) throws -> Value
    ) {
        self.client = client
        self.request = request
        self.transform = transform
    }

    /// Sends the request and returns the whole response with the decoded body.
    public func execute() async throws -> NetworkResponse<Value> {
        let response = try await client.send(request)
        return response.withBody(try transform(response))
    }

    /// Sends the request and returns the decoded body.
    public func value() async throws -> Value {
        try await execute().body
    }

    /// The same request decoded as another type with `decoder`.
    public func decode<Decoder: ResponseDecoder>(
        expecting type: Decoder.Output.Type, decoder: Decoder
    )
        -> NetworkTask<Decoder.Output>
    {
        NetworkTask<Decoder.Output>(client: client, request: request, decoder: decoder)
    }

    /// The same request decoded from JSON as another type.
    public func decode<Other: Decodable & Sendable>(expecting type: Other.Type) -> NetworkTask<Other> {
        decode(expecting: type, decoder: JSONResponseDecoder(type, decoder: client.configuration.jsonDecoder))
    }

    /// A task whose value is `transform` applied to this task's value.
    public func map<Other: Sendable>(_ transform: @escaping @Sendable (Value) throws -> Other) -> NetworkTask<Other> {
        let current = self.transform
        return NetworkTask<Other>(client: client, request: request) { response in try transform(current(response)) }
    }

    /// Runs the task and calls `completion` with the decoded value or the error.
    @discardableResult
    public func value(completion: @escaping @Sendable (Result<Value, any Error>) -> Void) -> CancellationHandle {
        CancellationHandle(
            Task {
                do {
                    completion(.success(try await value()))
                } catch {
                    completion(.failure(error))
                }
            })
    }
}
