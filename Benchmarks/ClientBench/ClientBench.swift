import AsyncHTTPClient
@_spi(Fathom) import FathomHTTP
import Foundation
import NIOCore

/// `fathom-bench URL COUNT [--raw]`: sends COUNT sequential GETs to URL through `NetworkClient` over
/// one keep-alive connection and prints the elapsed time. With `--raw` the same loop calls
/// AsyncHTTPClient directly: the floor the library sits on. `Benchmarks/client-vs-curl.sh` runs both
/// beside curl.
@main
struct ClientBench {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, let count = Int(arguments[2]), count > 0 else {
            FileHandle.standardError.write(Data("usage: fathom-bench URL COUNT [--raw]\n".utf8))
            exit(2)
        }
        if arguments.dropFirst(3).contains("--raw") {
            try await raw(url: arguments[1], count: count)
            return
        }
        let request = NetworkRequest.get(arguments[1])
        let client = NetworkClient()
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
