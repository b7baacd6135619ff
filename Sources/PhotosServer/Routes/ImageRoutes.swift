import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationEssentialsCompat
import NIOPosix
import Photos

/// `/v1/assets/{id}/thumbnail|preview|original`: an asset's renditions and
/// its original file. The ETag names the asset's content version and the
/// rendition; with `?v=VERSION` matching it, the URL is versioned and
/// immutable, so browsers keep it. `If-None-Match` gets 304; `Range` on an
/// original (videos in a browser need it) gets 206, read from object
/// storage by range when the originals are there.
struct ImageRoutes {
    let libraries: LibraryPool
    fileprivate static let fileIO = NonBlockingFileIO(threadPool: .singleton)

    func add(to group: RouterGroup<ServerContext>) {
        for rendition in PHImageManager.Rendition.allCases {
            group.get(RouterPath(stringLiteral: "assets/:id/\(rendition.rawValue)")) { request, context -> Response in
                let principal = try context.requirePrincipal()
                let id = context.parameters.get("id") ?? ""
                let key = CachedRendition.Key(client: principal.client, assetID: id, rendition: rendition)
                let (cached, generation) = libraries.renditions.lookup(key)
                let entry: CachedRendition
                if let cached {
                    entry = cached
                } else {
                    let library = try await libraries.library(for: principal)
                    let asset = try await AssetLookup.asset(id, in: library)
                    let jpeg = try await blocking { () throws -> Data in
                        let (file, jpeg) = try PHImageManager.default().rendition(rendition, of: asset)
                        return try jpeg ?? Data(contentsOf: file!)
                    }
                    entry = Self.cachedRendition(rendition, of: asset, jpeg: jpeg)
                    libraries.renditions.store(entry, for: key, readAt: generation)
                }
                let answer = try Self.answer(entry, to: Query(request: request))
                return Response(status: answer.status, headers: answer.headers.fields, body: answer.body.map { .init(byteBuffer: $0) } ?? .init())
            }
        }
        group.get("assets/:id/original") { request, context -> Response in
            let library = try await libraries.library(for: try context.requirePrincipal())
            let asset = try await AssetLookup.asset(context.parameters.get("id"), in: library)
            let resources = try await blocking { library.withCurrentLibrary { PHAssetResource.assetResources(for: asset) } }
            guard let original = resources.first(where: { $0.type == .photo || $0.type == .video }) ?? resources.first else {
                throw Problem(.notFound, "\(asset.localIdentifier) has no original file", code: .missingResource)
            }
            let tag = Self.entityTag(asset, "original")
            let query = Query(request: request)
            var headers = Self.cacheHeaders(versioned: try Self.isVersioned(query, contentVersion: asset.contentVersion), tag: tag)
            headers[.acceptRanges] = "bytes"
            headers[.contentType] = original.contentType.preferredMIMEType ?? "application/octet-stream"
            if Self.matches(query, tag) { return Response(status: .notModified, headers: headers) }
            let bytes = try await blocking { try original.bytes() }
            return try await Self.serve(bytes, request: request, headers: headers)
        }
        addPlayableVideos(to: group)
    }

    /// How long a request for a video waits for its conversion before it is
    /// answered 503: a phone clip or Live Photo is converted within it.
    static let conversionWait: Duration = .seconds(20)

    /// `/v1/assets/{id}/video` and `/motion`: a video's, or a Live Photo's
    /// motion, as browsers play it (``PHImageManager/playableVideo(of:_:)``).
    /// A copy not made yet is made first, waiting up to ``conversionWait``;
    /// past it the answer is 503 with Retry-After, the conversion going on.
    private func addPlayableVideos(to group: RouterGroup<ServerContext>) {
        for part in PHImageManager.PlayableVideoPart.allCases {
            group.get(RouterPath(stringLiteral: "assets/:id/\(part.rawValue)")) { request, context -> Response in
                let library = try await libraries.library(for: try context.requirePrincipal())
                let asset = try await AssetLookup.asset(context.parameters.get("id"), in: library)
                let tag = Self.entityTag(asset, part.rawValue)
                let query = Query(request: request)
                var headers = Self.cacheHeaders(versioned: try Self.isVersioned(query, contentVersion: asset.contentVersion), tag: tag)
                if Self.matches(query, tag) { return Response(status: .notModified, headers: headers) }
                let find = {
                    do {
                        return try await blocking { try library.withCurrentLibrary { try PHImageManager.default().existingPlayableVideo(of: asset, part) } }
                    } catch let error as PHPhotosError where error.code == .missingResource {
                        // No such video: a photo has no video, a photo that is not Live no motion.
                        throw Problem(.notFound, error.localizedDescription, code: .missingResource)
                    }
                }
                var file = try await find()
                if file == nil {
                    libraries.videoConversions.schedule(asset, part, urgent: true)
                    switch await libraries.videoConversions.outcome(of: asset, part, waitingUpTo: Self.conversionWait) {
                    case .failed(let error): throw error
                    case .pending: break
                    case .done: file = try await find()
                    }
                }
                guard let file else {
                    throw Problem(
                        .serviceUnavailable, "the video is being converted into a form browsers play; try again shortly",
                        headers: [.retryAfter: "10"])
                }
                headers[.acceptRanges] = "bytes"
                headers[.contentType] = file.pathExtension.lowercased() == "webm" ? "video/webm" : "video/mp4"
                return try await Self.serve(.file(file), request: request, headers: headers)
            }
        }
    }

