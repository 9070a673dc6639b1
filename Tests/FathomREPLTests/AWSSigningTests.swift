@_spi(Fathom) import FathomHTTP
import Foundation
import Testing

@testable import FathomREPL

/// `auth aws-sigv4`: where its region, service and keys come from, and what the session does
/// with them.
@Suite struct AWSSigningTests {
    @Test(arguments: [
        ("dynamodb.eu-west-1.amazonaws.com", "dynamodb", "eu-west-1"),
        ("abc123.execute-api.ap-southeast-2.amazonaws.com", "execute-api", "ap-southeast-2"),
        ("s3.amazonaws.com", "s3", "us-east-1"),
        ("sts.us-gov-west-1.amazonaws.com", "sts", "us-gov-west-1"),
        ("bucket.s3.eu-central-1.amazonaws.com", "s3", "eu-central-1"),
    ])
    func anAWSHostNamesItsServiceAndRegion(host: String, service: String, region: String) {
        let named = AWSSigning.named(byHost: host)
        #expect(named?.service == service && named?.region == region, "\(host)")
    }

    @Test func anotherHostNamesNothing() {
        #expect(AWSSigning.named(byHost: "127.0.0.1") == nil)
        #expect(AWSSigning.named(byHost: "amazonaws.com.evil.test") == nil)
    }

    /// Written keys first, then the environment, then the profile; flags over what the host names.
    @Test func keysComeFromTheLineTheEnvironmentOrAProfile() throws {
        let environment = ["AWS_ACCESS_KEY_ID": "AKENV", "AWS_SECRET_ACCESS_KEY": "SKENV", "HOME": "/home/ada"]
        let profile =
            "[default]\naws_access_key_id=AKFILE\naws_secret_access_key=SKFILE\n[work]\naws_access_key_id=AKWORK\naws_secret_access_key=SKWORK\n"
        func resolve(_ signing: AWSSigning, _ environment: [String: String]) throws -> (String, String, String) {
            let (region, service, keys) = try signing.resolved(
                host: "dynamodb.eu-west-1.amazonaws.com", environment: environment, expand: { $0 },
                readFile: { $0 == "/home/ada/.aws/credentials" ? profile : nil })
            return (region, service, keys.accessKeyID)
        }
        #expect(
            try resolve(AWSSigning(accessKey: "AKLINE", secretKey: "SK"), environment) == (
                "eu-west-1", "dynamodb", "AKLINE"
            ))
        #expect(try resolve(AWSSigning(), environment) == ("eu-west-1", "dynamodb", "AKENV"))
        #expect(try resolve(AWSSigning(), ["HOME": "/home/ada"]) == ("eu-west-1", "dynamodb", "AKFILE"))
        #expect(try resolve(AWSSigning(profile: "work"), environment) == ("eu-west-1", "dynamodb", "AKWORK"))
        #expect(
            try resolve(AWSSigning(region: "us-west-2", service: "execute-api"), environment)
                == ("us-west-2", "execute-api", "AKENV"))
        let none = #expect(throws: CommandError.self) { try resolve(AWSSigning(), [:]) }
        #expect(none?.missingSecret == "aws_secret_access_key", "a replay counts it as the environment's fault")
    }

    /// Keys from the environment are secrets as typed ones are; the saved line names none of them,
    /// so the file signs in CI from CI's environment.
    @Test func keysFromTheEnvironmentAreMaskedAndNotSaved() async throws {
        let secret = "wJalrXUtnFEMI-planted-secret-key"
        let transport = MockTransport()
        transport.register("/", .json("{}"))
        let executor = Executor(
            options: .init(
                environmentPaths: [], dotEnvPath: nil,
                environment: ["AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": secret],
                transport: transport))
        for line in ["base https://dynamodb.eu-west-1.amazonaws.com", "auth aws-sigv4", "post / a=1"] {
            #expect(await executor.run(line).outcome == .succeeded, "\(line)")
        }
        let sent = try #require(transport.requests.last)
        let authorization = try #require(sent.headers[.authorization])
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"))
        #expect(authorization.contains("/eu-west-1/dynamodb/aws4_request"))
        #expect(executor.redactor.redact("key \(secret)") == "key \(Redactor.masked(secret))")
        let log = await executor.record.log
        let written = SessionWriter(
            log: log, variables: await executor.session.variables, secretValues: executor.redactor.secretValues,
            requestsOnly: false
        ).write(fileName: "t.fathom", redactor: executor.redactor)
        #expect(written.text.contains("auth aws-sigv4\n") && !written.text.contains(secret))
    }

    /// A curl line's request is signed for the host it goes to: with no base, and no region or
    /// service in `--aws-sigv4`, both come from the URL's AWS host.
    @Test func aCurlLineIsSignedForItsOwnHost() async throws {
        let transport = MockTransport()
        transport.register("/", .json("{}"))
        let executor = Executor(
            options: .init(environmentPaths: [], dotEnvPath: nil, environment: [:], transport: transport))
        let line = "curl --aws-sigv4 aws:amz -u AKIDCURL:curl-secret-0123 https://sts.eu-west-1.amazonaws.com/"
        #expect(await executor.run(line).outcome == .succeeded)
        let authorization = try #require(transport.requests.last?.headers[.authorization])
        #expect(authorization.contains("Credential=AKIDCURL/") && authorization.contains("/eu-west-1/sts/aws4_request"))
    }
}
