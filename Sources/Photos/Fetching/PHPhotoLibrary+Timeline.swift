import Foundation
import PhotosStore

/// One bucket of the timeline: the assets taken in one month, or on one
/// day, in the time zone they were taken in. An OpenPhotoKit addition.
public struct PHTimelineBucket: Sendable, Hashable, Identifiable {
    /// The stretch of time a bucket covers: a month, a day, or no date at all.
    public enum Period: Sendable, Hashable, LosslessStringConvertible {
        /// The assets without a date.
        case undated
        /// A month (1 to 12) of a year.
        case month(year: Int, month: Int)
        /// A day of a month.
        case day(year: Int, month: Int, day: Int)

        /// How URLs and JSON name it: `2024-05`, `2024-05-17` or `undated`.
        public var description: String {
            switch self {
            case .undated: "undated"
            case .month(let year, let month): String(format: "%04d-%02d", year, month)
            case .day(let year, let month, let day): String(format: "%04d-%02d-%02d", year, month, day)
            }
        }

        /// The period `description` names; nil for anything else (a month
        /// outside 1 to 12, a day outside 1 to 31, a year not of four digits).
        public init?(_ description: String) {
            if description == "undated" {
                self = .undated
                return
            }
            let parts = description.split(separator: "-", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
                parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
                let year = Int(parts[0]), year >= 0, let month = Int(parts[1]), (1...12).contains(month)
            else { return nil }
            guard parts.count == 3 else {
                self = .month(year: year, month: month)
                return
            }
            guard let day = Int(parts[2]), (1...31).contains(day) else { return nil }
            self = .day(year: year, month: month, day: day)
        }

        /// The month a day is in; a month itself; nil for the undated.
        public var containingMonth: Period? {
            switch self {
            case .undated: nil
            case .month: self
            case .day(let year, let month, _): .month(year: year, month: month)
            }
        }

        /// The engine's key of the period: YYYYMM, YYYYMMDD, or 0.
        var key: Int {
            switch self {
            case .undated: 0
            case .month(let year, let month): year * 100 + month
            case .day(let year, let month, let day): (year * 100 + month) * 100 + day
            }
        }

        /// The period of an engine key (see ``key``).
        init(key: Int) {
            self =
                switch key {
                case 0: .undated
                case 1_000_000...: .day(year: key / 10_000, month: key / 100 % 100, day: key % 100)
                default: .month(year: key / 100, month: key % 100)
                }
        }
    }

    /// The period it covers.
    public let id: Period
    /// How many assets it holds.
    public let count: Int
    /// Changes whenever an asset in the bucket is added, removed or
    /// changed: a validator for caches of the bucket's pages.
    public let fingerprint: String

    /// The year of the bucket; nil for the undated assets.
    public var year: Int? {
        switch id {
        case .undated: nil
        case .month(let year, _), .day(let year, _, _): year
        }
    }
    /// The month of the bucket (1 to 12); nil for the undated assets.
    public var month: Int? {
        switch id {
        case .undated: nil
        case .month(_, let month), .day(_, let month, _): month
        }
    }
    /// The day of the month, for a day's bucket.
    public var day: Int? {
        if case .day(_, _, let day) = id { day } else { nil }
    }
}

/// A page of a bucket, newest first, as columns: one array per property,
/// each as long as `localIdentifiers`. What a grid needs to lay out and
/// show its cells before any thumbnail arrives.
public struct PHTimelinePage: Sendable, Equatable {
    /// The assets, newest first.
    public var localIdentifiers: [String] = []
    /// Width over height, as the asset shows (edits included).
    public var aspectRatios: [Double] = []
    /// When each was taken; nil for the undated.
    public var creationDates: [Date?] = []
    /// Photo, video or audio.
    public var mediaTypes: [PHAssetMediaType] = []
    /// Seconds, for videos; 0 for photos.
    public var durations: [TimeInterval] = []
    /// Whether each is a favorite.
    public var favorites: [Bool] = []
    /// Each one's stars (``PHAsset/rating``).
    public var ratings: [PHAsset.Rating] = []
    /// ThumbHash placeholders; nil for an asset that has none (one the
    /// library could not decode).
    public var thumbHashes: [Data?] = []
    /// The content versions, for versioned rendition URLs.
    public var contentVersions: [Int] = []
}

/// The timeline, an OpenPhotoKit addition for photo grids that scroll
/// through time: a fetch's assets counted by month and by day, and read a
/// bucket's page at a time. The fetch options' predicate and inclusions
/// apply, as this client's grant does; the order is the timeline's
/// (newest first), so sort descriptors are not taken.
extension PHPhotoLibrary {
    /// The months that hold assets, newest first (the undated last).
    /// Cost: for the whole library with the default inclusions, seen with
    /// full access, one row per month (counts kept as change blocks
    /// commit); with a predicate, other inclusions or a limited grant, one
    /// pass over the assets, about a second per million.
    public func timelineMonths(options: PHFetchOptions? = nil) throws -> [PHTimelineBucket] {
        try timelineBuckets(.months, options: options)
    }

