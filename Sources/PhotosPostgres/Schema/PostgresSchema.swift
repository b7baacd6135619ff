import Foundation
import PhotosStore
import PostgresNIO

/// A PostgreSQL library's schema and its migrations, versioned as SQLite's
/// are: every migration ever shipped stays listed, opening a library
/// applies those it lacks in one transaction, and a library that records a
/// migration this build does not know is refused as newer
/// (`newerLibraryVersion`), untouched.
///
/// The tables mirror the SQLite library's, so that one change set, one
/// query and one history read mean the same on both, with PostgreSQL's
/// types chosen for SQLite's semantics: text in the "C" collation (SQLite
/// compares text by bytes), booleans as 0/1 integers (predicates compare
/// them with numbers), dates as seconds since 1970 in double precision.
/// Row ids come from identity columns, which never hand out a number twice
/// (as SQLite's AUTOINCREMENT). The timeline's day and month and the hidden
/// burst member flag are generated columns; the month counts are kept by
/// triggers, added up in each writer's transaction and written as it
/// commits (version 3).
///
/// Several processes may open a new library at once: the migration runs
/// under a transaction-scoped advisory lock on the library's schema name,
/// so one creates it and the others find it made.
package enum PostgresSchema {
    /// One step of the schema, applied once, in order.
    struct Migration: Sendable {
        let version: Int
        let name: String
        let statements: @Sendable (_ schema: String) -> [String]
    }

    /// The first key of the advisory lock that migrations take; the second
    /// is the hash of the schema's name.
    static let schemaLock: Int32 = 0x5048_5301

    /// The newest schema version this build knows.
    package static var currentVersion: Int { migrations.last!.version }

    /// Every migration: this backend's own, then the steps every backend
    /// shares (``LibraryTables/steps``), rendered for PostgreSQL. Their
    /// statements name tables bare; the connection's `search_path` is the
    /// library's schema.
    static let migrations: [Migration] =
        [
            Migration(version: 1, name: "assets, collections, history, access and tokens", statements: version1),
            Migration(version: 2, name: "text comparison with NSPredicate's options", statements: version2),
            Migration(version: 3, name: "month counts written once per transaction", statements: version3),
            Migration(version: 4, name: "every change block's object count", statements: version4),
        ]
        + LibraryTables.steps.enumerated().map { offset, step in
            Migration(version: 5 + offset, name: step.name) { _ in step.statements(in: .postgres) }
        }

    /// What opening found.
    package struct Opening: Sendable {
        /// The library's identity, fixed when it was created.
        package var libraryUUID: String
        /// Where its originals are kept, as recorded at creation: `s3://…`, or
        /// `file:///…`, a directory every server mounts (nil only for a
        /// library created before the store required one).
        package var originals: String?
        /// Whether this opening created it.
        package var created: Bool
    }

    /// Brings the library's schema to ``currentVersion``, creating the
    /// library when `createIfNeeded` allows and it does not exist. Refuses a
    /// newer library, a missing one when creating is not allowed, and a
    /// library recording other originals than `originals` names.
    /// Cost: one transaction; a few statements when nothing is to do.
    ///
    /// `version` stops the migrations earlier, so tests can make a library
    /// as an older build left it.
    package static func open(
        _ database: LibraryDatabase, createIfNeeded: Bool, originals asked: String?,
        through version: Int = currentVersion
    ) throws(StoreError) -> Opening {
        let location = database.location
        return try database.write { connection in
            let schema = location.schema
            try await connection.run("SELECT pg_advisory_xact_lock(\(schemaLock), hashtext(\(schema)))")
            let exists =
                try await connection.run("SELECT 1 FROM pg_namespace WHERE nspname = \(schema)")
                .collect().isEmpty == false
            var applied = 0
            if exists {
                let rows = try await connection.run(PostgresQuery(unsafeSQL: "SELECT COALESCE(MAX(version), 0) FROM \"\(schema)\".schema_migration"))
                for try await version in rows.decode(Int.self) { applied = version }
                guard applied <= currentVersion else {
                    throw StoreError.newerLibraryVersion(path: location.url.absoluteString, found: applied, supported: currentVersion)
                }
            } else {
                guard createIfNeeded else {
                    throw StoreError.notALibrary(
                        path: location.url.absoluteString,
                        reason: "the database has no library named \(location.library) (photos init creates one)")
                }
                try await connection.run(PostgresQuery(unsafeSQL: "CREATE SCHEMA \"\(schema)\""))
                try await connection.run(
                    PostgresQuery(
                        unsafeSQL: """
                            CREATE TABLE "\(schema)".schema_migration (
                                version INTEGER PRIMARY KEY,
                                name TEXT NOT NULL,
                                applied_at DOUBLE PRECISION NOT NULL
                            )
                            """))
            }
            for migration in migrations where migration.version > applied && migration.version <= version {
                for statement in migration.statements(schema) {
                    try await connection.run(PostgresQuery(unsafeSQL: statement))
                }
                try await connection.run(
                    PostgresQuery(
                        unsafeSQL: """
                            INSERT INTO "\(schema)".schema_migration (version, name, applied_at) VALUES ($1, $2, $3)
                            """, binds: binds(migration.version, migration.name, Date().timeIntervalSince1970)))
            }
            if !exists {
                try await seed(connection, schema: schema, originals: asked)
            }
            var metadata: [String: String] = [:]
            let rows = try await connection.run(PostgresQuery(unsafeSQL: "SELECT key, value FROM \"\(schema)\".library_metadata"))
            for try await (key, value) in rows.decode((String, String).self) { metadata[key] = value }
            guard let uuid = metadata["uuid"] else {
                throw StoreError.damaged(path: location.url.absoluteString, reason: "its library_metadata names no library identity")
            }
            let recorded = metadata["originals"]
            if let asked, asked != recorded {
                throw StoreError.notALibrary(
                    path: location.url.absoluteString,
                    reason: "its originals are kept \(recorded.map { "at \($0)" } ?? "in a directory"), not at \(asked)")
            }
            return Opening(libraryUUID: uuid, originals: recorded, created: !exists)
        }
    }

    /// A new library's identity and its smart albums.
    private static func seed(_ connection: PostgresConnection, schema: String, originals: String?) async throws {
        let now = Date().timeIntervalSince1970
        var metadata = [("uuid", UUID().uuidString), ("created", String(now))]
        if let originals { metadata.append(("originals", originals)) }
        for (key, value) in metadata {
            try await connection.run(
                PostgresQuery(
                    unsafeSQL: "INSERT INTO \"\(schema)\".library_metadata (key, value) VALUES ($1, $2)",
                    binds: binds(key, value)))
        }
        for (position, album) in SmartAlbumSubtype.libraryAlbums.enumerated() {
            try await connection.run(
                PostgresQuery(
                    unsafeSQL: """
                        INSERT INTO "\(schema)".collection (uuid, kind, type, subtype, title, position, creation_date, modification_date)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
                        """,
                    binds: binds(
                        UUID().uuidString, CollectionKind.assetCollection.rawValue, CollectionType.smartAlbum.storedType,
                        album.subtype.rawValue, album.title, position, now)))
        }
    }

    private static func binds(_ values: any PostgresDynamicTypeEncodable...) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        return bindings
    }

    // MARK: - Versions

    /// `photos_text(comparison, options, lhs, rhs)`, what SQLite's function
    /// of that name (`TextMatching`) computes: NULL when either side is,
    /// else whether `lhs <comparison> rhs` after folding case (ICU's full
    /// lowercase) and diacritics (combining marks dropped after
    /// decomposition), with text ordered by its bytes. The comparison codes
    /// are `TextMatching.codes`; LIKE's `*`, `?` and `\` become a regular
    /// expression.
    @Sendable private static func version2(_ schema: String) -> [String] {
        let s = "\"\(schema)\""
        return [
            """
            CREATE FUNCTION \(s).photos_fold(value text, options bigint) RETURNS text
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
                SELECT CASE WHEN (options & 2) <> 0
                    THEN regexp_replace(normalize(CASE WHEN (options & 1) <> 0 THEN lower(value COLLATE "und-x-icu") ELSE value END, NFD),
                                        '[\\u0300-\\u036f]', '', 'g')
                    ELSE CASE WHEN (options & 1) <> 0 THEN lower(value COLLATE "und-x-icu") ELSE value END
                END
            $$
            """,
            """
            CREATE FUNCTION \(s).photos_like_pattern(pattern text) RETURNS text
            LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
            DECLARE
                result text := '^';
                position integer := 1;
                character text;
            BEGIN
                WHILE position <= length(pattern) LOOP
                    character := substr(pattern, position, 1);
                    IF character = '\\' AND position < length(pattern) THEN
                        position := position + 1;
                        result := result || regexp_replace(substr(pattern, position, 1), '([^[:alnum:]])', '\\\\\\1', 'g');
                    ELSIF character = '*' THEN
                        result := result || '.*';
                    ELSIF character = '?' THEN
                        result := result || '.';
                    ELSE
                        result := result || regexp_replace(character, '([^[:alnum:]])', '\\\\\\1', 'g');
                    END IF;
                    position := position + 1;
                END LOOP;
                RETURN result || '$';
            END
            $$
            """,
            """
            CREATE FUNCTION \(s).photos_text(comparison bigint, options bigint, lhs text, rhs text) RETURNS boolean
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
                SELECT CASE comparison
                    WHEN 0 THEN l = r
                    WHEN 1 THEN l <> r
                    WHEN 2 THEN l < r
                    WHEN 3 THEN l <= r
                    WHEN 4 THEN l > r
                    WHEN 5 THEN l >= r
                    WHEN 6 THEN r = '' OR strpos(l, r) > 0
                    WHEN 7 THEN left(l, length(r)) = r
                    WHEN 8 THEN length(r) = 0 OR right(l, length(r)) = r
                    WHEN 9 THEN l ~ \(s).photos_like_pattern(r)
                END
                FROM (SELECT \(s).photos_fold(lhs, options) COLLATE "C" AS l, \(s).photos_fold(rhs, options) COLLATE "C" AS r) folded
            $$
            """,
        ]
    }

    /// The whole library as SQLite's format version 7 has it (version 4 brings it to 8).
    @Sendable private static func version1(_ schema: String) -> [String] {
        let s = "\"\(schema)\""
        let localDate = "(to_timestamp(creation_date + COALESCE(time_zone_offset, 0)) AT TIME ZONE 'UTC')"
        return [
            """
            CREATE TABLE \(s).library_metadata (
                key TEXT COLLATE "C" PRIMARY KEY,
                value TEXT COLLATE "C" NOT NULL
            )
            """,
            // The last change block's number; its one row's lock orders commits (see ChangeBlockNumbering).
            """
            CREATE TABLE \(s).change_counter (
                only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
                last BIGINT NOT NULL
            )
            """,
            "INSERT INTO \(s).change_counter (last) VALUES (0)",
            """
            CREATE TABLE \(s).change_transaction (
                id BIGINT PRIMARY KEY,        -- the change block's number (ChangeBlockNumbering)
                committed_at DOUBLE PRECISION NOT NULL,
                author TEXT COLLATE "C",
                stamp BIGINT NOT NULL,
                details INTEGER NOT NULL DEFAULT 1,
                object_count BIGINT NOT NULL DEFAULT 0
            )
            """,
            """
            CREATE TABLE \(s).change_entry (
                transaction_id BIGINT NOT NULL REFERENCES \(s).change_transaction(id) ON DELETE CASCADE,
                position BIGINT NOT NULL,
                entity INTEGER NOT NULL,
                row_id BIGINT NOT NULL,
                uuid TEXT COLLATE "C" NOT NULL,
                kind INTEGER NOT NULL,
                attributes TEXT COLLATE "C" NOT NULL DEFAULT '',
                client TEXT COLLATE "C",
                PRIMARY KEY (transaction_id, position)
            )
            """,
            """
            CREATE TABLE \(s).asset (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                uuid TEXT COLLATE "C" NOT NULL UNIQUE,
                media_type BIGINT NOT NULL,
                media_subtypes BIGINT NOT NULL DEFAULT 0,
                pixel_width BIGINT NOT NULL DEFAULT 0,
                pixel_height BIGINT NOT NULL DEFAULT 0,
                creation_date DOUBLE PRECISION,
                modification_date DOUBLE PRECISION NOT NULL,
                added_date DOUBLE PRECISION NOT NULL,
                duration DOUBLE PRECISION NOT NULL DEFAULT 0,
                latitude DOUBLE PRECISION,
                longitude DOUBLE PRECISION,
                altitude DOUBLE PRECISION,
                location_date DOUBLE PRECISION,
                horizontal_accuracy DOUBLE PRECISION,
                course DOUBLE PRECISION,
                speed DOUBLE PRECISION,
                is_favorite BIGINT NOT NULL DEFAULT 0,
                is_hidden BIGINT NOT NULL DEFAULT 0,
                source_type BIGINT NOT NULL DEFAULT 1,
                burst_identifier TEXT COLLATE "C",
                burst_selection_types BIGINT NOT NULL DEFAULT 0,
                represents_burst BIGINT NOT NULL DEFAULT 0,
                playback_style BIGINT NOT NULL,
                adjustment_format_identifier TEXT COLLATE "C",
                trashed_date DOUBLE PRECISION,
                is_front_camera BIGINT NOT NULL DEFAULT 0,
                is_long_exposure BIGINT NOT NULL DEFAULT 0,
                has_raw_original BIGINT NOT NULL DEFAULT 0,
                original_filename TEXT COLLATE "C",
                uniform_type_identifier TEXT COLLATE "C",
                time_zone_offset BIGINT,
                camera_make TEXT COLLATE "C",
                camera_model TEXT COLLATE "C",
                lens_model TEXT COLLATE "C",
                content_hash TEXT COLLATE "C",
                content_version BIGINT NOT NULL DEFAULT 0,
                adjustment_format_version TEXT COLLATE "C",
                thumb_hash BYTEA,
                original_thumb_hash BYTEA,
                burst_member_hidden BIGINT GENERATED ALWAYS AS (
                    CASE WHEN burst_identifier IS NOT NULL AND represents_burst = 0 AND (burst_selection_types & 2) = 0 THEN 1 ELSE 0 END
                ) STORED,
                local_day BIGINT GENERATED ALWAYS AS (CAST(
                    date_part('year', \(localDate)) * 10000 + date_part('month', \(localDate)) * 100 + date_part('day', \(localDate))
                    AS BIGINT)) STORED,
                local_month BIGINT GENERATED ALWAYS AS (CAST(
                    date_part('year', \(localDate)) * 100 + date_part('month', \(localDate)) AS BIGINT)) STORED
            )
            """,
            """
            CREATE INDEX asset_timeline ON \(s).asset (
                creation_date NULLS FIRST, id, trashed_date, is_hidden, burst_member_hidden, source_type, media_type, is_favorite)
            """,
            "CREATE INDEX asset_by_added_date ON \(s).asset (added_date)",
            "CREATE INDEX asset_by_trashed_date ON \(s).asset (trashed_date) WHERE trashed_date IS NOT NULL",
            "CREATE INDEX asset_by_burst ON \(s).asset (burst_identifier) WHERE burst_identifier IS NOT NULL",
            "CREATE INDEX asset_by_content_hash ON \(s).asset (content_hash) WHERE content_hash IS NOT NULL",
            """
            CREATE INDEX asset_by_local_month_date ON \(s).asset (
                local_month, creation_date NULLS FIRST, id, trashed_date, is_hidden, source_type,
                burst_identifier, represents_burst, burst_selection_types)
            """,
            """
            CREATE INDEX asset_by_local_day ON \(s).asset (
                local_month, local_day, trashed_date, is_hidden, burst_member_hidden, source_type, modification_date)
            """,
            """
            CREATE TABLE \(s).resource (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                asset_id BIGINT NOT NULL REFERENCES \(s).asset(id) ON DELETE CASCADE,
                type BIGINT NOT NULL,
                relative_path TEXT COLLATE "C" NOT NULL UNIQUE,
                original_filename TEXT COLLATE "C" NOT NULL,
                uniform_type_identifier TEXT COLLATE "C" NOT NULL,
                pixel_width BIGINT NOT NULL DEFAULT 0,
                pixel_height BIGINT NOT NULL DEFAULT 0,
                file_size BIGINT NOT NULL
            )
            """,
            "CREATE INDEX resource_by_asset ON \(s).resource (asset_id)",
            """
            CREATE TABLE \(s).collection (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                uuid TEXT COLLATE "C" NOT NULL UNIQUE,
                kind BIGINT NOT NULL,
                type BIGINT NOT NULL,
                subtype BIGINT NOT NULL,
                title TEXT COLLATE "C",
                parent_id BIGINT REFERENCES \(s).collection(id) ON DELETE CASCADE,
                position BIGINT NOT NULL DEFAULT 0,
                creation_date DOUBLE PRECISION NOT NULL,
                modification_date DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX collection_by_parent ON \(s).collection (parent_id, position)",
            """
            CREATE TABLE \(s).collection_asset (
                collection_id BIGINT NOT NULL REFERENCES \(s).collection(id) ON DELETE CASCADE,
                asset_id BIGINT NOT NULL REFERENCES \(s).asset(id) ON DELETE CASCADE,
                position BIGINT NOT NULL,
                PRIMARY KEY (collection_id, asset_id)
            )
            """,
            "CREATE INDEX collection_asset_by_asset ON \(s).collection_asset (asset_id)",
            "CREATE INDEX collection_asset_by_position ON \(s).collection_asset (collection_id, position)",
            """
            CREATE TABLE \(s).deleted_object (
                entity INTEGER NOT NULL,
                row_id BIGINT NOT NULL,
                uuid TEXT COLLATE "C" NOT NULL,
                deleted_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (entity, row_id)
            )
            """,
            """
            CREATE TABLE \(s).client_access (
                client TEXT COLLATE "C" PRIMARY KEY,
                access INTEGER,
                requested_level INTEGER,
                requested_at DOUBLE PRECISION,
                decided_at DOUBLE PRECISION
            )
            """,
            """
            CREATE TABLE \(s).client_selection (
                client TEXT COLLATE "C" NOT NULL,
                entity INTEGER NOT NULL,
                uuid TEXT COLLATE "C" NOT NULL,
                PRIMARY KEY (client, entity, uuid)
            )
            """,
            """
            CREATE TABLE \(s).access_token (
                id TEXT COLLATE "C" PRIMARY KEY,
                secret_hash BYTEA NOT NULL,
                client TEXT COLLATE "C",
                read_only INTEGER NOT NULL DEFAULT 0,
                label TEXT COLLATE "C" NOT NULL DEFAULT '',
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION
            )
            """,
            """
            CREATE TABLE \(s).timeline_month (
                local_month BIGINT PRIMARY KEY,
                asset_count BIGINT NOT NULL,
                id_total BIGINT NOT NULL,
                version BIGINT NOT NULL
            )
            """,
            // One trigger function keeps the month counts for inserts, deletes and
            // updates: an updated asset leaves its old month and joins its new one.
            """
            CREATE FUNCTION \(s).timeline_month_count() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP IN ('DELETE', 'UPDATE') AND \(counted(.oldRow)) THEN
                    UPDATE \(s).timeline_month SET asset_count = asset_count - 1, id_total = id_total - OLD.id, version = version + 1
                        WHERE local_month = COALESCE(OLD.local_month, 0);
                END IF;
                IF TG_OP IN ('INSERT', 'UPDATE') AND \(counted(.newRow)) THEN
                    INSERT INTO \(s).timeline_month VALUES (COALESCE(NEW.local_month, 0), 1, NEW.id, 1)
                        ON CONFLICT (local_month) DO UPDATE SET asset_count = timeline_month.asset_count + 1,
                            id_total = timeline_month.id_total + NEW.id, version = timeline_month.version + 1;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER timeline_month_count AFTER INSERT OR UPDATE OR DELETE ON \(s).asset
                FOR EACH ROW EXECUTE FUNCTION \(s).timeline_month_count()
            """,
        ]
    }

    /// What the timeline's default view counts, of the trigger's `OLD` or `NEW` row.
    private static func counted(_ row: TableAlias) -> String {
        ShownAssets.inTimeline(row)
    }

    /// Month counts added up per transaction instead of per asset.
    ///
    /// Version 1's trigger updated an asset's month row once per asset. Each
    /// update of a row leaves a version that the transaction's later updates
    /// of it must step past, so a transaction adding n assets to one month
    /// cost n² (a million-asset copy did not finish; a block importing
    /// thousands of photos from one month paid the same). Now the row
    /// trigger only appends the asset's change to `timeline_month_change`,
    /// and a deferred trigger adds those up and writes each month once, as
    /// the transaction commits. The transaction-local setting
    /// `photos_timeline.SCHEMA` says whether changes are waiting, so the
    /// deferred trigger, which fires once per changed asset, folds once and
    /// then returns at once. Writers hold the library's commit lock
    /// (``ChangeBlockNumbering``) until they commit, so the changes a fold
    /// reads are its own transaction's, and two folds never interleave.
    @Sendable private static func version3(_ schema: String) -> [String] {
        let s = "\"\(schema)\""
        let pending = "'photos_timeline.\(schema)'"
        return [
            """
            CREATE TABLE \(s).timeline_month_change (
                local_month BIGINT NOT NULL,
                asset_count BIGINT NOT NULL,
                id_total BIGINT NOT NULL
            )
            """,
            """
            CREATE OR REPLACE FUNCTION \(s).timeline_month_count() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                was_counted boolean := TG_OP IN ('DELETE', 'UPDATE') AND \(counted(.oldRow));
                is_counted boolean := TG_OP IN ('INSERT', 'UPDATE') AND \(counted(.newRow));
            BEGIN
                IF was_counted AND is_counted AND COALESCE(OLD.local_month, 0) = COALESCE(NEW.local_month, 0) THEN
                    -- Still counted in the same month, but changed: the month's version moves.
                    INSERT INTO \(s).timeline_month_change VALUES (COALESCE(NEW.local_month, 0), 0, NEW.id - OLD.id);
                ELSE
                    IF was_counted THEN
                        INSERT INTO \(s).timeline_month_change VALUES (COALESCE(OLD.local_month, 0), -1, -OLD.id);
                    END IF;
                    IF is_counted THEN
                        INSERT INTO \(s).timeline_month_change VALUES (COALESCE(NEW.local_month, 0), 1, NEW.id);
                    END IF;
                END IF;
                IF was_counted OR is_counted THEN
                    PERFORM set_config(\(pending), 'on', true);
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE FUNCTION \(s).timeline_month_fold() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF current_setting(\(pending), true) = 'on' THEN
                    PERFORM set_config(\(pending), '', true);
                    WITH changes AS (DELETE FROM \(s).timeline_month_change RETURNING *)
                    INSERT INTO \(s).timeline_month
                        SELECT local_month, SUM(asset_count), SUM(id_total), COUNT(*) FROM changes GROUP BY local_month ORDER BY local_month
                        ON CONFLICT (local_month) DO UPDATE SET asset_count = timeline_month.asset_count + EXCLUDED.asset_count,
                            id_total = timeline_month.id_total + EXCLUDED.id_total, version = timeline_month.version + EXCLUDED.version;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE CONSTRAINT TRIGGER timeline_month_fold AFTER INSERT OR UPDATE OR DELETE ON \(s).asset
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION \(s).timeline_month_fold()
            """,
        ]
    }

    /// Every change block's object count, as SQLite's format version 8 has
    /// it: listing the blocks a reader may see then reads `change_transaction`
    /// alone. Blocks committed before count their entries for everyone.
    @Sendable private static func version4(_ schema: String) -> [String] {
        let s = "\"\(schema)\""
        return [
            """
            UPDATE \(s).change_transaction t SET object_count = (
                SELECT COUNT(*) FROM \(s).change_entry e WHERE e.transaction_id = t.id AND e.client IS NULL)
            WHERE t.details = 1
            """
        ]
    }
}
