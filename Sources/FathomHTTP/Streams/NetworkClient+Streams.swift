import Foundation
import Synchronization

/// A response whose body is read as it arrives.
public struct StreamedResponse: Sendable {
    /// The response's status.
    public var status: HTTPStatus
    /// The response's header fields, in the order they came.
    public var headers: NetworkHeaders
    /// The body's chunks as the network delivers them; it ends with the body.
    ///
    /// Stopping the iteration (or cancelling the task that iterates) cancels the request.
    public var body: AsyncThrowingStream<Data, any Error>

    /// How the body divides into events, from its `Content-Type`; `nil` for a body that is not a stream.
    public var format: StreamFormat? { StreamFormat(contentType: headers[.contentType]) }
}

extension NetworkClient {
    /// Sends `request` through the interceptors and returns as soon as the response's head
    /// arrives, with the body to read as it comes: for streams that never end (server-sent
    /// events, NDJSON logs, chunked feeds) as much as for large downloads.
    ///
    /// ```swift
    /// let response = try await client.streamed(.get("/logs").header(.accept, "application/x-ndjson"))
    /// for try await chunk in response.body { print(String(decoding: chunk, as: UTF8.self), terminator: "") }
    /// ```
    ///
    /// Interceptors see the request as usual; a transport that cannot stream (``MockTransport``)
    /// delivers the whole body as one chunk.
    ///
    /// - Throws: ``NetworkError`` when no response head arrives.
    public func streamed(_ request: NetworkRequest) async throws(NetworkError) -> StreamedResponse {
        let (chunks, chunkSink) = AsyncThrowingStream<Data, any Error>.makeStream()
        let head = HeadOnce()
        let watch = StreamWatch(
            streams: { status, headers in
                head.deliver(status, headers)
                return true
            },
            chunk: { data in
                if case .terminated = chunkSink.yield(data) { return false }
                return true
            })
        let task = Task {
            do {
                var prepared = try self.prepared(request)
                prepared.watch = watch
                let response = try await self.send(prepared)
                if head.deliver(response.status, response.headers) {
                    // Not streamed by the transport: the whole body, once.
                    chunkSink.yield(response.body)
                }
                if case .failed(let reason)? = watch.ending {
                    chunkSink.finish(throwing: NetworkError.connectionClosed(reason))
                } else {
                    chunkSink.finish()
                }
            } catch {
                let failure = error as? NetworkError ?? .transport(String(describing: error))
                head.fail(failure)
                chunkSink.finish(throwing: failure)
            }
        }
        chunkSink.onTermination = { _ in task.cancel() }
        let (status, headers): (HTTPStatus, NetworkHeaders)
        do {
            (status, headers) = try await withTaskCancellationHandler {
                try await head.value()
            } onCancel: {
                task.cancel()
            }
        } catch let error as NetworkError {
            throw error
        } catch {
            throw .cancelled(after: nil)
        }
        return StreamedResponse(status: status, headers: headers, body: chunks)
    }

    /// Sends `request` and returns its events as they arrive.
    ///
    /// Server-sent events, JSON Lines or a JSON text sequence (by the response's `Content-Type`),
    /// or the chunks of any other body. A server-sent event is parsed by the WHATWG rules,
    /// whatever the network's splits.
    ///
    /// ```swift
    /// for try await event in client.events(for: .get("/events").header(.accept, "text/event-stream")) {
    ///     print(event.type ?? "", event.data)
    /// }
    /// ```
    ///
    /// Ending the iteration cancels the request.
    ///
    /// - Throws: (from the sequence) ``NetworkError`` when no response arrives, or
    ///   ``NetworkError/httpStatus(_:message:response:)`` for a response that is not a success.
    public func events(for request: NetworkRequest) -> AsyncThrowingStream<StreamEvent, any Error> {
        let (events, sink) = AsyncThrowingStream<StreamEvent, any Error>.makeStream()
        let task = Task {
            do {
                let response = try await self.streamed(request)
                guard response.status.isSuccess else {
                    var body = Data()
                    for try await chunk in response.body { body.append(chunk) }
                    let prepared = try request.prepared(baseURL: configuration.baseURL)
                    throw NetworkError.httpStatus(
                        response.status, message: nil,
                        response: NetworkResponse(
                            status: response.status, headers: response.headers, body: body, request: prepared))
                }
                var parser = StreamParser(format: response.format ?? .chunks)
                for try await chunk in response.body {
                    for event in parser.feed(chunk) { sink.yield(event) }
                }
                for event in parser.finish() { sink.yield(event) }
                sink.finish()
            } catch {
                sink.finish(throwing: error)
            }
        }
        sink.onTermination = { _ in task.cancel() }
        return events
    }
}

/// The head of a streamed response, delivered once to the one waiting for it.
private final class HeadOnce: Sendable {
    private enum State {
        case waiting(CheckedContinuation<(HTTPStatus, NetworkHeaders), any Error>?)
        case delivered((HTTPStatus, NetworkHeaders))
        case failed(NetworkError)
        case taken
    }

    private let state = Mutex(State.waiting(nil))

    /// Delivers the head; `false` when one was delivered already.
    @discardableResult
    func deliver(_ status: HTTPStatus, _ headers: NetworkHeaders) -> Bool {
        let (first, waiter) = state.withLock {
            state -> (Bool, CheckedContinuation<(HTTPStatus, NetworkHeaders), any Error>?) in
            switch state {
            case .waiting(let waiter):
                state = waiter == nil ? .delivered((status, headers)) : .taken
                return (true, waiter)
            default:
                return (false, nil)
            }
        }
        waiter?.resume(returning: (status, headers))
        return first
    }

    func fail(_ error: NetworkError) {
        let waiter = state.withLock { state -> CheckedContinuation<(HTTPStatus, NetworkHeaders), any Error>? in
            guard case .waiting(let waiter) = state else { return nil }
            state = waiter == nil ? .failed(error) : .taken
            return waiter
        }
        waiter?.resume(throwing: error)
    }

    func value() async throws -> (HTTPStatus, NetworkHeaders) {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<(HTTPStatus, NetworkHeaders), NetworkError>? in
                    switch state {
                    case .waiting:
                        state = .waiting(continuation)
                        return nil
                    case .delivered(let head):
                        state = .taken
                        return .success(head)
                    case .failed(let error):
                        state = .taken
                        return .failure(error)
                    case .taken:
                        return .failure(.cancelled(after: nil))
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } catch let error as NetworkError {
            throw error
        } catch {
            throw NetworkError.cancelled(after: nil)
        }
    }
}
