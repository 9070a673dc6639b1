/// How a request changes when it follows a redirect
/// ([RFC 9110 §15.4](https://www.rfc-editor.org/rfc/rfc9110#section-15.4)).
enum Redirect {
    static func isRedirect(_ status: Int) -> Bool {
        [301, 302, 303, 307, 308].contains(status)
    }

    /// The request to send after a `status` response pointing at `location`.
    static func follow(
        _ request: PreparedRequest, status: Int, location: String
    ) throws(NetworkError)
        -> PreparedRequest
    {
        var next = request
        next.url = try request.url.resolving(location)
        let becomesGet =
            (status == 303 && request.method != .head) || ((status == 301 || status == 302) && request.method == .post)
        if becomesGet {
            next.method = .get
            next.body = nil
            next.headers.remove(.contentType)
            next.headers.remove(.contentLength)
        }
        if !next.url.isSameOrigin(as: request.url) {
            // Credentials are for the origin they were given to, whoever added them.
            for name in [.authorization, .proxyAuthorization, .cookie] + request.credentialHeaders {
                next.headers.remove(name)
            }
            // So is a client certificate, and the trust given to the origin's own CA.
            next.clientIdentity = nil
            next.trustRootsFile = nil
        }
        return next
    }
}
