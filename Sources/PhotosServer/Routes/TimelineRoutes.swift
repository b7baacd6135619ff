import Foundation
import HTTPTypes
import Hummingbird
import Photos

/// `/v1/timeline`: the library by month (`/v1/timeline`), by day within a
/// month (`/v1/timeline/2024-05/days`), and a bucket's assets in pages of
/// at most 2,000 as columnar JSON (`/v1/timeline/2024-05?page=0`). Every
/// response has an ETag from the buckets' fingerprints: a client
/// revalidates with `If-None-Match` and refetches only the buckets that
/// changed. `predicate` filters as on `/v1/assets`.
struct TimelineRoutes {
    let libraries: LibraryPool
    static let pageSize = 2000

    struct Bucket: Encodable, Sendable {
        /// `2024-05`, `2024-05-17`, or `undated`: the bucket's name in URLs.
        let id: String
        /// The period's parts, so that a client need not parse ``id``; absent for the undated.
        let year: Int?
        let month: Int?
        let day: Int?
        let count: Int
        let pages: Int
        let etag: String
    }

    struct Summary: Encodable, Sendable {
        let buckets: [Bucket]
    }

    /// One page of a bucket, one array per field, each the same length.
    struct Columns: Sendable {
        let bucket: String
        let page: Int
        let pages: Int
        let ids: [String]
        let aspectRatios: [Double]
        /// Seconds since 1970, to the millisecond; null for the undated. Numbers,
        /// not ISO 8601 text: a page carries thousands, and a grid does arithmetic on them.
        let creationDates: [Double?]
        /// `PHAssetMediaType` by name.
        let mediaTypes: [String]
        let durations: [Double]
        let favorites: [Bool]
        /// Stars, 0 (none) to 5.
        let ratings: [Int]
        /// Base64 ThumbHash placeholders; null where there is none.
        let thumbHashes: [String?]
        let contentVersions: [Int]

        /// The page as JSON, keys sorted as ``JSONBody`` sorts them, written
        /// directly: a 2,000-asset page through `JSONEncoder` took three
        /// times as long as the query that read it.
        func json() -> ByteBuffer {
            var json = JSONWriter(capacity: 256 + ids.count * 110)
            json.beginObject()
            json.field("aspectRatios", aspectRatios)
            json.field("bucket", bucket)
            json.field("contentVersions", contentVersions)
            json.field("creationDates", creationDates)
            json.field("durations", durations)
            json.field("favorites", favorites)
            json.field("ids", ids)
            json.field("mediaTypes", mediaTypes)
            json.field("page", page)
            json.field("pages", pages)
            json.field("ratings", ratings)
            json.field("thumbHashes", thumbHashes)
            json.endObject()
            return json.buffer
        }
    }