    /// The days of a month's bucket that hold assets, newest first.
    public func timelineDays(of month: PHTimelineBucket, options: PHFetchOptions? = nil) throws -> [PHTimelineBucket] {
        guard case .month = month.id else { throw PHPhotosError(.invalidResource, "\(month.id) is not a month's bucket") }
        return try timelineBuckets(.days(ofMonth: month.id.key), options: options)
    }

    /// Up to `limit` assets of a bucket from `offset`, newest first. Cost:
    /// one indexed query.
    public func timelinePage(
        of bucket: PHTimelineBucket, offset: Int = 0, limit: Int = 2000,
        options: PHFetchOptions? = nil
    ) throws -> PHTimelinePage {
        let query = try timelineQuery(options)
        let granularity: TimelineGranularity = if case .day = bucket.id, let month = bucket.id.containingMonth { .days(ofMonth: month.key) } else { .months }
        let rows = try withStore { store throws(StoreError) in
            try store.timelineRows(query, bucket: bucket.id.key, granularity: granularity, offset: offset, limit: limit)
        }
        var page = PHTimelinePage()
        for row in rows {
            page.localIdentifiers.append(LocalIdentifier(uuid: row.uuid, entity: .asset).description)
            page.aspectRatios.append(row.pixelHeight > 0 ? Double(row.pixelWidth) / Double(row.pixelHeight) : 1)
            page.creationDates.append(row.creationDate)
            page.mediaTypes.append(PHAssetMediaType(row.mediaType))
            page.durations.append(row.duration)
            page.favorites.append(row.isFavorite)
            page.ratings.append(PHAsset.Rating(row.rating))
            page.thumbHashes.append(row.thumbHash)
            page.contentVersions.append(row.contentVersion)
        }
        return page
    }

    private func timelineBuckets(_ granularity: TimelineGranularity, options: PHFetchOptions?) throws -> [PHTimelineBucket] {
        let query = try timelineQuery(options)
        return try withStore { store throws(StoreError) in
            try store.timelineBuckets(query, granularity: granularity).map {
                PHTimelineBucket(id: .init(key: $0.key), count: $0.count, fingerprint: String(UInt64(bitPattern: $0.fingerprint), radix: 16))
            }
        }
    }

    private func timelineQuery(_ options: PHFetchOptions?) throws(PHPredicateError) -> AssetQuery {
        guard options?.sortDescriptors?.isEmpty ?? true else {
            throw PHPredicateError(reason: "the timeline has its own order, newest first: leave sortDescriptors unset")
        }
        return try Self.assetQuery(scope: .library, options: options)
    }
}

extension PHAsset {
    /// The asset's ThumbHash placeholder (about 25 bytes), an OpenPhotoKit
    /// addition: made at import and at each edit from what the asset
    /// shows; nil when the library could not decode it.
    public var thumbHash: Data? { record.thumbHash }
}
