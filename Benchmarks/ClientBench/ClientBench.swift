import AsyncHTTPClient
@_spi(Fathom) import FathomHTTP
import Foundation
import NIOCore

/// `fathom-bench URL COUNT [--raw] [--concurrency C]`: sends COUNT GETs to URL through
/// `NetworkClient` over keep-alive connections and prints the elapsed time. With `--raw` the same
/// loop calls AsyncHTTPClient directly: the floor the library sits on. With `--concurrency C`, C at
/// once: through the library's scheduled batch, or (raw) C tasks each sending in turn.
/// `Benchmarks/client-vs-curl.sh` runs both beside curl; `Benchmarks/batch-vs-wrk.sh` the
/// concurrent ones beside wrk.
@main
struct ClientBench {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, let count = Int(arguments[2]), count > 0 else {
            FileHandle.standardError.write(Data("usage: fathom-bench URL COUNT [--raw]\n".utf8))
            exit(2)
        }
        let concurrency = arguments.firstIndex(of: "--concurrency").flatMap { index in
            index + 1 < arguments.count ? Int(arguments[index + 1]) : nil
        }
        if arguments.dropFirst(3).contains("--futures"), let concurrency {
            try await futures(url: arguments[1], count: count, concurrency: concurrency)
            return
        }
        if arguments.dropFirst(3).contains("--raw") {
            if let concurrency {
                try await raw(url: arguments[1], count: count, concurrency: concurrency)
            } else {
                try await raw(url: arguments[1], count: count)
            }
            return
        }
        let request = NetworkRequest.get(arguments[1])
        let client = NetworkClient()
        if let concurrency {
            try await batch(client: client, request: request, count: count, concurrency: concurrency)
            return
        }
        var bytes = 0
        let start = ContinuousClock.now
        for _ in 0..<count {
            let response = try await client.send(request)
            guard response.status.isSuccess else {
                FileHandle.standardError.write(Data("unexpected status \(response.status)\n".utf8))
                exit(1)
            }
            bytes += response.body.count
        }
        let elapsed = ContinuousClock.now - start
        print(
            String(
                format: "%d requests, %d bytes, %.3f s, %.3f ms each", count, bytes, elapsed.seconds,
                elapsed.seconds * 1000 / Double(count)))
    }

    static func report(_ label: String, count: Int, bytes: Int, start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        print(
            String(
                format: "%d requests, %d bytes, %.3f s, %.0f/s (%@)", count, bytes, elapsed.seconds,
                Double(count) / elapsed.seconds, label))
    }

    /// COUNT requests, `concurrency` at once, through the library's scheduled batch.
    static func batch(client: NetworkClient, request: NetworkRequest, count: Int, concurrency: Int) async throws {
        let prepared = try request.prepared(baseURL: nil)
        var bytes = 0
        let start = ContinuousClock.now
        _ = await client.send(BatchPlan(count: count, maxConcurrent: concurrency)) { _ in
            prepared
        } handle: { done in
            if case .success(let response) = done.result { bytes += response.body.count }
        }
        report("NetworkClient, \(concurrency) at once", count: count, bytes: bytes, start: start)
    }

    /// COUNT requests on AsyncHTTPClient alone, `concurrency` tasks each sending in turn.
    static func raw(url: String, count: Int, concurrency: Int) async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = concurrency
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let start = ContinuousClock.now
        let bytes = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var bytes = 0
                    for _ in stride(from: worker, to: count, by: concurrency) {
                        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                        bytes += try await response.body.collect(upTo: 1 << 24).readableBytes
                    }
                    return bytes
                }
            }
            return try await group.reduce(0, +)
        }
        report("AsyncHTTPClient alone, \(concurrency) at once", count: count, bytes: bytes, start: start)
        try await client.shutdown()
    }

    /// COUNT requests on AsyncHTTPClient's EventLoopFuture API, `concurrency` chains each starting
    /// its next request from the last one's completion on the event loop: no Swift task at all.
    static func futures(url: String, count: Int, concurrency: Int) async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = concurrency
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let start = ContinuousClock.now
        let loops = Array(HTTPClient.defaultEventLoopGroup.makeIterator())
        let chains = (0..<concurrency).map { worker -> EventLoopFuture<Int> in
            let loop = loops[worker % loops.count]
            let promise = loop.makePromise(of: Int.self)
            @Sendable func step(_ index: Int, _ bytes: Int) {
                guard index < count else { return promise.succeed(bytes) }
                do {
                    let request = try HTTPClient.Request(url: url)
                    client.execute(request: request, eventLoop: .delegateAndChannel(on: loop)).whenComplete { result in
                        switch result {
                        case .success(let response):
                            step(index + concurrency, bytes + (response.body?.readableBytes ?? 0))
                        case .failure(let error): promise.fail(error)
                        }
                    }
                } catch {
                    promise.fail(error)
                }
            }
            loop.execute { step(worker, 0) }
            return promise.futureResult
        }
        var bytes = 0
        for chain in chains { bytes += try await chain.get() }
        report("AsyncHTTPClient futures, \(concurrency) at once", count: count, bytes: bytes, start: start)
        try await client.shutdown()
    }

    /// The same loop on AsyncHTTPClient alone.
    static func raw(url: String, count: Int) async throws {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        var bytes = 0
        let start = ContinuousClock.now
        for _ in 0..<count {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
            bytes += try await response.body.collect(upTo: 1 << 24).readableBytes
        }
        let elapsed = ContinuousClock.now - start
        print(
            String(
                format: "%d requests, %d bytes, %.3f s, %.3f ms each (AsyncHTTPClient alone)", count, bytes,
                elapsed.seconds, elapsed.seconds * 1000 / Double(count)))
        try await client.shutdown()
    }
}
