import Crypto
import Foundation

/// The keys that sign requests to S3-compatible storage.
package struct StorageCredentials: Sendable, Equatable {
    /// The public half, named in every request's `Authorization` header.
    package var accessKeyID: String
    /// The secret half, from which each day's signing key is derived; never sent.
    package var secretAccessKey: String
    /// A temporary credential's session token, sent as `x-amz-security-token`.
    package var sessionToken: String?

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}

/// AWS Signature Version 4 for one region and service (`s3` for object
/// storage), written from AWS's specification and checked against its
/// published test vectors (`SignatureV4Tests`).
///
/// Signing is a pure function of the request and the clock: it builds the
/// canonical request (method, path, sorted query, sorted lower-case headers,
/// payload hash), the string to sign for the day's scope, and the signature
/// with a key derived from the secret through the date, region and service.
/// The path is encoded as S3 expects: once, segment by segment, without
/// normalising `.` or repeated slashes. Cost: four HMACs for the key (kept
/// per day) and two hashes per request.
package struct SignatureV4: Sendable {
    package let credentials: StorageCredentials
    /// The region in the signature's scope (`us-east-1` for most S3-compatible servers).
    package let region: String
    /// The service in the signature's scope: `s3` for object storage.
    package let service: String

    /// The payload hash for a request whose body is not hashed (`UNSIGNED-PAYLOAD`).
    package static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The hash of an empty body.
    package static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    package init(credentials: StorageCredentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// What signing a request produced: the headers to add, and the
    /// intermediate texts, which say where a mismatch comes from.
    package struct Signed: Sendable {
        /// `Authorization`, `x-amz-date`, and `x-amz-security-token` when a session token is used.
        package var headers: [(name: String, value: String)]
        /// Method, path, query, headers, signed header names and payload hash, as signed.
        package var canonicalRequest: String
        /// The algorithm, time, scope and the canonical request's hash.
        package var stringToSign: String
        /// The signature, in lower-case hex.
        package var signature: String
    }

    /// Signs a request. `headers` must include `host`; `x-amz-date` is
    /// added from `date` (and replaces one given). `payloadHash` is the
    /// hex SHA-256 of the body, ``unsignedPayload``, or ``emptyPayloadHash``;
    /// S3 also wants it sent as `x-amz-content-sha256`, which the caller
    /// includes in `headers` so that it is signed.
    package func sign(method: String, url: URL, headers: [(name: String, value: String)], payloadHash: String, date: Date) -> Signed {
        let (stamp, day) = Self.timestamps(date)
        var all = headers.filter { $0.name.lowercased() != "x-amz-date" } + [("x-amz-date", stamp)]
        if let token = credentials.sessionToken {
            all.append(("x-amz-security-token", token))
        }
        let canonicalHeaders = Self.canonicalHeaders(all)
        let signedHeaders = canonicalHeaders.map(\.name).joined(separator: ";")
        let canonicalRequest = [
            method.uppercased(),
            Self.canonicalPath(url),
            Self.canonicalQuery(url),
            canonicalHeaders.map { "\($0.name):\($0.value)\n" }.joined(),
            signedHeaders,
            payloadHash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))].joined(separator: "\n")
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: signingKey(day: day)))
        var added: [(name: String, value: String)] = [
            ("Authorization", "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"),
            ("x-amz-date", stamp),
        ]
        if let token = credentials.sessionToken {
            added.append(("x-amz-security-token", token))
        }
        return Signed(headers: added, canonicalRequest: canonicalRequest, stringToSign: stringToSign, signature: signature)
    }

    /// The key for a day: the secret, then the date, region, service and
    /// `aws4_request`, each an HMAC of the one before.
    func signingKey(day: String) -> SymmetricKey {
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    /// `20150830T123600Z` and `20150830`, in UTC.
    static func timestamps(_ date: Date) -> (stamp: String, day: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d%02d%02d", parts.year!, parts.month!, parts.day!)
        return (day + String(format: "T%02d%02d%02dZ", parts.hour!, parts.minute!, parts.second!), day)
    }

    /// The path, each segment percent-encoded once; `/` when empty.
    static func canonicalPath(_ url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        guard !path.isEmpty else { return "/" }
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { encode(String($0).removingPercentEncoding ?? String($0)) }
            .joined(separator: "/")
    }

    /// The query's parameters encoded and sorted by name, then value (by
    /// bytes); a parameter without `=` has an empty value.
    static func canonicalQuery(_ url: URL) -> String {
        guard let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery, !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&").map { item -> (String, String) in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in (text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)) }
            return (encode(decode(parts[0])), parts.count > 1 ? encode(decode(parts[1])) : "")
        }
        return pairs.sorted { ($0.0.utf8.lexicographicallyPrecedes($1.0.utf8)) || ($0.0 == $1.0 && $0.1.utf8.lexicographicallyPrecedes($1.1.utf8)) }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// Lower-case names, sorted; values trimmed with inner runs of spaces
    /// made one; repeated names joined by commas in the order given.
    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var values: [String: [String]] = [:]
        for (name, value) in headers {
            let collapsed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            values[name.lowercased(), default: []].append(collapsed)
        }
        return values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { ($0, values[$0]!.joined(separator: ",")) }
    }

    /// The payload hash of a body: its SHA-256, in lower-case hex.
    /// Cost: one pass over the bytes.
    package static func payloadHash(of body: Data) -> String {
        hex(SHA256.hash(data: body))
    }

    /// A path percent-encoded segment by segment, `/` kept.
    package static func encodePath(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { encode(String($0)) }.joined(separator: "/")
    }

    /// Percent-encodes every byte but the unreserved ones (`A-Z a-z 0-9 - _ . ~`), with upper-case hex.
    package static func encode(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                result.append(Character(Unicode.Scalar(byte)))
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// Bytes in lower-case hex.
    package static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}
