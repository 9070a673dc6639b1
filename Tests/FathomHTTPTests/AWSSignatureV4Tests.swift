import Foundation
import Testing

@_spi(Fathom) @testable import FathomHTTP

/// AWS Signature Version 4 on known answers; `SignatureV4OracleTests` (end to end) holds it to
/// botocore on generated requests.
@Suite struct AWSSignatureV4Tests {
    static let keys = AWSSignatureV4.Credentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")

    /// AWS's own worked example (IAM `ListUsers`, 2015-08-30T12:36:00Z), signature as documented.
    @Test func theDocumentedExampleSignsTheSame() async throws {
        var request = PreparedRequest(
            method: .get,
            url: RequestURL(
                scheme: "https", host: "iam.amazonaws.com", path: "/", query: "Action=ListUsers&Version=2010-05-08"),
            headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"])
        let signer = AWSSignatureV4(region: "us-east-1", service: "iam", credentials: Self.keys) {
            Date(timeIntervalSince1970: 1_440_938_160)
        }
        try await signer.authorize(&request)
        #expect(request.headers["X-Amz-Date"] == "20150830T123600Z")
        #expect(
            request.headers[.authorization]
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"
        )
    }

    /// Signing again replaces the last signature, date and token: a retried request is not
    /// signed twice.
    @Test func aSecondSigningReplacesTheFirst() throws {
        var request = PreparedRequest(method: .get, url: RequestURL(scheme: "https", host: "sts.amazonaws.com"))
        let keys = AWSSignatureV4.Credentials(accessKeyID: "AK", secretAccessKey: "SK", sessionToken: "TOKEN")
        let signer = AWSSignatureV4(region: "us-east-1", service: "sts", credentials: keys)
        try signer.sign(&request)
        try signer.sign(&request)
        for name in ["Authorization", "X-Amz-Date", "X-Amz-Security-Token"] {
            #expect(request.headers.values(for: NetworkHeaders.Name(name)).count == 1, "\(name)")
        }
        #expect(request.headers[.authorization]?.contains("SignedHeaders=host;x-amz-date;x-amz-security-token") == true)
    }

    /// A body in a file is hashed as it is read, equal to the same bytes in memory; to S3 it goes
    /// unsigned, and says so.
    @Test func aFileBodyIsHashedAsItIsReadOrGoesUnsignedToS3() throws {
        let path = NSTemporaryDirectory() + "fathom-sigv4-\(UUID().uuidString).bin"
        let data = Data((0..<200_000).map { UInt8($0 % 253) })
        try data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let url = RequestURL(scheme: "https", host: "dynamodb.eu-west-1.amazonaws.com", path: "/")
        let now = Date(timeIntervalSince1970: 1_795_827_723)
        var inMemory = PreparedRequest(method: .post, url: url, body: .bytes(data))
        var fromFile = PreparedRequest(method: .post, url: url, body: .file(path: path, length: data.count))
        let signer = AWSSignatureV4(region: "eu-west-1", service: "dynamodb", credentials: Self.keys) { now }
        try signer.sign(&inMemory)
        try signer.sign(&fromFile)
        #expect(inMemory.headers[.authorization] == fromFile.headers[.authorization])

        var upload = PreparedRequest(
            method: .put, url: RequestURL(scheme: "https", host: "s3.amazonaws.com", path: "/bucket/key"),
            body: .file(path: path, length: data.count))
        try AWSSignatureV4(region: "us-east-1", service: "s3", credentials: Self.keys) { now }.sign(&upload)
        #expect(upload.headers["X-Amz-Content-SHA256"] == AWSSignatureV4.unsignedPayload)
        #expect(upload.headers[.authorization]?.contains("x-amz-content-sha256") == true)
    }

    @Test func canonicalFormsAreAWSs() {
        #expect(AWSSignatureV4.canonicalPath("/a/./b/../c//d/") == "/a/c/d/")
        #expect(AWSSignatureV4.canonicalPath("/documents and settings/%2F") == "/documents%20and%20settings/%252F")
        #expect(AWSSignatureV4.canonicalPath("") == "/")
        #expect(AWSSignatureV4.canonicalQuery("b=2&a=&a=1&c") == "a=&a=1&b=2&c=")
        #expect(AWSSignatureV4.canonicalQuery("q=%C3%A9+x&sp=a%20b") == "q=%C3%A9%2Bx&sp=a%20b")
    }

    /// Keys from the environment or a shared credentials file, by profile.
    @Test func credentialsComeFromTheEnvironmentOrAProfile() {
        #expect(
            AWSSignatureV4.Credentials.environment([
                "AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK", "AWS_SESSION_TOKEN": "",
            ]) == .init(accessKeyID: "AK", secretAccessKey: "SK"))
        #expect(AWSSignatureV4.Credentials.environment(["AWS_ACCESS_KEY_ID": "AK"]) == nil)
        let file = """
            # comment
            [default]
            aws_access_key_id = AKDEFAULT
            aws_secret_access_key = SKDEFAULT

            [work]
            aws_access_key_id=AKWORK
            aws_secret_access_key=SK=WITH=EQUALS
            aws_session_token = TOKEN
            """
        #expect(
            AWSSignatureV4.Credentials.sharedFile(file, profile: "default")
                == .init(accessKeyID: "AKDEFAULT", secretAccessKey: "SKDEFAULT"))
        #expect(
            AWSSignatureV4.Credentials.sharedFile(file, profile: "work")
                == .init(accessKeyID: "AKWORK", secretAccessKey: "SK=WITH=EQUALS", sessionToken: "TOKEN"))
        #expect(AWSSignatureV4.Credentials.sharedFile(file, profile: "missing") == nil)
    }
}
