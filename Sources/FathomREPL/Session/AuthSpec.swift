import FathomHTTP
import Foundation

/// An `auth` line.
enum AuthSpec: Equatable, Sendable {
    case none
    case bearer(String)
    case basic(user: String, password: String?)
    case apiKey(ApiKeyPlacement, name: String, value: String)
    case oauth2ClientCredentials(tokenURL: String, clientID: String, clientSecret: String, scope: String?)
    /// OAuth2 with a person: the authorization code in a browser, or a device code.
    case oauth2(OAuth2Grant)
    /// AWS Signature Version 4: keys as written, else from the environment or a profile.
    case awsSigV4(AWSSigning)

    enum ApiKeyPlacement: String, Equatable, Sendable {
        case header, query
    }
}

/// `auth aws-sigv4 [--region R] [--service S] [--profile P] [KEY SECRET [TOKEN]]`: what signs.
/// Region and service default to what an AWS host names (`dynamodb.eu-west-1.amazonaws.com`);
/// keys not written come from `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`/`AWS_SESSION_TOKEN`, else
/// the profile (`--profile`, `AWS_PROFILE`, else `default`) in the shared credentials file.
struct AWSSigning: Equatable, Sendable {
    var region: String?
    var service: String?
    var profile: String?
    /// The access key as written (a `{{variable}}` allowed); `nil`: from the environment.
    var accessKey: String?
    var secretKey: String?
    var sessionToken: String?
    /// The keys read from the environment or a profile when the line ran (`nil` when written):
    /// requests sign with these, without reading a file each time. Never written by `save`.
    var outside: AWSSignatureV4.Credentials?

    /// `--region`, `--service` and `--profile` as written, in that order.
    var flags: [(flag: String, value: String)] {
        [("--region", region), ("--service", service), ("--profile", profile)].compactMap { flag, value in
            value.map { (flag, $0) }
        }
    }

    /// The signing region and service an AWS endpoint's host names: `SERVICE.REGION.amazonaws.com`,
    /// `ID.execute-api.REGION.amazonaws.com`, `s3.amazonaws.com` (us-east-1); `nil` for another host.
    static func named(byHost host: String) -> (service: String, region: String)? {
        let labels = host.lowercased().split(separator: ".").map(String.init)
        guard labels.count >= 3, labels.suffix(2) == ["amazonaws", "com"] else { return nil }
        let before = Array(labels.dropLast(2))
        func isRegion(_ label: String) -> Bool {
            label.wholeMatch(of: /[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-[0-9]+/) != nil
        }
        if let last = before.last, isRegion(last), before.count >= 2 {
            return (before[before.count - 2], last)
        }
        return before.last.map { ($0, "us-east-1") }
    }

    /// The keys, region and service for a request to `host`: the written keys (expanded by
    /// `expand`), else `environment`'s, else the profile in the shared credentials file.
    func resolved(
        host: String?, environment: [String: String], expand: (String) throws -> String,
        readFile: (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }
    ) throws -> (region: String, service: String, credentials: AWSSignatureV4.Credentials) {
        let named = host.flatMap(Self.named(byHost:))
        guard
            let region = try region.map(expand) ?? environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"]
                ?? named?.region
        else {
            throw CommandError(
                .session, "AWS signing needs a region for \(host ?? "this request")",
                hint: "`auth aws-sigv4 --region us-east-1 --service SERVICE`, or set AWS_REGION")
        }
        guard let service = try service.map(expand) ?? named?.service else {
            throw CommandError(
                .session, "AWS signing needs a service for \(host ?? "this request")",
                hint: "`auth aws-sigv4 --service execute-api` (the service's signing name)")
        }
        if let accessKey, let secretKey {
            return (
                region, service,
                .init(
                    accessKeyID: try expand(accessKey), secretAccessKey: try expand(secretKey),
                    sessionToken: try sessionToken.map(expand))
            )
        }
        if let outside { return (region, service, outside) }
        if profile == nil, let credentials = AWSSignatureV4.Credentials.environment(environment) {
            return (region, service, credentials)
        }
        let name = try profile.map(expand) ?? environment["AWS_PROFILE"] ?? "default"
        let file =
            environment["AWS_SHARED_CREDENTIALS_FILE"]
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.aws/credentials")
        if let text = readFile(file), let credentials = AWSSignatureV4.Credentials.sharedFile(text, profile: name) {
            return (region, service, credentials)
        }
        // The environment's fault, not the line's: a replay counts it as a missing secret.
        throw CommandError(
            .session, .noValue(secret: "aws_secret_access_key", typed: false, canBeAsked: false),
            hint:
                "no AWS keys: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, add profile '\(name)' to \(file), or write them: auth aws-sigv4 KEY SECRET"
        )
    }
}
