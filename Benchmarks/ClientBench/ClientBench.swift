import FathomHTTP
import Foundation

/// `fathom-bench URL COUNT`: sends COUNT sequential GETs to URL through `NetworkClient` over one
/// keep-alive connection and prints the elapsed time. `Benchmarks/client-vs-curl.sh` runs it beside curl.
@main
struct ClientBench {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else {
            FileHandle.standardError.write(Data("usage: fathom-bench URL COUNT\n".utf8))
            exit(2)
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
}
