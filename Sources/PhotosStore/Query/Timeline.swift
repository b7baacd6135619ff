import Foundation

/// The timeline: a fetch's assets by the month, or the day, they were
/// taken, in the time zone they were taken in.
package enum TimelineGranularity: Sendable, Equatable {
    /// Buckets of months (keys YYYYMM).
    case months
    /// Buckets of the days of one month (keys YYYYMMDD).
    case days(ofMonth: Int)
}

/// One bucket: its key (YYYYMM or YYYYMMDD; 0 for assets without a date),
/// how many assets it holds, and a fingerprint that changes whenever an
/// asset in it is added, removed or changed.
package struct TimelineBucketRecord: Sendable, Equatable {
    package var key: Int
    package var count: Int
    package var fingerprint: Int64
}

/// What a grid needs of each asset of a bucket page.
package struct TimelineRow: Sendable, Equatable {
    package var uuid: String
    package var pixelWidth: Int
    package var pixelHeight: Int
    package var creationDate: Date?
    package var mediaType: AssetMediaType
    package var duration: Double
    package var isFavorite: Bool
    package var rating: AssetRating
    package var thumbHash: Data?
    package var contentVersion: Int
}