    /// The resource's bytes, whole or the one range asked for, streamed
    /// from disk or from remote storage a chunk at a time.
    private static func serve(_ bytes: ResourceBytes, request: Request, headers: HTTPFields) async throws -> Response {
        let reader = try await ChunkReader(bytes)
        var headers = headers
        let size = reader.size
        var served = 0..<size
        var status = HTTPResponse.Status.ok
        if let header = Query(request: request).header(.range), Self.ifRangeHolds(request, headers) {
            switch ByteRange.parse(header, size: size) {
            case .whole:
                break
            case .partial(let range):
                served = range
                status = .partialContent
                headers[.contentRange] = "bytes \(served.lowerBound)-\(served.upperBound - 1)/\(size)"
            case .unsatisfiable:
                reader.close()
                headers[.contentRange] = "bytes */\(size)"
                throw Problem(.rangeNotSatisfiable, "no range asked for is within the \(size)-byte file", headers: headers)
            }
        }
        headers[.contentLength] = "\(served.count)"
        let range = served
        let body = ResponseBody(contentLength: range.count) { writer in
            defer { reader.close() }
            var offset = range.lowerBound
            while offset < range.upperBound {
                let buffer = try await reader.read(offset: offset, length: min(reader.chunkSize, range.upperBound - offset))
                guard buffer.readableBytes > 0 else { break }
                offset += buffer.readableBytes
                try await writer.write(buffer)
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// The answer to a GET of a rendition already read: the JPEG, or 304
    /// when `If-None-Match` names it; throws 404 when `?v=` names a version
    /// that is not the asset's current one. The route and
    /// ``CachedRenditionHandler`` both answer through this. A 200's headers
    /// were made with the entry, not here.
    static func answer(_ entry: CachedRendition, to query: Query) throws -> (status: HTTPResponse.Status, headers: PreparedHeaders, body: ByteBuffer?) {
        let versioned = try isVersioned(query, contentVersion: entry.contentVersion)
        if matches(query, entry.tag) { return (.notModified, PreparedHeaders(cacheHeaders(versioned: versioned, tag: entry.tag)), nil) }
        return (.ok, versioned ? entry.versionedHeaders : entry.unversionedHeaders, entry.body)
    }

    /// A rendition read for the cache, with the headers of its 200s.
    static func cachedRendition(_ rendition: PHImageManager.Rendition, of asset: PHAsset, jpeg: Data) -> CachedRendition {
        let tag = entityTag(asset, rendition.rawValue)
        let body = ByteBuffer(bytes: jpeg)
        let okHeaders = { (versioned: Bool) -> PreparedHeaders in
            var headers = cacheHeaders(versioned: versioned, tag: tag)
            headers[.contentType] = "image/jpeg"
            headers[.contentLength] = String(body.readableBytes)
            return PreparedHeaders(headers)
        }
        return CachedRendition(
            contentVersion: asset.contentVersion, tag: tag, body: body,
            versionedHeaders: okHeaders(true), unversionedHeaders: okHeaders(false))
    }

    static func entityTag(_ asset: PHAsset, _ rendition: String) -> String {
        "\"\(ObjectID.urlForm(asset.localIdentifier).lowercased())-v\(asset.contentVersion)-\(rendition)\""
    }

    /// Whether `?v=` names the asset's current version, which makes the URL
    /// immutable; throws 404 when it names another.
    private static func isVersioned(_ query: Query, contentVersion: Int) throws -> Bool {
        guard let version = query.text("v") else { return false }
        guard version == String(contentVersion) else {
            throw Problem(
                .notFound, "version \(version) of this asset is not its current one (\(contentVersion))",
                code: .identifierNotFound)
        }
        return true
    }

    /// Versioned URLs are immutable; others revalidate.
    private static func cacheHeaders(versioned: Bool, tag: String) -> HTTPFields {
        [.eTag: tag, .cacheControl: versioned ? "private, max-age=31536000, immutable" : "private, no-cache"]
    }

    static func matches(_ query: Query, _ tag: String) -> Bool {
        guard let header = query.headers[.ifNoneMatch] else { return false }
        return header.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingOptionalWhitespace()
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }

    private static func ifRangeHolds(_ request: Request, _ headers: HTTPFields) -> Bool {
        guard let condition = request.headers[.ifRange] else { return true }
        return condition == headers[.eTag]
    }
}

/// What a `Range` header asks of a representation of `size` bytes, read
/// as RFC 9110 (§14.1, §14.2) says: an unknown unit or a header that is not
/// a range set is ignored (the whole representation is sent); a last
/// position past the end, however large, means the end; a set none of
/// whose ranges starts within the representation is unsatisfiable. Several
/// ranges are answered with one part that covers them all, which the RFC
/// allows a server to send; a set of more than ``maximumRanges`` is ignored.
enum ByteRange: Equatable {
    /// The whole representation, as if no range had been asked for.
    case whole
    case partial(Range<Int>)
    case unsatisfiable

    /// More ranges than this in one header are ignored, not parsed.
    static let maximumRanges = 64

    static func parse(_ header: String, size: Int) -> ByteRange {
        let text = header.utf8
        guard let equals = text.firstIndex(of: UInt8(ascii: "=")),
            Substring(text[..<equals]).trimmingOptionalWhitespace().utf8.elementsEqual("bytes".utf8, by: { $0 | 0x20 == $1 })
        else { return .whole }
        let specs = text[text.index(after: equals)...].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard specs.count <= maximumRanges else { return .whole }
        var covered: Range<Int>?
        var sawRange = false
        for spec in specs {
            let trimmed = Substring(spec).trimmingOptionalWhitespace()
            // RFC 9110's list rule: empty elements are allowed and mean nothing.
            if trimmed.isEmpty { continue }
            guard let asked = range(trimmed, size: size) else { return .whole }
            sawRange = true
            if let asked {
                covered = covered.map { min($0.lowerBound, asked.lowerBound)..<max($0.upperBound, asked.upperBound) } ?? asked
            }
        }
        guard sawRange else { return .whole }
        guard let covered else { return .unsatisfiable }
        return .partial(covered)
    }

    /// One range-spec: nil when it is not one (the header is then
    /// ignored), `.some(nil)` when it is one that the representation
    /// cannot satisfy.
    private static func range(_ spec: Substring, size: Int) -> Range<Int>?? {
        let bytes = spec.utf8
        guard let dash = bytes.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let first = bytes[..<dash]
        let last = bytes[bytes.index(after: dash)...]
        if first.isEmpty {
            // A suffix: the last n bytes.
            guard let suffix = position(last) else { return nil }
            guard suffix > 0, size > 0 else { return .some(nil) }
            return .some(max(0, size - suffix)..<size)
        }
        guard let start = position(first) else { return nil }
        var end = Int.max
        if !last.isEmpty {
            // A last position before the first makes the spec invalid, however large both are.
            guard let lastPosition = position(last), !precedes(last, first) else { return nil }
            end = lastPosition
        }
        guard start < size else { return .some(nil) }
        // The last position is inclusive; past the end (or too large to hold) it is the end.
        return .some(start..<(end >= size - 1 ? size : end + 1))
    }

    /// Whether the decimal number `a` is less than `b`, both digits only,
    /// of any length.
    private static func precedes(_ a: Substring.UTF8View.SubSequence, _ b: Substring.UTF8View.SubSequence) -> Bool {
        let a = a.drop { $0 == UInt8(ascii: "0") }
        let b = b.drop { $0 == UInt8(ascii: "0") }
        return a.count != b.count ? a.count < b.count : a.lexicographicallyPrecedes(b)
    }

    /// A decimal position, digits only; one too large for an `Int` is
    /// `Int.max`, which is past the end of any file.
    private static func position(_ digits: Substring.UTF8View.SubSequence) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return Int.max }
            value = sum
        }
        return value
    }
}

