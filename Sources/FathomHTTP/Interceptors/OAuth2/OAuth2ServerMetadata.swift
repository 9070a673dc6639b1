import Foundation

/// An authorization server's endpoints, discovered from its issuer URL
/// ([RFC 8414](https://www.rfc-editor.org/rfc/rfc8414)): `/.well-known/oauth-authorization-server`
/// first, then OpenID Connect's `/.well-known/openid-configuration`.
public struct OAuth2ServerMetadata: Sendable, Equatable {
    /// The issuer, as the metadata states it (equal to the URL asked).
    public var issuer: String
    /// Where the browser goes (`authorization_endpoint`), when the server has one.
    public var authorizationEndpoint: String?
    /// Where tokens are issued (`token_endpoint`).
    public var tokenEndpoint: String
    /// Where a device asks for a user code (`device_authorization_endpoint`, RFC 8628).
    public var deviceAuthorizationEndpoint: String?
    /// How clients may authenticate at the token endpoint; empty when not stated (then
    /// `client_secret_basic`, RFC 8414 §2).
    public var tokenEndpointAuthMethods: [String]

    /// The way the client authenticates: `client_secret_basic` unless the server lists only
    /// `client_secret_post`.
    public var clientAuthentication: OAuth2ClientAuthentication {
        tokenEndpointAuthMethods.contains("client_secret_basic")
            || !tokenEndpointAuthMethods.contains("client_secret_post")
            ? .basic : .post
    }

    /// The well-known URLs for `issuer`, in the order they are tried: RFC 8414's (inserted
    /// before the issuer's path) and OpenID Connect's (appended to it).
    public static func wellKnownURLs(for issuer: String) throws -> [String] {
        let url = try RequestURL(parsing: issuer)
        let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let path = url.path == "/" ? "" : (url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path)
        let origin = String(trimmed.dropLast(path.count))
        return [
            origin + "/.well-known/oauth-authorization-server" + path,
            trimmed + "/.well-known/openid-configuration",
        ]
    }

    /// Fetches the metadata, checking that it names `issuer` and a token endpoint.
    public static func discover(issuer: String, client: NetworkClient) async throws -> OAuth2ServerMetadata {
        struct Body: Decodable {
            var issuer: String?
            var authorization_endpoint: String?
            var token_endpoint: String?
            var device_authorization_endpoint: String?
            var token_endpoint_auth_methods_supported: [String]?
        }
        var tried: [String] = []
        for url in try wellKnownURLs(for: issuer) {
            let response = try await client.send(NetworkRequest.get(url).header(.accept, "application/json"))
            guard response.status.isSuccess else {
                tried.append("\(url) (\(response.status.code))")
                continue
            }
            guard let body = try? JSONDecoder().decode(Body.self, from: response.body) else {
                throw NetworkError.transport("the OAuth2 metadata at \(url) is not the JSON object RFC 8414 describes")
            }
            let stated = body.issuer ?? ""
            guard stated.trimmingSuffix("/") == issuer.trimmingSuffix("/") else {
                throw NetworkError.transport(
                    "the OAuth2 metadata at \(url) names the issuer '\(stated)', not '\(issuer)': refused (RFC 8414 §3.3)"
                )
            }
            guard let token = body.token_endpoint else {
                throw NetworkError.transport("the OAuth2 metadata at \(url) names no token_endpoint")
            }
            return OAuth2ServerMetadata(
                issuer: stated, authorizationEndpoint: body.authorization_endpoint, tokenEndpoint: token,
                deviceAuthorizationEndpoint: body.device_authorization_endpoint,
                tokenEndpointAuthMethods: body.token_endpoint_auth_methods_supported ?? [])
        }
        throw NetworkError.transport("no OAuth2 metadata for the issuer \(issuer): " + tried.joined(separator: ", "))
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
