import Foundation
import Testing

@testable import PhotosObjectStorage

/// AWS's published Signature Version 4 vectors: cases of the
/// `aws-sig-v4-test-suite` (service `service`, 2015-08-30) and the worked
/// examples of S3's own documentation (2013-05-24). A wrong byte anywhere in
/// the canonical request changes the signature.
@Suite struct SignatureV4Tests {
    static let suite = SignatureV4(
        credentials: StorageCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "service")
    static let suiteDate = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z
    static let s3 = SignatureV4(
        credentials: StorageCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1")
    static let s3Date = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z

    static let suiteCases: [(name: String, url: String, signature: String)] = [
        ("get-vanilla", "https://example.amazonaws.com/", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        (
            "get-vanilla-query-order-key-case", "https://example.amazonaws.com/?Param2=value2&Param1=value1",
            "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"
        ),
        (
            "get-vanilla-query-order-value", "https://example.amazonaws.com/?Param1=value2&Param1=value1",
            "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694"
        ),
        (
            "get-unreserved", "https://example.amazonaws.com/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
            "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"
        ),
    ]

    @Test(arguments: suiteCases.indices)
    func theTestSuitesGetRequestsSignAsPublished(index: Int) throws {
        let vector = Self.suiteCases[index]
        let signed = Self.suite.sign(
            method: "GET", url: try #require(URL(string: vector.url)),
            headers: [("Host", "example.amazonaws.com")],
            payloadHash: SignatureV4.emptyPayloadHash, date: Self.suiteDate)
        #expect(signed.signature == vector.signature, "\(vector.name)")
        #expect(
            signed.headers.first?.value == """
                AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, \
                SignedHeaders=host;x-amz-date, Signature=\(vector.signature)
                """)
    }

    @Test func theCanonicalRequestOfGetVanillaHashesAsPublished() throws {
        let signed = Self.suite.sign(
            method: "GET", url: try #require(URL(string: "https://example.amazonaws.com/")),
            headers: [("Host", "example.amazonaws.com")],
            payloadHash: SignatureV4.emptyPayloadHash, date: Self.suiteDate)
        #expect(
            signed.canonicalRequest == """
                GET
                /

                host:example.amazonaws.com
                x-amz-date:20150830T123600Z

                host;x-amz-date
                e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
                """)
        #expect(
            signed.stringToSign == """
                AWS4-HMAC-SHA256
                20150830T123600Z
                20150830/us-east-1/service/aws4_request
                bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63
                """)
    }

    @Test func aFormPostSignsItsBodyAndContentType() throws {
        let body = Data("Param1=value1".utf8)
        let signed = Self.suite.sign(
            method: "POST", url: try #require(URL(string: "https://example.amazonaws.com/")),
            headers: [("Host", "example.amazonaws.com"), ("Content-Type", "application/x-www-form-urlencoded")],
            payloadHash: SignatureV4.payloadHash(of: body), date: Self.suiteDate)
        #expect(signed.canonicalRequest.hasSuffix("9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e"))
        #expect(signed.signature == "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a")
    }

    @Test func s3sRangedGetExampleSignsAsDocumented() throws {
        let signed = Self.s3.sign(
            method: "GET", url: try #require(URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")),
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9"),
                ("x-amz-content-sha256", SignatureV4.emptyPayloadHash),
            ],
            payloadHash: SignatureV4.emptyPayloadHash, date: Self.s3Date)
        #expect(signed.stringToSign.hasSuffix("7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972"))
        #expect(signed.signature == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test func s3sPutExampleEncodesThePathOnceAndSignsItsHeaders() throws {
        let body = Data("Welcome to Amazon S3.".utf8)
        let hash = SignatureV4.payloadHash(of: body)
        #expect(hash == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let signed = Self.s3.sign(
            method: "PUT", url: try #require(URL(string: "https://examplebucket.s3.amazonaws.com/test%24file.text")),
            headers: [
                ("Host", "examplebucket.s3.amazonaws.com"), ("Date", "Fri, 24 May 2013 00:00:00 GMT"),
                ("x-amz-storage-class", "REDUCED_REDUNDANCY"), ("x-amz-content-sha256", hash),
            ],
            payloadHash: hash, date: Self.s3Date)
        #expect(signed.canonicalRequest.split(separator: "\n")[1] == "/test%24file.text")
        #expect(signed.signature == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
    }

    @Test func headerValuesAreTrimmedAndTheirSpacesCollapsed() {
        let headers = SignatureV4.canonicalHeaders([("My-Header1", "  value1  "), ("my-header2", "\"a   b   c\""), ("My-Header1", "value2")])
        #expect(headers.map(\.name) == ["my-header1", "my-header2"])
        #expect(headers.map(\.value) == ["value1,value2", "\"a b c\""])
    }
}