/// Reads a resource's bytes by offset, a chunk at a time: from its file
/// through NIO's non-blocking file I/O, or from remote storage, one ranged
/// request per chunk (larger chunks there, each being a round trip).
private struct ChunkReader: Sendable {
    let size: Int
    let chunkSize: Int
    private let source: Source

    private enum Source: Sendable {
        case file(NIOFileHandle)
        case remote(@Sendable (ClosedRange<Int64>) async throws -> Data)
    }

    init(_ bytes: ResourceBytes) async throws {
        switch bytes {
        case .file(let url):
            let handle = try await ImageRoutes.fileIO.openFile(_deprecatedPath: url.path, mode: .read, eventLoop: MultiThreadedEventLoopGroup.singleton.next())
                .get()
            do {
                size = Int(try await ImageRoutes.fileIO.readFileSize(fileHandle: handle, eventLoop: MultiThreadedEventLoopGroup.singleton.next()).get())
            } catch {
                try? handle.close()
                throw error
            }
            chunkSize = 1 << 18
            source = .file(handle)
        case .remote(let size, let read):
            self.size = Int(size)
            chunkSize = 4 << 20
            source = .remote(read)
        }
    }

    func read(offset: Int, length: Int) async throws -> ByteBuffer {
        switch source {
        case .file(let handle):
            try await ImageRoutes.fileIO.read(
                fileHandle: handle, fromOffset: Int64(offset), byteCount: length,
                allocator: ByteBufferAllocator(), eventLoop: MultiThreadedEventLoopGroup.singleton.next()
            ).get()
        case .remote(let read):
            ByteBuffer(data: try await read(Int64(offset)...Int64(offset + length - 1)))
        }
    }

    func close() {
        if case .file(let handle) = source { try? handle.close() }
    }
}
