import HTTPTypes
import Hummingbird
import NIOCore
import PhotosGallery

/// The web gallery: its page at `/` and its modules under `/gallery/`.
/// No authentication: the page signs in through `/v1/session` like any
/// client. A strict Content-Security-Policy keeps every request the page
/// makes on this origin (no CDN, no fonts or scripts from elsewhere) and
/// its images to this origin and the placeholders it paints itself.
struct GalleryRoutes {
    let files: GalleryFiles
    /// The page's policy: only this origin, and the owner's tile server's
    /// images when one is set.
    let contentSecurityPolicy: String

    init(files: GalleryFiles, mapTiles: MapTiles? = nil) {
        self.files = files
        contentSecurityPolicy = Self.contentSecurityPolicy(mapTiles: mapTiles)
    }

    static func contentSecurityPolicy(mapTiles: MapTiles?) -> String {
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:\(mapTiles.map { " " + $0.origin } ?? ""); "
            + "media-src 'self' blob:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }

    func add(to router: Router<ServerContext>) {
        router.get("/") { request, _ in try respond("index.html", request) }
        router.get("gallery/:name") { request, context in try respond(context.parameters.get("name") ?? "", request) }
    }

    private func respond(_ name: String, _ request: Request) throws -> Response {
        guard let file = files.file(named: name) else { throw Problem.notFound("the gallery has no file \(name)") }
        var headers: HTTPFields = [
            .eTag: file.etag, .cacheControl: "no-cache", .contentSecurityPolicy: contentSecurityPolicy,
            HTTPField.Name("X-Content-Type-Options")!: "nosniff", HTTPField.Name("Referrer-Policy")!: "no-referrer",
        ]
        if ImageRoutes.matches(Query(request: request), file.etag) { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = file.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
