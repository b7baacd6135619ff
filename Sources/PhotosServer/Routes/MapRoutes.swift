import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PhotosMedia

/// `/v1/map/outlines`: the world's countries as outlines, the gallery map's
/// offline base (``CountryOutlines``). The same for every token and every
/// run of the data, so it is made once, tagged by its bytes and answered
/// with 304 when the browser has it. `/v1/map` and `/v1/map/clusters` are
/// generated JSON operations (`JSONRoutes+Map.swift`).
struct MapRoutes {
    /// The outlines as the document's `CountryOutlines`, with its entity tag;
    /// nil when the data is not installed.
    static let outlines: (json: ByteBuffer, tag: String)? = CountryOutlines.installed.flatMap(encode)

    func add(to group: RouterGroup<ServerContext>) {
        group.get("map/outlines") { request, context -> Response in
            _ = try context.requirePrincipal()
            guard let outlines = Self.outlines else {
                throw Problem(.notFound, "this server has no country outlines: script/bootstrap installs them into \(CountryOutlines.defaultFolder)")
            }
            var headers: HTTPFields = [.eTag: outlines.tag, .cacheControl: "private, max-age=86400"]
            if ImageRoutes.matches(Query(request: request), outlines.tag) { return Response(status: .notModified, headers: headers) }
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: outlines.json))
        }
    }

    /// The document's shape of the outlines.
    private struct Document: Encodable {
        struct Country: Encodable {
            var name: String
            var code: String?
            var rings: [[Double]]
        }
        var countries: [Country]
    }

    /// Coordinates to 0.001° (about 100 m: the 1:110m data has no finer
    /// detail), which keeps the document near 200 kB. Nil only if the data
    /// could not be written as JSON (it holds finite numbers only).
    private static func encode(_ outlines: CountryOutlines) -> (json: ByteBuffer, tag: String)? {
        let document = Document(
            countries: outlines.countries.map { country in
                .init(name: country.name, code: country.code, rings: country.rings.map { ring in ring.map { ($0 * 1000).rounded() / 1000 } })
            })
        guard let json = try? JSONEncoder().encode(document) else { return nil }
        let digest = SHA256.hash(data: json).prefix(12).map { String(format: "%02x", $0) }.joined()
        return (ByteBuffer(bytes: json), "\"outlines-\(digest)\"")
    }
}
