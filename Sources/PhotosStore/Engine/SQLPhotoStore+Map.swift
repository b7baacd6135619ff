import Foundation

extension SQLPhotoStore {
    package func locationClusters(in bounds: LocationBounds, cellDegrees: Double, limit: Int) throws(StoreError) -> [LocationCluster] {
        guard cellDegrees.isFinite, cellDegrees >= LocationCluster.smallestCell, cellDegrees <= 360 else {
            throw .limitExceeded("a map's cell is from \(LocationCluster.smallestCell) to 360 degrees, not \(cellDegrees)")
        }
        guard (1...LocationCluster.maximumCount).contains(limit) else {
            throw .limitExceeded("a map shows from 1 to \(LocationCluster.maximumCount) clusters, not \(limit)")
        }
        return try readObjects { db, scope in
            // The timeline's assets: what a search of the library finds.
            let shown = SQLFragment(sql: ShownAssets.inTimeline(.asset)) + scope.assetCondition(.asset).andClause
            // Inside the box, latitude - south and longitude - west are never negative: their whole part is their floor.
            // The numbers are finite doubles, written as literals (each in parentheses, so a minus never meets a minus).
            let row = db.dialect.wholePart(of: "(a.latitude - (\(bounds.south))) / (\(cellDegrees))")
            let column = db.dialect.wholePart(of: "(a.longitude - (\(bounds.west))) / (\(cellDegrees))")
            let sql: SQLFragment = """
                WITH cell AS (
                    SELECT \(sql: row) AS cell_row, \(sql: column) AS cell_column, COUNT(*) AS asset_count,
                           AVG(a.latitude) AS latitude, AVG(a.longitude) AS longitude,
                           MIN(a.latitude) AS south, MIN(a.longitude) AS west, MAX(a.latitude) AS north, MAX(a.longitude) AS east,
                           MAX(a.id) AS cover
                    FROM asset a
                    WHERE a.latitude BETWEEN \(bounds.south) AND \(bounds.north) AND a.longitude BETWEEN \(bounds.west) AND \(bounds.east)
                      AND \(shown)
                    GROUP BY cell_row, cell_column
                    ORDER BY asset_count DESC, cover DESC
                    LIMIT \(limit))
                SELECT cell.*, c.uuid FROM cell JOIN asset c ON c.id = cell.cover ORDER BY cell.asset_count DESC, cell.cover DESC
                """
            return try db.fetchAll(SQLRow.self, sql).map { row in
                let box = LocationBounds(south: try row["south"], west: try row["west"], north: try row["north"], east: try row["east"])
                return LocationCluster(
                    assetCount: try row["asset_count"], latitude: try row["latitude"], longitude: try row["longitude"],
                    bounds: box ?? bounds, coverUUID: try row["uuid"])
            }
        }
    }
}