    func add(to group: RouterGroup<ServerContext>) {
        group.get("timeline") { request, context -> Response in
            let principal = try context.requirePrincipal()
            let library = try await libraries.library(for: principal)
            let query = Query(request: request)
            let options = try Self.options(query)
            let months = try await libraries.timelines.value(Self.key(principal, query, month: nil)) {
                try library.timelineMonths(options: options)
            }
            return try Self.respond(Summary(buckets: months.map(Self.bucket)), tag: Self.tag(months), request: request, context: context)
        }
        group.get("timeline/:bucket/days") { request, context -> Response in
            let principal = try context.requirePrincipal()
            let query = Query(request: request)
            let month = try await find(context.parameters.get("bucket"), for: principal, query: query)
            guard case .month = month.id else { throw Problem.notFound("only a month's bucket has days") }
            let days = try await buckets(for: principal, query: query, month: month.id)
            return try Self.respond(Summary(buckets: days.map(Self.bucket)), tag: Self.tag(days), request: request, context: context)
        }
        group.get("timeline/:bucket") { request, context -> Response in
            let principal = try context.requirePrincipal()
            let library = try await libraries.library(for: principal)
            let query = Query(request: request)
            let options = try Self.options(query)
            let bucket = try await find(context.parameters.get("bucket"), for: principal, query: query)
            let pages = max(1, (bucket.count + Self.pageSize - 1) / Self.pageSize)
            let page = try query.integer("page", default: 0, in: 0...(pages - 1))
            let tag = "\"\(bucket.fingerprint)-\(page)\""
            if ImageRoutes.matches(Query(request: request), tag) { return Response(status: .notModified, headers: Self.headers(tag)) }
            let contents = try await blocking {
                try library.timelinePage(of: bucket, offset: page * Self.pageSize, limit: Self.pageSize, options: options)
            }
            let columns = Columns(
                bucket: bucket.id.description, page: page, pages: pages, ids: contents.localIdentifiers.map(ObjectID.urlForm),
                aspectRatios: contents.aspectRatios.map { ($0 * 10_000).rounded() / 10_000 },
                creationDates: contents.creationDates.map { $0.map { ($0.timeIntervalSince1970 * 1000).rounded() / 1000 } },
                mediaTypes: contents.mediaTypes.map(\.name), durations: contents.durations, favorites: contents.favorites,
                ratings: contents.ratings.map(\.rawValue),
                thumbHashes: contents.thumbHashes.map { $0?.base64EncodedString() }, contentVersions: contents.contentVersions)
            var headers = Self.headers(tag)
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: columns.json()))
        }
    }

    private static func options(_ query: Query) throws -> PHFetchOptions {
        if query.text("sort") != nil { throw Problem.badRequest("the timeline is ordered newest first; sort is not taken") }
        return try AssetLookup.fetchOptions(query, for: PHAsset.self, defaultSort: nil)
    }

    /// The buckets of the months (`month` nil) or of one month's days, as
    /// last counted since the last commit.
    private func buckets(for principal: Principal, query: Query, month: PHTimelineBucket.Period?) async throws -> [PHTimelineBucket] {
        let library = try await libraries.library(for: principal)
        let options = try Self.options(query)
        return try await libraries.timelines.value(Self.key(principal, query, month: month)) {
            guard let month else { return try library.timelineMonths(options: options) }
            guard let bucket = try library.timelineMonths(options: options).first(where: { $0.id == month }) else { return [] }
            return try library.timelineDays(of: bucket, options: options)
        }
    }

    /// The bucket a URL names (`2024-05`, `2024-05-17`, `undated`), as it is now; 404 when it holds nothing.
    private func find(_ name: String?, for principal: Principal, query: Query) async throws -> PHTimelineBucket {
        guard let name, let period = PHTimelineBucket.Period(name) else { throw Problem.notFound("no timeline bucket is called \(name ?? "")") }
        let month: PHTimelineBucket.Period? = if case .day = period { period.containingMonth } else { nil }
        let buckets = try await buckets(for: principal, query: query, month: month)
        guard let bucket = buckets.first(where: { $0.id == period }) else { throw Problem.notFound("the timeline has nothing in \(name)") }
        return bucket
    }

    private static func key(_ principal: Principal, _ query: Query, month: PHTimelineBucket.Period?) -> TimelineKey {
        TimelineKey(client: principal.client, month: month, predicate: query.text("predicate"), hidden: query.text("hidden") == "true")
    }

    private static func bucket(_ bucket: PHTimelineBucket) -> Bucket {
        Bucket(
            id: bucket.id.description, year: bucket.year, month: bucket.month, day: bucket.day, count: bucket.count,
            pages: max(1, (bucket.count + pageSize - 1) / pageSize),
            etag: "\"\(bucket.fingerprint)\"")
    }

    private static func tag(_ buckets: [PHTimelineBucket]) -> String {
        var hasher = FNV()
        for bucket in buckets { hasher.add("\(bucket.id):\(bucket.fingerprint);") }
        return "\"\(String(hasher.value, radix: 16))\""
    }

    private static func headers(_ tag: String) -> HTTPFields {
        [.eTag: tag, .cacheControl: "private, no-cache"]
    }

    private static func respond(_ value: some Encodable, tag: String, request: Request, context: ServerContext) throws -> Response {
        if ImageRoutes.matches(Query(request: request), tag) { return Response(status: .notModified, headers: headers(tag)) }
        return try context.json(value, from: request, headers: headers(tag))
    }
}

/// FNV-1a, for ETags over several fingerprints.
struct FNV {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ text: String) {
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
}
