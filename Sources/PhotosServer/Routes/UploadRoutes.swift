import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Photos

/// `/v1/uploads`: resumable uploads by the tus 1.0 protocol (core, with
/// the creation and termination extensions). tus rather than IETF
/// resumable uploads: it is a finished specification with clients for
/// every platform, and the draft it inspired still changes. Bytes stream
/// to disk as they arrive, never held whole in memory.
///
/// Creating an upload may first name the file's content hash
/// (`Upload-Metadata: contentHash <XXH3-128 hex>`, the library's content
/// hash): with `duplicates skip` (the default), a file the caller can
/// already see in the library is answered at once with the asset holding
/// it, and nothing is sent. A finished upload becomes an asset in a change
/// block (`{"op": "createAsset", "upload": ID}`), atomic with the rest.
/// The JSON listing of unfinished uploads is a generated route
/// (`JSONRoutes.listUploads`).
struct UploadRoutes {
    let libraries: LibraryPool
    let uploads: UploadStore
    let metrics: ServerMetrics
    /// The most bytes of an upload gathered in memory before they are written.
    private static let writeSize = 1 << 19
    static let version = "1.0.0"

    private struct Duplicate: Encodable {
        let duplicateOf: String
    }

    func add(to group: RouterGroup<ServerContext>) {
        group.on("uploads", method: .options) { _, _ -> Response in
            Response(
                status: .noContent,
                headers: Self.tusHeaders(extra: [
                    HTTPField.Name("Tus-Version")!: Self.version,
                    HTTPField.Name("Tus-Extension")!: "creation,termination",
                    HTTPField.Name("Tus-Max-Size")!: "\(uploads.maximumLength)",
                ]))
        }
        group.post("uploads") { request, context -> Response in
            let principal = try context.requirePrincipal()
            try Self.requireTus(request)
            guard let text = request.headers[HTTPField.Name("Upload-Length")!], let length = Int(text), length > 0 else {
                throw Problem.badRequest("Upload-Length must give the file's size in bytes (deferred lengths are not supported)")
            }
            guard length <= uploads.maximumLength else {
                throw Problem(.contentTooLarge, "the file is larger than the \(uploads.maximumLength) bytes this server takes")
            }
            let metadata = try Self.metadata(request.headers[HTTPField.Name("Upload-Metadata")!])
            let filename = metadata["filename"].map(Self.safeFilename) ?? "upload"
            if let hash = metadata["contentHash"], metadata["duplicates"] ?? "skip" == "skip" {
                let library = try await libraries.library(for: principal)
                if let existing = try await blocking({ try library.localIdentifierOfAsset(withContentHash: hash.lowercased()) }) {
                    return try context.json(Duplicate(duplicateOf: existing), from: request, headers: Self.tusHeaders())
                }
            } else if let policy = metadata["duplicates"], policy != "keep", policy != "skip" {
                throw Problem.badRequest("duplicates must be skip or keep")
            }
            let upload = try await Self.refusingAsProblems {
                try await blocking { try uploads.create(tokenID: principal.tokenID, length: length, filename: filename) }
            }
            return Response(
                status: .created,
                headers: Self.tusHeaders(extra: [
                    .location: "/v1/uploads/\(upload.id)",
                    HTTPField.Name("Upload-Offset")!: "0",
                ]))
        }
        group.head("uploads/:id") { request, context -> Response in
            let upload = try find(context)
            return Response(
                status: .ok,
                headers: Self.tusHeaders(extra: [
                    HTTPField.Name("Upload-Offset")!: "\(uploads.offset(of: upload.id))",
                    HTTPField.Name("Upload-Length")!: "\(upload.length)", .cacheControl: "no-store",
                ]))
        }
        group.patch("uploads/:id") { request, context -> Response in
            try Self.requireTus(request)
            let upload = try find(context)
            guard request.headers[.contentType] == "application/offset+octet-stream" else {
                throw Problem(.unsupportedMediaType, "an upload's bytes come as application/offset+octet-stream")
            }
            guard uploads.beginWriting(upload.id) else { throw Problem(.conflict, "another request is writing this upload") }
            defer { uploads.endWriting(upload.id) }
            let offset = uploads.offset(of: upload.id)
            guard request.headers[HTTPField.Name("Upload-Offset")!] == "\(offset)" else {
                throw Problem(
                    .conflict, "Upload-Offset must be \(offset), the bytes received so far",
                    headers: [HTTPField.Name("Upload-Offset")!: "\(offset)"])
            }
            let written = try await Self.refusingAsProblems { try await append(request.body, to: upload, at: offset) }
            metrics.uploaded(bytes: written - offset)
            if written == upload.length {
                // A finished upload waits for its change block: it is read meanwhile, in time no request wants.
                ReadAhead.shared.schedule(fileAt: uploads.dataURL(upload.id), originalFilename: upload.filename)
            }
            return Response(status: .noContent, headers: Self.tusHeaders(extra: [HTTPField.Name("Upload-Offset")!: "\(written)"]))
        }
        group.post("backup/resources") { request, context -> Response in
            try await backUp(request, context: context)
        }
        group.delete("uploads/:id") { request, context -> Response in
            // The owner may remove anyone's; any other token its own.
            let upload = try find(context, anyTokensForTheOwner: true)
            guard uploads.beginWriting(upload.id) else { throw Problem(.conflict, "another request is writing this upload") }
            defer { uploads.endWriting(upload.id) }
            uploads.remove(upload.id)
            return Response(status: .noContent, headers: Self.tusHeaders())
        }
    }

