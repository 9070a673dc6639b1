@_spi(Fathom) import FathomHTTP
import FathomOpenAPI
import Foundation

/// Reads an API description — from a file or an http(s) URL — and the documents its `$ref`s
/// name, with the clients the session's scoping gives it.
struct DescriptionLoader: Sendable {
    /// The client for the description itself and for documents on its origin: its API's, when
    /// the session has an API there (a description behind the API's own credentials).
    let client: NetworkClient
    /// The client for documents anywhere else: no session credentials.
    let anonymous: NetworkClient

    /// Loads `source` (as given, for its name and errors) from `location` (a URL, or the file's
    /// resolved path), and says which absolute URL its first server gives (the base for a
    /// session that has none). Fathom's own index only: the structure check runs later.
    func load(
        _ source: String, at location: String, options: SpecCommand.LoadOptions
    ) async throws -> (LoadedSpec, server: String?) {
        let data: Data
        let url: URL
        if location.hasPrefix("http://") || location.hasPrefix("https://") {
            guard let parsed = URL(string: location) else {
                throw CommandError(.session, .invalid(kind: "URL", value: location))
            }
            data = try await Self.fetch(location, with: client)
            url = parsed
        } else {
            do {
                data = try DescriptionFile.read(location)
            } catch {
                throw CommandError(
                    .file, .cannotRead(path: location, reason: error.message),
                    hint: "give a description's file or http(s) URL")
            }
            url = URL(fileURLWithPath: location)
        }
        let description: APIDescription
        do {
            description = try await APIDescription(
                data: data, name: (source as NSString).lastPathComponent, location: url, checkStructure: false,
                fetch: documentReader(from: url, remote: options.remote),
                documentLimit: options.maxDocuments ?? APIDescription.defaultDocumentLimit)
        } catch {
            throw CommandError(.file, error.message)
        }
        let server = description.servers.first.flatMap { server in
            server.contains("://")
                ? server
                : (source.contains("://") ? (try? RequestURL(parsing: source).resolving(server).description) : nil)
        }
        return (LoadedSpec(description: description, source: source), server)
    }

    /// How the documents a description's `$ref`s name are read: as the description was, from
    /// files or over HTTP with the session's client settings. The session's credentials go only
    /// to the server the description came from, never to another one its author names
    /// (``ScopeRules/refGoesWithCredentials(_:descriptionAt:)``); a description from a server
    /// reads no local file, and one from a file reads no URL unless `remote` (`spec --remote`)
    /// allows it.
    private func documentReader(from location: URL, remote: Bool) -> @Sendable (URL) async throws -> Data {
        let fromServer = Origin(location) != nil
        let client = self.client
        let anonymous = self.anonymous
        return { url in
            if url.isFileURL {
                guard !fromServer else { throw DescriptionError("a description read over HTTP reads no local file") }
                return try DescriptionFile.read(url.path)
            }
            guard fromServer || remote else {
                throw DescriptionError("a description read from a file reads no URL unless asked: `spec --remote FILE`")
            }
            do {
                let withCredentials = ScopeRules.refGoesWithCredentials(url, descriptionAt: location)
                return try await Self.fetch(url.absoluteString, with: withCredentials ? client : anonymous)
            } catch let error as CommandError {
                throw DescriptionError(error.message)
            }
        }
    }

    private static func fetch(_ url: String, with client: NetworkClient) async throws -> Data {
        let response = try await client.send(try NetworkRequest.get(url).prepared())
        guard response.status.code < 300 else {
            throw CommandError(.session, "\(url) answered \(response.status.code) \(response.status.reasonPhrase)")
        }
        return response.body
    }
}
