import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// A small client of the S3 API, enough for a library's files: put (in one
/// request, or in parts for large files), ranged get, delete and listing. Every request is signed with Signature Version 4
/// (``SignatureV4``) and addressed path-style; bodies are hashed and the
/// hash signed, so a corrupted upload is refused by the server.
package final class S3Client: Sendable {
    /// The bucket and key prefix every request addresses.
    package let location: S3Location
    private let signer: SignatureV4
    private let http: HTTPClient
    /// Files above this size go up in parts of this size (S3's minimum part is 5 MiB).
    package let partSize: Int

    package init(location: S3Location, credentials: StorageCredentials, http: HTTPClient = .shared, partSize: Int = 16 << 20) {
        self.location = location
        signer = SignatureV4(credentials: credentials, region: location.region)
        self.http = http
        self.partSize = max(partSize, 5 << 20)
    }

    // MARK: - Objects

    /// Stores bytes under `key` (relative to the location's prefix).
    /// Cost: one request, and a hash of the bytes.
    package func put(_ data: Data, key: String) async throws(ObjectStorageError) {
        _ = try await send("PUT", key: key, body: data)
    }

    /// Stores a file under `key`: in one request up to ``partSize``, else as
    /// a multipart upload, aborted (its parts deleted) when a part fails.
    /// Cost: a read and a hash of the file; one request per part.
    package func put(fileAt url: URL, key: String) async throws(ObjectStorageError) {
        let size: Int
        do {
            size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw .invalid("cannot read \(url.path): \(error.localizedDescription)")
        }
        guard size > partSize else {
            try await put(try Self.read(url, offset: 0, count: size), key: key)
            return
        }
        let uploadID = try await startMultipart(key: key)
        do {
            var parts: [String] = []
            var offset = 0
            while offset < size {
                let chunk = try Self.read(url, offset: offset, count: min(partSize, size - offset))
                let answer = try await send("PUT", key: key, query: [("partNumber", "\(parts.count + 1)"), ("uploadId", uploadID)], body: chunk)
                guard let etag = answer.headers.first(name: "ETag") else { throw ObjectStorageError.invalid("a part's answer has no ETag") }
                parts.append(etag)
                offset += chunk.count
            }
            let manifest =
                "<CompleteMultipartUpload>"
                + parts.enumerated().map { index, etag in
                    "<Part><PartNumber>\(index + 1)</PartNumber><ETag>\(Self.escapeXML(etag))</ETag></Part>"
                }.joined() + "</CompleteMultipartUpload>"
            let answer = try await send("POST", key: key, query: [("uploadId", uploadID)], body: Data(manifest.utf8))
            // S3 may report a failed completion inside a 200 answer.
            if let code = XMLText.first("Code", in: answer.body) {
                throw ObjectStorageError.refused(status: 200, code: code, message: XMLText.first("Message", in: answer.body) ?? "")
            }
        } catch {
            _ = try? await send("DELETE", key: key, query: [("uploadId", uploadID)])
            throw error as? ObjectStorageError ?? .unreachable("\(error)")
        }
    }

    /// The object's bytes, or those of `range` (inclusive, from 0).
    /// Cost: one request.
    package func get(key: String, range: ClosedRange<Int64>? = nil) async throws(ObjectStorageError) -> Data {
        let headers = range.map { [("Range", "bytes=\($0.lowerBound)-\($0.upperBound)")] } ?? []
        return Data(try await send("GET", key: key, headers: headers).body.readableBytesView)
    }

    /// The object's size in bytes. Cost: one HEAD request.
    package func size(key: String) async throws(ObjectStorageError) -> Int64 {
        let answer = try await send("HEAD", key: key)
        guard let size = answer.headers.first(name: "Content-Length").flatMap({ Int64($0) }) else {
            throw .invalid("the answer to HEAD \(key) has no Content-Length")
        }
        return size
    }

    /// Deletes the object; deleting one that is not there is not an error.
    package func delete(key: String) async throws(ObjectStorageError) {
        do {
            _ = try await send("DELETE", key: key)
        } catch .notFound {
        }
    }

    /// The keys under `prefix` (relative to the location's prefix, and
    /// returned the same way), in S3's order. Cost: one request per 1,000 keys.
    package func list(prefix: String) async throws(ObjectStorageError) -> [String] {
        var keys: [String] = []
        var token: String?
        let base = location.prefix.isEmpty ? "" : location.prefix + "/"
        repeat {
            var query = [("list-type", "2"), ("prefix", base + prefix)]
            if let token { query.append(("continuation-token", token)) }
            let answer = try await send("GET", key: nil, query: query)
            keys += XMLText.all("Key", in: answer.body).map { String($0.dropFirst(base.count)) }
            token = XMLText.first("IsTruncated", in: answer.body) == "true" ? XMLText.first("NextContinuationToken", in: answer.body) : nil
        } while token != nil
        return keys
    }

    /// Creates the bucket; an existing one of ours is not an error.
    package func createBucket() async throws(ObjectStorageError) {
        do {
            _ = try await send("PUT", key: nil)
        } catch .refused(_, let code, _) where code == "BucketAlreadyOwnedByYou" {
        }
    }

    private func startMultipart(key: String) async throws(ObjectStorageError) -> String {
        let answer = try await send("POST", key: key, query: [("uploads", "")])
        guard let uploadID = XMLText.first("UploadId", in: answer.body) else {
            throw .invalid("the answer to a multipart upload's start has no UploadId")
        }
        return uploadID
    }

    // MARK: - Requests

    private struct Answer {
        var status: Int
        var headers: HTTPHeaders
        var body: ByteBuffer
    }

    /// Sends one signed request; throws `notFound` for 404 and `refused` for
    /// any other status of 300 and above, with S3's error code.
    private func send(
        _ method: String, key: String?, query: [(String, String)] = [], headers: [(String, String)] = [],
        body: Data = Data()
    ) async throws(ObjectStorageError) -> Answer {
        var path = "/" + location.bucket
        if let key { path += "/" + location.key(key) }
        var components = URLComponents()
        components.scheme = location.endpoint.scheme
        components.host = location.endpoint.host
        components.port = location.endpoint.port
        components.percentEncodedPath = SignatureV4.encodePath(path)
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { "\(SignatureV4.encode($0.0))=\(SignatureV4.encode($0.1))" }.joined(separator: "&")
        }
        guard let url = components.url else { throw .invalid("cannot address \(path) at \(location.endpoint)") }
        let payloadHash = SignatureV4.payloadHash(of: body)
        let host = location.endpoint.port.map { "\(location.endpoint.host!):\($0)" } ?? location.endpoint.host!
        let signedHeaders = [("Host", host), ("x-amz-content-sha256", payloadHash)] + headers
        let signed = signer.sign(method: method, url: url, headers: signedHeaders, payloadHash: payloadHash, date: Date())
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in signedHeaders + signed.headers.map({ ($0.name, $0.value) }) where name != "Host" {
            request.headers.add(name: name, value: value)
        }
        if !body.isEmpty || method == "PUT" || method == "POST" {
            request.body = .bytes(ByteBuffer(data: body))
        }
        let response: HTTPClientResponse
        let collected: ByteBuffer
        do {
            response = try await http.execute(request, timeout: .seconds(300))
            collected = try await response.body.collect(upTo: 1 << 30)
        } catch {
            throw .unreachable("\(method) \(url.absoluteString): \(error)")
        }
        let status = Int(response.status.code)
        if status == 404, key != nil, XMLText.first("Code", in: collected).map({ $0 == "NoSuchKey" || $0 == "NoSuchUpload" }) ?? true {
            throw .notFound(key: key ?? "")
        }
        guard status < 300 else {
            throw .refused(
                status: status, code: XMLText.first("Code", in: collected) ?? "HTTP\(status)",
                message: XMLText.first("Message", in: collected) ?? String(buffer: collected))
        }
        return Answer(status: status, headers: response.headers, body: collected)
    }

    private static func read(_ url: URL, offset: Int, count: Int) throws(ObjectStorageError) -> Data {
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(offset))
            return try handle.read(upToCount: count) ?? Data()
        } catch {
            throw .invalid("cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    private static func escapeXML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// The text of simple elements in S3's XML answers, which nest no element
/// of the names asked for inside another.
enum XMLText {
    static func all(_ name: String, in buffer: ByteBuffer) -> [String] {
        let text = String(buffer: buffer)
        var values: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "<\(name)>"), let close = rest[open.upperBound...].range(of: "</\(name)>") {
            values.append(unescape(String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        return values
    }

    static func first(_ name: String, in buffer: ByteBuffer) -> String? {
        all(name, in: buffer).first
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