    /// `POST /v1/backup/resources`: what an upload job sends, kept as an
    /// asset of the caller's library. The body is the resource's bytes
    /// (with Content-Length), streamed to disk; `X-Photos-Filename` names
    /// it (percent-encoded UTF-8), and `X-Photos-Source-Asset` and
    /// `X-Photos-Resource-Type` say where it came from, answered back as
    /// they came. A file the library holds already (the same bytes) is not
    /// stored twice: a caller that may read the library is answered 200
    /// with the asset holding it, a new one 201; an add-only caller, which
    /// may learn nothing of what the library holds, is answered 201 either
    /// way. `X-Photos-Asset` names the asset and `X-Photos-Duplicate` says
    /// which it was. Any token that may add assets may send.
    private func backUp(_ request: Request, context: ServerContext) async throws -> Response {
        let principal = try context.requirePrincipal()
        let sourceFields = [Self.sourceAssetField, Self.resourceTypeField].compactMap { name in
            request.headers[name].map { (name, $0) }
        }
        guard sourceFields.allSatisfy({ $0.1.utf8.count <= 256 }) else {
            throw Problem.badRequest("X-Photos-Source-Asset and X-Photos-Resource-Type hold at most 256 bytes")
        }
        guard (request.headers[Self.filenameField]?.utf8.count ?? 0) <= 1024 else {
            throw Problem.badRequest("X-Photos-Filename holds at most 1024 bytes")
        }
        guard let text = request.headers[.contentLength], let length = Int(text), length > 0 else {
            throw Problem.badRequest("a resource comes as a body with its Content-Length, 1 byte or more")
        }
        guard length <= uploads.maximumLength else {
            throw Problem(.contentTooLarge, "the file is larger than the \(uploads.maximumLength) bytes this server takes")
        }
        let filename = request.headers[Self.filenameField].map { Self.safeFilename($0.removingPercentEncoding ?? $0) } ?? "resource"
        let upload = try await Self.refusingAsProblems {
            try await blocking { try uploads.create(tokenID: principal.tokenID, length: length, filename: filename) }
        }
        // The bytes, named as the file was, in a folder of their own: the import reads the name.
        let folder = uploads.directory.appendingPathComponent(upload.id + ".named", isDirectory: true)
        defer {
            try? FileManager.default.removeItem(at: folder)
            uploads.remove(upload.id)
        }
        let written = try await Self.refusingAsProblems { try await append(request.body, to: upload, at: 0) }
        guard written == length else { throw Problem.badRequest("the body ended after \(written) of its \(length) bytes") }
        metrics.uploaded(bytes: written)
        let named = folder.appendingPathComponent(filename)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.linkItem(at: uploads.dataURL(upload.id), to: named)
        } catch {
            throw Problem(.insufficientStorage, "the server cannot keep the file: \(error.localizedDescription)")
        }
        let library = try await libraries.library(for: principal)
        let result = try await blocking { try library.importFiles([named], options: .init(duplicates: .skip)) }
        if let failure = result.failed.first {
            // Its description names the server's own path of the file: not told.
            if [.accessRestricted, .accessUserDenied].contains(failure.error.code) {
                throw Problem(.forbidden, "this token may not add assets to the library")
            }
            throw Problem(.unprocessableContent, "the file is not a photo or video the library takes", code: failure.error.code)
        }
        let duplicate = result.imported.isEmpty
        guard let asset = (result.imported.first ?? result.duplicates.first)?.localIdentifier else {
            throw Problem(.unprocessableContent, "the file is not a photo or video the library takes")
        }
        var headers = HTTPFields()
        headers[Self.assetField] = asset
        headers[Self.duplicateField] = duplicate ? "true" : "false"
        for (name, value) in sourceFields { headers[name] = value }
        return try context.json(
            ["asset": asset, "duplicate": duplicate ? "true" : "false"], from: request, status: duplicate ? .ok : .created, headers: headers)
    }

    static let filenameField = HTTPField.Name("X-Photos-Filename")!
    static let sourceAssetField = HTTPField.Name("X-Photos-Source-Asset")!
    static let resourceTypeField = HTTPField.Name("X-Photos-Resource-Type")!
    static let assetField = HTTPField.Name("X-Photos-Asset")!
    static let duplicateField = HTTPField.Name("X-Photos-Duplicate")!

    private func find(_ context: ServerContext, anyTokensForTheOwner: Bool = false) throws -> UploadStore.Upload {
        let principal = try context.requirePrincipal()
        let tokenID = anyTokensForTheOwner && principal.isOwner ? nil : principal.tokenID
        guard let id = context.parameters.get("id"), let upload = uploads.upload(id, tokenID: tokenID) else {
            throw Problem(.notFound, "there is no such upload")
        }
        return upload
    }

    /// The unfinished uploads a token may see: every token's for the owner.
    /// Runs `body`, answering what the store refuses as problems: 413 past a
    /// token's quota or count, 507 when the disk cannot take it.
    private static func refusingAsProblems<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let refusal as UploadStore.Refusal {
            switch refusal {
            case .quota(let quota):
                throw Problem(.contentTooLarge, "this token's unfinished uploads would hold more than its quota of \(quota) bytes: finish or delete some")
            case .tooMany:
                throw Problem(.contentTooLarge, "this token has \(UploadStore.maximumPerToken) unfinished uploads, as many as it may: finish or delete some")
            case .noRoom(let available):
                throw Problem(.insufficientStorage, "the server has room for \(available) more bytes of uploads, fewer than this one needs")
            case .diskFull:
                throw Problem(.insufficientStorage, "the server's disk is full")
            }
        }
    }

    /// Streams the body to the end of the data file; returns the new offset.
    /// Bytes past the announced length are refused, and what arrived before
    /// a dropped connection stays, to resume from. The body's buffers are
    /// gathered into writes of up to ``writeSize`` bytes, each one hop to
    /// a blocking thread (a hop per buffer of the socket's, 64 KiB at most,
    /// cost more than the bytes); a small photo's upload is one hop, its
    /// sync included.
    private func append(_ body: RequestBody, to upload: UploadStore.Upload, at offset: Int) async throws -> Int {
        var position = offset
        var gathered = ByteBufferAllocator().buffer(capacity: min(Self.writeSize, max(0, upload.length - offset)))
        func writeGathered() async throws {
            let bytes = gathered
            let at = position
            // Complete: durable before the client is told so.
            let completes = at + bytes.readableBytes == upload.length
            guard bytes.readableBytes > 0 || completes else { return }
            try await blocking { try uploads.writeBytes(bytes, to: upload.id, at: at, syncing: completes) }
            position += bytes.readableBytes
            gathered = ByteBufferAllocator().buffer(capacity: min(Self.writeSize, max(0, upload.length - position)))
        }
        do {
            for try await buffer in body {
                guard position + gathered.readableBytes + buffer.readableBytes <= upload.length else {
                    throw Problem(.contentTooLarge, "the upload is \(upload.length) bytes; more were sent")
                }
                gathered.writeImmutableBuffer(buffer)
                if gathered.readableBytes >= Self.writeSize { try await writeGathered() }
            }
        } catch {
            // What arrived is kept, to resume from.
            try await writeGathered()
            throw error
        }
        try await writeGathered()
        return position
    }

    private static func requireTus(_ request: Request) throws {
        guard request.headers[HTTPField.Name("Tus-Resumable")!] == version else {
            throw Problem(
                .preconditionFailed, "uploads speak tus \(version): send Tus-Resumable: \(version)",
                headers: [HTTPField.Name("Tus-Version")!: version])
        }
    }

    private static func tusHeaders(extra: HTTPFields = [:]) -> HTTPFields {
        var headers: HTTPFields = [HTTPField.Name("Tus-Resumable")!: version]
        headers.append(contentsOf: extra)
        return headers
    }

    /// `key base64, key base64, …` (RFC tus 1.0 Upload-Metadata).
    private static func metadata(_ header: String?) throws -> [String: String] {
        guard let header, !header.isEmpty else { return [:] }
        var values: [String: String] = [:]
        for pair in header.split(separator: ",") {
            let parts = pair.trimmingOptionalWhitespace().split(separator: " ", maxSplits: 1)
            guard let key = parts.first, !key.isEmpty else { throw Problem.badRequest("Upload-Metadata has an empty key") }
            let value = parts.count == 2 ? Data(base64Encoded: String(parts[1])).flatMap { String(data: $0, encoding: .utf8) } : ""
            guard let value else { throw Problem.badRequest("Upload-Metadata's \(key) is not base64-encoded UTF-8") }
            values[String(key)] = value
        }
        return values
    }

    /// A file name as data: its last component, without controls, at most 255 bytes.
    static func safeFilename(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
        let trimmed = String(cleaned.utf8.prefix(255)).flatMap { $0 } ?? ""
        return trimmed.isEmpty || trimmed == "." || trimmed == ".." ? "upload" : trimmed
    }
}
