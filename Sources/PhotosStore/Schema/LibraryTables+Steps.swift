extension LibraryTables {
    /// The schema's steps that every backend takes, in order, after the
    /// versions each wrote for itself before: SQLite's migrations from
    /// version 9 and PostgreSQL's from version 5 are these. Every step ever
    /// shipped stays listed; a new one goes at the end.
    package static let steps: [SchemaStep] = [
        // Share links get a grant of their own (`AccessGrant.sharedAlbum`):
        // the album they share, as it is at each read, rather than a limited
        // selection of its assets as they were when the link was made, which
        // let a link list every other album holding one of them. A link may
        // have a password (its scrypt hash, with its salt and parameters).
        // Links made before become shares of the album they were made for,
        // found by the title in their label among the albums holding all of
        // their selection; a link whose album cannot be found that way is
        // denied rather than left seeing more than one album.
        SchemaStep(
            name: "share links of their own",
            changes: [
                .addColumn(table: "client_access", column: "shared_album"),
                .addColumn(table: "access_token", column: "password_hash"),
                .run(
                    """
                    UPDATE client_access SET access = 5, shared_album = (
                        SELECT c.uuid FROM collection c JOIN access_token t ON t.client = client_access.client
                        WHERE c.kind = 1 AND c.type = 1 AND t.label = 'share: ' || COALESCE(c.title, 'album')
                          AND NOT EXISTS (
                            SELECT 1 FROM client_selection s JOIN asset a ON a.uuid = s.uuid
                            WHERE s.client = client_access.client AND s.entity = 1
                              AND a.id NOT IN (SELECT m.asset_id FROM collection_asset m WHERE m.collection_id = c.id))
                        ORDER BY c.id LIMIT 1)
                    WHERE client LIKE 'share.%' AND access = 2
                    """),
                .run("UPDATE client_access SET access = 4 WHERE access = 5 AND shared_album IS NULL"),
            ]),
        // Descriptive metadata (PHAsset.rating, PHAssetExtendedMetadata):
        // a rating of none to five stars, a caption, and keywords. The
        // caption and keywords are read on demand, apart from the row's
        // other columns, so they stay off the fetch's hot path.
        SchemaStep(
            name: "ratings, captions and keywords",
            changes: [
                .addColumn(table: "asset", column: "rating"),
                .addColumn(table: "asset", column: "caption"),
                .addColumn(table: "asset", column: "keywords"),
            ]),
        // Editing state (PHAsset.adjustmentTimestamp, originalResourceChoice):
        // when the content was last edited or reverted, and which original
        // of a RAW+JPEG pair renders. An edit made before is dated by the
        // asset's last change, the nearest record of it; animated images
        // get PHAssetMediaSubtype.photoAnimation, as new imports do.
        SchemaStep(
            name: "editing state and animation subtype",
            changes: [
                .addColumn(table: "asset", column: "adjustment_timestamp"),
                .addColumn(table: "asset", column: "original_resource_choice"),
                .run("UPDATE asset SET adjustment_timestamp = modification_date WHERE adjustment_format_identifier IS NOT NULL"),
                .run("UPDATE asset SET media_subtypes = media_subtypes | 64 WHERE playback_style = 2 AND media_subtypes & 64 = 0"),
            ]),
        // Upload jobs and the extensions that ask for them.
        SchemaStep(
            name: "upload jobs",
            changes: [.createTable("upload_job"), .createTable("upload_extension"), .createIndex("upload_job_by_client_state")]),
        // Live Photo effects (PHAsset.playbackVariation): Loop, Bounce or
        // Long Exposure, as a Live Photo's files or their `.AAE` sidecar say
        // when it is added. Assets added before have none recorded.
        SchemaStep(name: "live photo effects", changes: [.addColumn(table: "asset", column: "playback_variation")]),
        // Search: what the indexer finds in each asset, its full-text
        // index, the places assets were taken, and where each indexer is.
        SchemaStep(
            name: "search index and places",
            changes: [
                .createTable("asset_search"), .createTextSearchIndex, .createTable("asset_place"), .createIndex("asset_place_by_country"),
                .createTable("indexer_state"),
            ]),
        // An indexer reads a change block of more assets than one batch
        // (a large import) over several, each written with the last asset
        // it reached, so that slow kinds (text) keep their lease and a
        // stopped run resumes inside the block.
        SchemaStep(name: "indexers resume inside a change block", changes: [.addColumn(table: "indexer_state", column: "change_after")]),
        // Typo tolerance: the index's vocabulary, which a search that found
        // nothing reads for the words near those it typed.
        SchemaStep(name: "search vocabulary", changes: [.createSearchTerms]),
        // Photos that look alike: each asset's perceptual hash.
        SchemaStep(name: "perceptual hashes", changes: [.createTable("asset_hash")]),
        // People: the faces found in photos, grouped into people.
        SchemaStep(
            name: "people",
            changes: [.createTable("person"), .createTable("face"), .createIndex("face_by_asset"), .createIndex("face_by_person")]),
        // Look-alikes someone said are not, remembered.
        SchemaStep(name: "look-alike dismissals", changes: [.createTable("look_alike_dismissal"), .createIndex("look_alike_dismissal_by_asset")]),
        // The map: the assets located in a box, found by their position.
        SchemaStep(name: "assets by location", changes: [.createIndex("asset_by_location")]),
    ]

    /// The columns steps add to tables that exist, which a table created by
    /// an earlier step leaves out: the step that adds them comes after.
    static let columnsAddedLater: Set<SchemaChange> = Set(
        steps.flatMap(\.changes).filter {
            if case .addColumn = $0 { return true }
            return false
        })
}
