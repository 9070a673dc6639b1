import FathomHTTP
import Foundation

/// The session's mocks in front of the network: each answers only requests to the origin of the
/// API it was set for (through the library's ``MockTransport``), and every other request goes
/// to the network. A mocked response says so: its protocol is `mock`, in the status line and in
/// `--output json`.
struct ScopedMocks: Transport {
    /// The protocol a mocked response shows.
    static let label = "mock"

    private let mocks: [Origin: MockTransport]
    private let network: any Transport

    init(_ routes: [ClientSettings.MockRoute], network: any Transport) throws {
        var mocks: [Origin: MockTransport] = [:]
        for route in routes {
            let response =
                if let file = route.file { try MockResponse.file(file, status: route.status) } else {
                    MockResponse.status(route.status)
                }
            let transport = mocks[route.origin] ?? MockTransport()
            transport.register(route.path, response)
            mocks[route.origin] = transport
        }
        self.mocks = mocks
        self.network = network
    }

    func send(_ request: PreparedRequest) async throws -> NetworkResponse<Data> {
        guard let mock = mocks[Origin(request.url)] else { return try await network.send(request) }
        do {
            var response = try await mock.send(request)
            response.httpVersion = Self.label
            return response
        } catch NetworkError.noMock {
            return try await network.send(request)
        }
    }
}
