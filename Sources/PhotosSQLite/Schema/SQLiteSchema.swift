import Foundation
import GRDB
import PhotosStore

/// The library's schema and its migrations.
///
/// Every migration ever shipped stays registered: opening a library applies
/// the ones it lacks, and a library that has migrations this build does not
/// know is refused as newer.
enum SQLiteSchema {
    /// The migrations this backend wrote for itself, before the steps
    /// every backend shares (``LibraryTables/steps``) took over.
    private static let ownVersions = 8

    /// The library format this build writes, recorded in the VERSION file:
    /// the number of its migrations.
    static var formatVersion: Int { ownVersions + LibraryTables.steps.count }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: assets, resources, collections") { db in
            try createVersion1(db)
        }
        migrator.registerMigration("v2: change history") { db in
            try createVersion2(db)
        }
        migrator.registerMigration("v3: persistent history and client access") { db in
            try createVersion3(db)
        }
        migrator.registerMigration("v4: content hashes and edits") { db in
            try createVersion4(db)
        }
        migrator.registerMigration("v5: access tokens and placeholders") { db in
            try createVersion5(db)
        }
        migrator.registerMigration("v6: a month's assets in date order") { db in
            try createVersion6(db)
        }
        migrator.registerMigration("v7: timeline month counts") { db in
            try createVersion7(db)
        }
        migrator.registerMigration("v8: every change block's object count") { db in
            try createVersion8(db)
        }
        for (offset, step) in LibraryTables.steps.enumerated() {
            migrator.registerMigration("v\(ownVersions + 1 + offset): \(step.name)") { db in
                for statement in step.statements(in: .sqlite) { try db.execute(sql: statement) }
            }
        }
        return migrator
    }

    /// What each committed change block did to each object, written in the
    /// block's own transaction: change observation and persistent history
    /// read it.
    private static func createVersion2(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE change_entry (
                    transaction_id INTEGER NOT NULL REFERENCES change_transaction(id) ON DELETE CASCADE,
                    entity INTEGER NOT NULL,      -- StoreEntity: 1 asset, 2 asset collection, 3 collection list
                    row_id INTEGER NOT NULL,
                    uuid TEXT NOT NULL,
                    kind INTEGER NOT NULL,        -- 1 inserted, 2 updated, 3 deleted
                    attributes TEXT NOT NULL DEFAULT ''  -- what an update changed, comma-separated
                );
                CREATE INDEX change_entry_by_transaction ON change_entry(transaction_id);
                """)
    }

    /// Persistent history: each change block gets a random stamp, so a token
    /// names one library state even across copies and restores, and says
    /// whether its details were kept. History entries are clustered by
    /// change block (one b-tree, written once per block) and may be meant
    /// for one client: a change of its access. Client access: the owner's
    /// grant to each client and a limited client's selection.
    private static func createVersion3(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE change_transaction ADD COLUMN stamp INTEGER NOT NULL DEFAULT 0;
                -- 1: every object change is in change_entry; 0: the block touched more
                -- objects than the retention keeps details for, object_count of them.
                ALTER TABLE change_transaction ADD COLUMN details INTEGER NOT NULL DEFAULT 1;
                ALTER TABLE change_transaction ADD COLUMN object_count INTEGER NOT NULL DEFAULT 0;
                UPDATE change_transaction SET stamp = (random() & 9223372036854775807) | 1;

                CREATE TABLE history_entry (
                    transaction_id INTEGER NOT NULL REFERENCES change_transaction(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,    -- order within the change block
                    entity INTEGER NOT NULL,      -- StoreEntity; 0: a client's grant changed
                    row_id INTEGER NOT NULL,
                    uuid TEXT NOT NULL,
                    kind INTEGER NOT NULL,        -- 1 inserted, 2 updated, 3 deleted
                    attributes TEXT NOT NULL DEFAULT '',  -- what an update changed, comma-separated
                    client TEXT,                  -- non-null: only this client reads the entry
                    PRIMARY KEY (transaction_id, position)
                ) WITHOUT ROWID;
                INSERT INTO history_entry (transaction_id, position, entity, row_id, uuid, kind, attributes)
                    SELECT transaction_id, rowid, entity, row_id, uuid, kind, attributes FROM change_entry;
                DROP TABLE change_entry;
                ALTER TABLE history_entry RENAME TO change_entry;

                CREATE TABLE client_access (
                    client TEXT PRIMARY KEY,
                    access INTEGER,               -- AccessGrant; NULL while the owner has not decided
                    requested_level INTEGER,      -- PhotoKit's PHAccessLevel of the last request
                    requested_at REAL,
                    decided_at REAL
                ) WITHOUT ROWID;

                -- What a limited client may see: assets the owner selected or the
                -- client created, and collections it created. No foreign key: the
                -- selection outlives a deletion, so the client hears of it.
                CREATE TABLE client_selection (
                    client TEXT NOT NULL,
                    entity INTEGER NOT NULL,      -- StoreEntity
                    uuid TEXT NOT NULL,
                    PRIMARY KEY (client, entity, uuid)
                ) WITHOUT ROWID;

                -- Summaries depend on who reads them now; FetchSQL.collectionSource computes them.
                DROP VIEW collection_summary;
                """)
    }

    /// Content: each asset's original has a hash, to recognise duplicates at
    /// import, and a content version that edits bump, so that derivatives of
    /// an older version are never served.
    private static func createVersion4(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE asset ADD COLUMN content_hash TEXT;
                ALTER TABLE asset ADD COLUMN content_version INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE asset ADD COLUMN adjustment_format_version TEXT;
                CREATE INDEX asset_by_content_hash ON asset(content_hash) WHERE content_hash IS NOT NULL;
                """)
    }

    /// The server's bearer tokens, stored as hashes of their secrets, each
    /// acting for a client (or the owner) whose grant the engine enforces;
    /// each asset's ThumbHash placeholder, computed at import and at each
    /// edit; and the timeline's day and month of each asset.
    /// The timeline's months as the library's default view counts them
    /// (not trashed, not hidden, no hidden burst members, from the user's
    /// library), kept by triggers in each change block's transaction: the
    /// owner's month summary reads 121 rows instead of scanning a million.
    /// `version` moves whenever an asset counted in the month changes, so
    /// a month's ETag does. Limited grants and filtered timelines still
    /// count with a query.
    private static func createVersion7(_ db: Database) throws {
        let counted = ShownAssets.inTimeline
        let add = """
            INSERT INTO timeline_month VALUES (COALESCE(NEW.local_month, 0), 1, NEW.id, 1)
                ON CONFLICT(local_month) DO UPDATE SET asset_count = asset_count + 1, id_total = id_total + NEW.id,
                                                      version = version + 1;
            """
        let remove = """
            UPDATE timeline_month SET asset_count = asset_count - 1, id_total = id_total - OLD.id, version = version + 1
                WHERE local_month = COALESCE(OLD.local_month, 0);
            """
        try db.execute(
            sql: """
                CREATE TABLE timeline_month (
                    local_month INTEGER PRIMARY KEY,  -- YYYYMM; 0 for the undated
                    asset_count INTEGER NOT NULL,
                    id_total INTEGER NOT NULL,
                    version INTEGER NOT NULL
                );
                INSERT INTO timeline_month
                    SELECT COALESCE(local_month, 0), COUNT(*), SUM(id), 0 FROM asset a WHERE \(counted(.asset)) GROUP BY 1;
                CREATE TRIGGER timeline_month_on_insert AFTER INSERT ON asset WHEN \(counted(.newRow)) BEGIN \(add) END;
                CREATE TRIGGER timeline_month_on_delete AFTER DELETE ON asset WHEN \(counted(.oldRow)) BEGIN \(remove) END;
                CREATE TRIGGER timeline_month_on_update_from AFTER UPDATE ON asset WHEN \(counted(.oldRow)) BEGIN \(remove) END;
                CREATE TRIGGER timeline_month_on_update_to AFTER UPDATE ON asset WHEN \(counted(.newRow)) BEGIN \(add) END;
                """)
    }

    /// Every change block records how many objects it changed, not only one
    /// whose details were dropped, so that listing the blocks a reader may
    /// see reads `change_transaction` alone: a block with object changes is
    /// seen by every reader with read-write access, and only a block
    /// without (one changing a client's access) needs its entries looked
    /// at. Blocks committed before count their entries for everyone.
    private static func createVersion8(_ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE change_transaction SET object_count = (
                    SELECT COUNT(*) FROM change_entry e WHERE e.transaction_id = change_transaction.id AND e.client IS NULL)
                WHERE details = 1
                """)
    }

    /// A month's assets in the timeline's order (date, then id), with every
    /// column the default filters read (burst_member_hidden's own among
    /// them), so that a page of a timeline bucket walks the index in order,
    /// skips the rows before it without reading the table, and reads the
    /// table for its own rows only: 5 ms rather than 60 for the last page of
    /// an 8,000-asset month.
    private static func createVersion6(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX asset_by_local_month_date ON asset(
                    local_month, creation_date, id, trashed_date, is_hidden, source_type,
                    burst_identifier, represents_burst, burst_selection_types);
                """)
    }

    private static func createVersion5(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE access_token (
                    id TEXT PRIMARY KEY,          -- the public half of the token, shown in listings
                    secret_hash BLOB NOT NULL,    -- SHA-256 of the secret half
                    client TEXT,                  -- NULL: the library's owner
                    read_only INTEGER NOT NULL DEFAULT 0,
                    label TEXT NOT NULL DEFAULT '',
                    created_at REAL NOT NULL,
                    expires_at REAL
                ) WITHOUT ROWID;
                ALTER TABLE asset ADD COLUMN thumb_hash BLOB;           -- what the asset shows
                ALTER TABLE asset ADD COLUMN original_thumb_hash BLOB;  -- the original's, which a revert restores

                -- The timeline's day and month of each asset (YYYYMMDD, YYYYMM), in
                -- the time zone it was taken in, kept by triggers (stored, so that
                -- the index below covers the timeline's counts), and that index.
                ALTER TABLE asset ADD COLUMN local_day INTEGER;
                ALTER TABLE asset ADD COLUMN local_month INTEGER;
                UPDATE asset SET local_day = CAST(strftime('%Y%m%d', creation_date + COALESCE(time_zone_offset, 0), 'unixepoch') AS INTEGER);
                UPDATE asset SET local_month = local_day / 100;
                CREATE TRIGGER asset_local_day_on_insert AFTER INSERT ON asset BEGIN
                    UPDATE asset SET local_day = CAST(strftime('%Y%m%d', NEW.creation_date + COALESCE(NEW.time_zone_offset, 0), 'unixepoch') AS INTEGER),
                                     local_month = CAST(strftime('%Y%m', NEW.creation_date + COALESCE(NEW.time_zone_offset, 0), 'unixepoch') AS INTEGER)
                    WHERE id = NEW.id;
                END;
                CREATE TRIGGER asset_local_day_on_update AFTER UPDATE OF creation_date, time_zone_offset ON asset BEGIN
                    UPDATE asset SET local_day = CAST(strftime('%Y%m%d', NEW.creation_date + COALESCE(NEW.time_zone_offset, 0), 'unixepoch') AS INTEGER),
                                     local_month = CAST(strftime('%Y%m', NEW.creation_date + COALESCE(NEW.time_zone_offset, 0), 'unixepoch') AS INTEGER)
                    WHERE id = NEW.id;
                END;
                CREATE INDEX asset_by_local_day ON asset(local_month, local_day, trashed_date, is_hidden, burst_member_hidden,
                                                          source_type, modification_date);
                """)
    }

    private static func createVersion1(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE library_metadata (
                    key TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                ) WITHOUT ROWID;

                -- One row per committed change block; its id is the changeBlock number.
                CREATE TABLE change_transaction (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    committed_at REAL NOT NULL,
                    author TEXT
                );

                -- AUTOINCREMENT: a deleted asset's row id is never given to another,
                -- so fetch results made before a deletion never show the wrong object.
                CREATE TABLE asset (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    uuid TEXT NOT NULL UNIQUE,
                    media_type INTEGER NOT NULL,
                    media_subtypes INTEGER NOT NULL DEFAULT 0,
                    pixel_width INTEGER NOT NULL DEFAULT 0,
                    pixel_height INTEGER NOT NULL DEFAULT 0,
                    creation_date REAL,
                    modification_date REAL NOT NULL,
                    added_date REAL NOT NULL,
                    duration REAL NOT NULL DEFAULT 0,
                    latitude REAL,
                    longitude REAL,
                    altitude REAL,
                    location_date REAL,
                    horizontal_accuracy REAL,
                    course REAL,
                    speed REAL,
                    is_favorite INTEGER NOT NULL DEFAULT 0,
                    is_hidden INTEGER NOT NULL DEFAULT 0,
                    source_type INTEGER NOT NULL DEFAULT 1,
                    burst_identifier TEXT,
                    burst_selection_types INTEGER NOT NULL DEFAULT 0,
                    represents_burst INTEGER NOT NULL DEFAULT 0,
                    playback_style INTEGER NOT NULL,
                    adjustment_format_identifier TEXT,
                    trashed_date REAL,
                    is_front_camera INTEGER NOT NULL DEFAULT 0,
                    is_long_exposure INTEGER NOT NULL DEFAULT 0,
                    has_raw_original INTEGER NOT NULL DEFAULT 0,
                    original_filename TEXT,
                    uniform_type_identifier TEXT,
                    time_zone_offset INTEGER,
                    camera_make TEXT,
                    camera_model TEXT,
                    lens_model TEXT,
                    -- Burst members that are neither the representative nor a user pick
                    -- are left out of fetches unless includeAllBurstAssets is set.
                    burst_member_hidden INTEGER GENERATED ALWAYS AS (
                        burst_identifier IS NOT NULL AND represents_burst = 0 AND (burst_selection_types & 2) = 0
                    ) VIRTUAL
                );
                -- Covers the default timeline fetch: ordered by date, filtered without table lookups.
                CREATE INDEX asset_timeline ON asset(
                    creation_date, id, trashed_date, is_hidden, burst_member_hidden, source_type, media_type, is_favorite);
                CREATE INDEX asset_by_added_date ON asset(added_date);
                CREATE INDEX asset_by_trashed_date ON asset(trashed_date) WHERE trashed_date IS NOT NULL;
                CREATE INDEX asset_by_burst ON asset(burst_identifier) WHERE burst_identifier IS NOT NULL;

                CREATE TABLE resource (
                    id INTEGER PRIMARY KEY,
                    asset_id INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                    type INTEGER NOT NULL,
                    relative_path TEXT NOT NULL UNIQUE,
                    original_filename TEXT NOT NULL,
                    uniform_type_identifier TEXT NOT NULL,
                    pixel_width INTEGER NOT NULL DEFAULT 0,
                    pixel_height INTEGER NOT NULL DEFAULT 0,
                    file_size INTEGER NOT NULL
                );
                CREATE INDEX resource_by_asset ON resource(asset_id);

                -- Albums, smart albums and folders. kind 1: asset collection, 2: collection list.
                CREATE TABLE collection (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    uuid TEXT NOT NULL UNIQUE,
                    kind INTEGER NOT NULL,
                    type INTEGER NOT NULL,
                    subtype INTEGER NOT NULL,
                    title TEXT,
                    parent_id INTEGER REFERENCES collection(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL DEFAULT 0,
                    creation_date REAL NOT NULL,
                    modification_date REAL NOT NULL
                );
                CREATE INDEX collection_by_parent ON collection(parent_id, position);

                CREATE TABLE collection_asset (
                    collection_id INTEGER NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
                    asset_id INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    PRIMARY KEY (collection_id, asset_id)
                ) WITHOUT ROWID;
                CREATE INDEX collection_asset_by_asset ON collection_asset(asset_id);
                CREATE INDEX collection_asset_by_position ON collection_asset(collection_id, position);

                -- The identifiers of deleted objects, for fetch results made before the deletion.
                CREATE TABLE deleted_object (
                    entity INTEGER NOT NULL,
                    row_id INTEGER NOT NULL,
                    uuid TEXT NOT NULL,
                    deleted_at REAL NOT NULL,
                    PRIMARY KEY (entity, row_id)
                ) WITHOUT ROWID;

                -- Collections with what is computed from their members: the count and
                -- date range of the visible assets of regular albums.
                CREATE VIEW collection_summary AS
                SELECT c.*,
                    CASE WHEN c.kind = 1 AND c.type = 1 THEN (
                        SELECT COUNT(*) FROM collection_asset m JOIN asset a ON a.id = m.asset_id
                        WHERE m.collection_id = c.id AND \(ShownAssets.inAlbum(.asset))) END AS asset_count,
                    CASE WHEN c.kind = 1 AND c.type = 1 THEN (
                        SELECT MIN(a.creation_date) FROM collection_asset m JOIN asset a ON a.id = m.asset_id
                        WHERE m.collection_id = c.id AND \(ShownAssets.inAlbum(.asset))) END AS start_date,
                    CASE WHEN c.kind = 1 AND c.type = 1 THEN (
                        SELECT MAX(a.creation_date) FROM collection_asset m JOIN asset a ON a.id = m.asset_id
                        WHERE m.collection_id = c.id AND \(ShownAssets.inAlbum(.asset))) END AS end_date
                FROM collection c;
                """)
        let now = Date().timeIntervalSince1970
        try db.execute(
            sql: "INSERT INTO library_metadata (key, value) VALUES ('uuid', ?), ('created', ?)",
            arguments: [UUID().uuidString, String(now)])
        for (position, album) in SmartAlbumSubtype.libraryAlbums.enumerated() {
            try db.execute(
                sql: """
                    INSERT INTO collection (uuid, kind, type, subtype, title, position, creation_date, modification_date)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    UUID().uuidString, CollectionKind.assetCollection.rawValue, CollectionType.smartAlbum.storedType,
                    album.subtype.rawValue, album.title, position, now, now,
                ])
        }
    }
}
