import Foundation
import PhotosStore

/// One bucket of the timeline: the assets taken in one month, or on one
/// day, in the time zone they were taken in. An OpenPhotoKit addition.
public struct PHTimelineBucket: Sendable, Hashable, Identifiable {
    /// YYYYMM for a month, YYYYMMDD for a day; 0 for the assets without a date.
    public let id: Int
    /// How many assets it holds.
    public let count: Int
    /// Changes whenever an asset in the bucket is added, removed or
    /// changed: a validator for caches of the bucket's pages.
    public let fingerprint: String

    /// The year of the bucket; nil for the undated assets.
    public var year: Int? { id == 0 ? nil : isDay ? id / 10_000 : id / 100 }
    /// The month of the bucket (1 to 12); nil for the undated assets.
    public var month: Int? { id == 0 ? nil : isDay ? id / 100 % 100 : id % 100 }
    /// The day of the month, for a day's bucket.
    public var day: Int? { isDay ? id % 100 : nil }
    var isDay: Bool { id >= 1_000_000 }
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
        guard !month.isDay else { throw PHPhotosError(.invalidResource, "\(month.id) is a day's bucket, not a month's") }
        return try timelineBuckets(.days(ofMonth: month.id), options: options)
    }

    /// Up to `limit` assets of a bucket from `offset`, newest first. Cost:
    /// one indexed query.
    public func timelinePage(of bucket: PHTimelineBucket, offset: Int = 0, limit: Int = 2000,
                             options: PHFetchOptions? = nil) throws -> PHTimelinePage {
        let query = try timelineQuery(options)
        let granularity: TimelineGranularity = bucket.isDay ? .days(ofMonth: bucket.id / 100) : .months
        let rows = try withStore { store throws(StoreError) in
            try store.timelineRows(query, bucket: bucket.id, granularity: granularity, offset: offset, limit: limit)
        }
        var page = PHTimelinePage()
        for row in rows {
            page.localIdentifiers.append(LocalIdentifier(uuid: row.uuid, entity: .asset).description)
            page.aspectRatios.append(row.pixelHeight > 0 ? Double(row.pixelWidth) / Double(row.pixelHeight) : 1)
            page.creationDates.append(row.creationDate)
            page.mediaTypes.append(PHAssetMediaType(row.mediaType))
            page.durations.append(row.duration)
            page.favorites.append(row.isFavorite)
            page.thumbHashes.append(row.thumbHash)
            page.contentVersions.append(row.contentVersion)
        }
        return page
    }

    private func timelineBuckets(_ granularity: TimelineGranularity, options: PHFetchOptions?) throws -> [PHTimelineBucket] {
        let query = try timelineQuery(options)
        return try withStore { store throws(StoreError) in
            try store.timelineBuckets(query, granularity: granularity).map {
                PHTimelineBucket(id: $0.key, count: $0.count, fingerprint: String(UInt64(bitPattern: $0.fingerprint), radix: 16))
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
