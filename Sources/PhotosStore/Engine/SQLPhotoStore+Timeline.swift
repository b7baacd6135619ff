import Foundation
import GRDB

/// The timeline's queries: counts by month or day from the `asset_by_local_day`
/// index, and pages of a bucket with what a grid shows.
extension SQLPhotoStore {
    package func timelineBuckets(_ query: AssetQuery, granularity: TimelineGranularity) throws(StoreError) -> [TimelineBucketRecord] {
        try readObjects { db, scope in
            if case .months = granularity, Self.isDefaultView(query), scope.assetCondition(.asset) == nil {
                return try db.fetchAll(
                    SQLRow.self,
                    sql: """
                        SELECT local_month, asset_count, id_total, version FROM timeline_month WHERE asset_count > 0 ORDER BY local_month DESC
                        """
                ).map { row in
                    let count: Int = try row[1]
                    return try TimelineBucketRecord(
                        key: row[0], count: count,
                        fingerprint: Self.fingerprint(count, Double(row[2] as Int64), Double(row[3] as Int64)))
                }
            }
            guard let plan = FetchSQL.assetPlan(query, scope: scope, dialect: db.dialect, now: Date()) else { return [] }
            let aggregates = ["COUNT(*)", "COALESCE(SUM(CAST(a.id AS DOUBLE PRECISION)), 0.0)", "MAX(a.modification_date)"]
            let statement: SQLFragment
            switch granularity {
            case .months:
                statement = plan.grouped(by: "COALESCE(a.local_month, 0)", aggregates: aggregates)
            case .days(let month):
                statement = plan.grouped(
                    by: "COALESCE(a.local_day, 0)", aggregates: aggregates,
                    condition: month == 0 ? "a.local_month IS NULL" : "a.local_month = \(month)")
            }
            return try db.fetchAll(SQLRow.self, statement).map { row in
                let count: Int = try row[1]
                return try TimelineBucketRecord(
                    key: row[0], count: count,
                    fingerprint: Self.fingerprint(count, row[2] as Double, (row[3] as Double?) ?? 0))
            }
        }
    }

    package func timelineRows(
        _ query: AssetQuery, bucket key: Int, granularity: TimelineGranularity,
        offset: Int, limit: Int
    ) throws(StoreError) -> [TimelineRow] {
        try readObjects { db, scope in
            guard let plan = FetchSQL.assetPlan(query, scope: scope, dialect: db.dialect, now: Date()) else { return [] }
            let column =
                switch granularity {
                case .months: "a.local_month"
                case .days: "a.local_day"
                }
            let statement = plan.page(
                """
                a.uuid, a.pixel_width, a.pixel_height, a.creation_date, a.media_type, a.duration, a.is_favorite,
                a.rating, a.thumb_hash, a.content_version
                """, condition: key == 0 ? "\(sql: column) IS NULL" : "\(sql: column) = \(key)",
                orderBy: "a.creation_date \(db.dialect.direction(ascending: false)), a.id DESC", offset: max(0, offset), limit: max(0, limit))
            return try db.fetchAll(SQLRow.self, statement).map { row in
                try TimelineRow(
                    uuid: row[0], pixelWidth: row[1], pixelHeight: row[2],
                    creationDate: (row[3] as Double?).map(Date.init(timeIntervalSince1970:)),
                    mediaType: AssetMediaType(rawValue: row[4]) ?? .unknown, duration: row[5], isFavorite: row[6],
                    rating: AssetRating(rawValue: row[7]) ?? .unset,
                    thumbHash: row[8], contentVersion: row[9])
            }
        }
    }

    /// Whether a query asks for what `timeline_month` counts: the whole
    /// library, unfiltered, with the default inclusions.
    private static func isDefaultView(_ query: AssetQuery) -> Bool {
        query.scope == .library && query.filter == .all && !query.includeHiddenAssets && !query.includeAllBurstAssets
            && (query.sourceTypes.isEmpty || query.sourceTypes == .userLibrary)
    }

    /// FNV-1a over what changes when a bucket's assets do.
    private static func fingerprint(_ count: Int, _ idTotal: Double, _ lastModified: Double) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in [UInt64(count), idTotal.bitPattern, lastModified.bitPattern] {
            for shift in stride(from: 0, to: 64, by: 8) {
                hash = (hash ^ ((value >> UInt64(shift)) & 0xff)) &* 0x100_0000_01b3
            }
        }
        return Int64(bitPattern: hash)
    }
}
