import Foundation
import GRDB
import Testing

@testable import PhotosStore

/// The SQL each shape of fetch becomes on SQLite, pinned: a change to the
/// text a query compiles to (and so to its plan) shows here first, where
/// a reviewer sees it, rather than as a slower benchmark later. The
/// arguments are pinned beside their statements.
@Suite struct FetchSQLGoldenTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let shapes: [(name: String, sql: @Sendable () -> SQLFragment?)] = [
        (
            "library, sorted by creation date",
            {
                FetchSQL.assetIDs(AssetQuery(scope: .library, sort: [StoreSort(.creationDate, ascending: true)]), scope: .full, dialect: .sqlite, now: now)
            }
        ),
        (
            "library, predicate, newest first",
            {
                let filter: StoreFilter<AssetAttribute> = .and([
                    .compare(.attribute(.mediaType), .equal, .value(.integer(1)), []),
                    .compare(.attribute(.isFavorite), .equal, .value(.integer(1)), []),
                ])
                return FetchSQL.assetIDs(
                    AssetQuery(scope: .library, filter: filter, sort: [StoreSort(.creationDate, ascending: false)]),
                    scope: .full, dialect: .sqlite, now: now)
            }
        ),
        ("album, natural order", { FetchSQL.assetIDs(AssetQuery(scope: .album(rowID: 7)), scope: .full, dialect: .sqlite, now: now) }),
        (
            "favorites smart album",
            {
                FetchSQL.assetIDs(AssetQuery(scope: .smartAlbum(subtype: SmartAlbumSubtype.favorites)), scope: .full, dialect: .sqlite, now: now)
            }
        ),
        (
            "by identifier, hidden included",
            {
                FetchSQL.assetIDs(AssetQuery(scope: .uuids(["B", "A", "B"]), includeHiddenAssets: true), scope: .full, dialect: .sqlite, now: now)
            }
        ),
        (
            "library, burst identifier begins with, case-insensitive, limited client",
            {
                FetchSQL.assetIDs(
                    AssetQuery(
                        scope: .library,
                        filter: .compare(.attribute(.burstIdentifier), .beginsWith, .value(.text("b")), [.caseInsensitive]),
                        limit: 10),
                    scope: .limited(client: "com.example.viewer"), dialect: .sqlite, now: now)
            }
        ),
        ("top-level user collections", { FetchSQL.collectionIDs(CollectionQuery(scope: .children(ofRowID: nil)), scope: .full, dialect: .sqlite) }),
    ]

    @Test(arguments: shapes.indices)
    func eachQueryShapeCompilesToItsPinnedSQL(index: Int) throws {
        let shape = Self.shapes[index]
        let statement = try #require(shape.sql())
        let rendered = statement.text.split(whereSeparator: \.isWhitespace).joined(separator: " ") + " -- " + statement.arguments.description
        let expected = try #require(Self.golden[shape.name], "no golden SQL for \(shape.name); it compiles to:\n\(rendered)")
        #expect(rendered == expected, "\(shape.name)")
    }

    static let golden: [String: String] = [
        "library, sorted by creation date":
            "SELECT a.id FROM asset a WHERE a.trashed_date IS NULL AND a.is_hidden = 0 AND a.burst_member_hidden = 0 AND a.source_type IN (1) ORDER BY a.creation_date ASC, a.id ASC -- []",
        "library, predicate, newest first":
            "SELECT a.id FROM asset a WHERE a.trashed_date IS NULL AND a.is_hidden = 0 AND a.burst_member_hidden = 0 AND a.source_type IN (1) AND ((a.media_type = ?) AND (a.is_favorite = ?)) ORDER BY a.creation_date DESC, a.id DESC -- [1, 1]",
        "album, natural order":
            "SELECT a.id FROM asset a JOIN collection_asset m ON m.asset_id = a.id WHERE m.collection_id = ? AND a.trashed_date IS NULL AND a.is_hidden = 0 AND a.burst_member_hidden = 0 ORDER BY m.position ASC -- [7]",
        "favorites smart album":
            "SELECT a.id FROM asset a WHERE a.is_favorite = 1 AND a.trashed_date IS NULL AND a.is_hidden = 0 AND a.burst_member_hidden = 0 AND a.source_type IN (1) ORDER BY a.creation_date ASC, a.id ASC -- []",
        "by identifier, hidden included":
            "SELECT a.id FROM asset a JOIN json_each(?) k ON a.uuid = k.value WHERE a.trashed_date IS NULL ORDER BY k.key ASC -- [\"[\\\"B\\\",\\\"A\\\"]\"]",
        "library, burst identifier begins with, case-insensitive, limited client":
            "SELECT a.id FROM asset a WHERE a.trashed_date IS NULL AND a.is_hidden = 0 AND a.burst_member_hidden = 0 AND a.source_type IN (1) AND a.id IN (SELECT sa.id FROM client_selection s JOIN asset sa ON sa.uuid = s.uuid WHERE s.client = ? AND s.entity = 1) AND photos_text(7, 1, a.burst_identifier, ?) ORDER BY a.creation_date ASC, a.id ASC LIMIT 10 -- [\"com.example.viewer\", \"b\"]",
        "top-level user collections":
            "SELECT c.id FROM (SELECT c.*, CASE WHEN (c.kind = 1 AND c.type = 1) THEN (SELECT COUNT(*) FROM collection_asset m JOIN asset a ON a.id = m.asset_id WHERE m.collection_id = c.id AND a.trashed_date IS NULL AND a.is_hidden = 0) END AS asset_count, CASE WHEN (c.kind = 1 AND c.type = 1) THEN (SELECT MIN(a.creation_date) FROM collection_asset m JOIN asset a ON a.id = m.asset_id WHERE m.collection_id = c.id AND a.trashed_date IS NULL AND a.is_hidden = 0) END AS start_date, CASE WHEN (c.kind = 1 AND c.type = 1) THEN (SELECT MAX(a.creation_date) FROM collection_asset m JOIN asset a ON a.id = m.asset_id WHERE m.collection_id = c.id AND a.trashed_date IS NULL AND a.is_hidden = 0) END AS end_date FROM collection c) c WHERE c.parent_id IS NULL AND ((c.kind = 1 AND c.type = 1) OR (c.kind = 2 AND c.type = 2)) ORDER BY c.position ASC, c.id ASC -- []",
    ]
}
