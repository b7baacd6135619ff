import Foundation

/// Where a library's files live in S3-compatible storage, as a user names it:
/// `s3://BUCKET/PREFIX?endpoint=http://host:port&region=us-east-1`. Path-style
/// addressing (`ENDPOINT/BUCKET/KEY`), which every S3-compatible server
/// accepts; the region defaults to `us-east-1`, the endpoint to AWS's.
package struct S3Location: Sendable, Equatable, CustomStringConvertible {
    /// The server, as `http(s)://host[:port]`.
    package var endpoint: URL
    /// The bucket, the first segment of every request's path.
    package var bucket: String
    /// The key prefix under which the library's objects live, without a
    /// leading or trailing slash; empty for the bucket's root.
    package var prefix: String
    /// The region requests are signed for.
    package var region: String

    package init(endpoint: URL, bucket: String, prefix: String = "", region: String = "us-east-1") {
        self.endpoint = endpoint
        self.bucket = bucket
        self.prefix = prefix.split(separator: "/").joined(separator: "/")
        self.region = region
    }

    /// Parses an `s3://` URL; throws `invalid` saying what is wrong.
    package init(url text: String) throws(ObjectStorageError) {
        guard let components = URLComponents(string: text), components.scheme == "s3",
            let bucket = components.host, !bucket.isEmpty
        else {
            throw .invalid("\(text) is not an object storage location: expected s3://BUCKET/PREFIX?endpoint=URL")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        if let unknown = query.keys.first(where: { !["endpoint", "region"].contains($0) }) {
            throw .invalid("\(text): unknown parameter \(unknown) (known: endpoint, region)")
        }
        let region = query["region"].flatMap { $0.isEmpty ? nil : $0 } ?? "us-east-1"
        let endpointText = query["endpoint"] ?? "https://s3.\(region).amazonaws.com"
        guard let endpoint = URL(string: endpointText), ["http", "https"].contains(endpoint.scheme ?? ""), endpoint.host != nil else {
            throw .invalid("\(text): the endpoint \(endpointText) is not an http(s) URL")
        }
        self.init(endpoint: endpoint, bucket: bucket, prefix: components.path, region: region)
    }

    /// The full key of a name under the prefix.
    package func key(_ name: String) -> String {
        prefix.isEmpty ? name : "\(prefix)/\(name)"
    }

    package var description: String {
        "s3://\(bucket)/\(prefix)?endpoint=\(endpoint.absoluteString)&region=\(region)"
    }
}
