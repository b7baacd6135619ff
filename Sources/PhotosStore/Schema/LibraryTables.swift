/// The tables every backend keeps a library's catalogue in, written once:
/// each with its columns, primary key and indexes, parents before
/// children. Each backend's schema changes are rendered from it
/// (``SchemaChange``, ``steps``); the migration from one backend to
/// another copies exactly these tables (and stops rather than lose a table
/// it does not know); and a test holds the live SQLite and PostgreSQL
/// databases to it by introspection: the same tables, columns, types,
/// nullability, defaults, keys and indexes. Each backend's own bookkeeping
/// is named beside them.
///
/// A new column is one ``LibraryColumn`` in its table here and one
/// ``SchemaChange/addColumn(table:column:)`` in a new step.
package enum LibraryTables {
    /// One table of the catalogue.
    package struct Table: Sendable {
        /// Its name, the same on every backend.
        package let name: String
        /// Its primary key's columns, in order: what orders its rows the same
        /// way on both databases (text compares by bytes on both).
        package let key: [String]
        /// Rows a copy leaves out, as an SQL condition on the table's columns.
        package var excludedFromCopies: String? = nil
        /// A column that refers to another row of the same table (a folder's
        /// parent), which a copy fills once every row is in.
        package var parentColumn: String? = nil
        /// Its columns, in the order a new library on SQLite has them.
        package var columns: [LibraryColumn]

        init(
            _ name: String, key: [String], excludedFromCopies: String? = nil, parentColumn: String? = nil,
            columns: [LibraryColumn]
        ) {
            self.name = name
            self.key = key
            self.excludedFromCopies = excludedFromCopies
            self.parentColumn = parentColumn
            self.columns = columns
        }
    }

    /// The catalogue's tables, parents before children.
    package static let catalogue: [Table] = [
        // A copy keeps where its own originals are.
        Table(
            "library_metadata", key: ["key"], excludedFromCopies: "key = 'originals'",
            columns: [
                LibraryColumn("key", .text),
                LibraryColumn("value", .text),
            ]),
        Table(
            "change_transaction", key: ["id"],
            columns: [
                LibraryColumn("id", .integer),
                LibraryColumn("committed_at", .real),
                LibraryColumn("author", .text, nullable: true),
                LibraryColumn("stamp", .integer),
                LibraryColumn("details", .integer, default: 1),
                LibraryColumn("object_count", .integer, default: 0),
            ]),
        Table(
            "change_entry", key: ["transaction_id", "position"],
            columns: [
                LibraryColumn("transaction_id", .integer),
                LibraryColumn("position", .integer),
                LibraryColumn("entity", .integer),
                LibraryColumn("row_id", .integer),
                LibraryColumn("uuid", .text),
                LibraryColumn("kind", .integer),
                LibraryColumn("attributes", .text, default: ""),
                LibraryColumn("client", .text, nullable: true),
            ]),
        Table(
            "asset", key: ["id"],
            columns: [
                LibraryColumn("id", .integer),
                LibraryColumn("uuid", .text, unique: true),
                LibraryColumn("media_type", .integer),
                LibraryColumn("media_subtypes", .integer, default: 0),
                LibraryColumn("pixel_width", .integer, default: 0),
                LibraryColumn("pixel_height", .integer, default: 0),
                LibraryColumn("creation_date", .real, nullable: true),
                LibraryColumn("modification_date", .real),
                LibraryColumn("added_date", .real),
                LibraryColumn("duration", .real, default: 0),
                LibraryColumn("latitude", .real, nullable: true),
                LibraryColumn("longitude", .real, nullable: true),
                LibraryColumn("altitude", .real, nullable: true),
                LibraryColumn("location_date", .real, nullable: true),
                LibraryColumn("horizontal_accuracy", .real, nullable: true),
                LibraryColumn("course", .real, nullable: true),
                LibraryColumn("speed", .real, nullable: true),
                LibraryColumn("is_favorite", .integer, default: 0),
                LibraryColumn("is_hidden", .integer, default: 0),
                LibraryColumn("source_type", .integer, default: 1),
                LibraryColumn("burst_identifier", .text, nullable: true),
                LibraryColumn("burst_selection_types", .integer, default: 0),
                LibraryColumn("represents_burst", .integer, default: 0),
                LibraryColumn("playback_style", .integer),
                LibraryColumn("adjustment_format_identifier", .text, nullable: true),
                LibraryColumn("trashed_date", .real, nullable: true),
                LibraryColumn("is_front_camera", .integer, default: 0),
                LibraryColumn("is_long_exposure", .integer, default: 0),
                LibraryColumn("has_raw_original", .integer, default: 0),
                LibraryColumn("original_filename", .text, nullable: true),
                LibraryColumn("uniform_type_identifier", .text, nullable: true),
                LibraryColumn("time_zone_offset", .integer, nullable: true),
                LibraryColumn("camera_make", .text, nullable: true),
                LibraryColumn("camera_model", .text, nullable: true),
                LibraryColumn("lens_model", .text, nullable: true),
                LibraryColumn("burst_member_hidden", .integer, nullable: true, derived: true),
                LibraryColumn("content_hash", .text, nullable: true),
                LibraryColumn("content_version", .integer, default: 0),
                LibraryColumn("adjustment_format_version", .text, nullable: true),
                LibraryColumn("thumb_hash", .bytes, nullable: true),
                LibraryColumn("original_thumb_hash", .bytes, nullable: true),
                LibraryColumn("local_day", .integer, nullable: true, derived: true),
                LibraryColumn("local_month", .integer, nullable: true, derived: true),
                LibraryColumn("rating", .integer, default: 0),
                LibraryColumn("caption", .text, nullable: true),
                // A JSON array of strings, in the order they were added; nil when there are none.
                LibraryColumn("keywords", .text, nullable: true),
                LibraryColumn("adjustment_timestamp", .real, nullable: true),
                LibraryColumn("original_resource_choice", .integer, default: 0),
                LibraryColumn("playback_variation", .integer, default: 0),
            ]),
        Table(
            "resource", key: ["id"],
            columns: [
                LibraryColumn("id", .integer),
                LibraryColumn("asset_id", .integer),
                LibraryColumn("type", .integer),
                LibraryColumn("relative_path", .text, unique: true),
                LibraryColumn("original_filename", .text),
                LibraryColumn("uniform_type_identifier", .text),
                LibraryColumn("pixel_width", .integer, default: 0),
                LibraryColumn("pixel_height", .integer, default: 0),
                LibraryColumn("file_size", .integer),
            ]),
        Table(
            "collection", key: ["id"], parentColumn: "parent_id",
            columns: [
                LibraryColumn("id", .integer),
                LibraryColumn("uuid", .text, unique: true),
                LibraryColumn("kind", .integer),
                LibraryColumn("type", .integer),
                LibraryColumn("subtype", .integer),
                LibraryColumn("title", .text, nullable: true),
                LibraryColumn("parent_id", .integer, nullable: true),
                LibraryColumn("position", .integer, default: 0),
                LibraryColumn("creation_date", .real),
                LibraryColumn("modification_date", .real),
            ]),
        Table(
            "collection_asset", key: ["collection_id", "asset_id"],
            columns: [
                LibraryColumn("collection_id", .integer),
                LibraryColumn("asset_id", .integer),
                LibraryColumn("position", .integer),
            ]),
        Table(
            "deleted_object", key: ["entity", "row_id"],
            columns: [
                LibraryColumn("entity", .integer),
                LibraryColumn("row_id", .integer),
                LibraryColumn("uuid", .text),
                LibraryColumn("deleted_at", .real),
            ]),
        Table(
            "client_access", key: ["client"],
            columns: [
                LibraryColumn("client", .text),
                LibraryColumn("access", .integer, nullable: true),
                LibraryColumn("requested_level", .integer, nullable: true),
                LibraryColumn("requested_at", .real, nullable: true),
                LibraryColumn("decided_at", .real, nullable: true),
                LibraryColumn("shared_album", .text, nullable: true),
            ]),
        Table(
            "client_selection", key: ["client", "entity", "uuid"],
            columns: [
                LibraryColumn("client", .text),
                LibraryColumn("entity", .integer),
                LibraryColumn("uuid", .text),
            ]),
        Table(
            "access_token", key: ["id"],
            columns: [
                LibraryColumn("id", .text),
                LibraryColumn("secret_hash", .bytes),
                LibraryColumn("client", .text, nullable: true),
                LibraryColumn("read_only", .integer, default: 0),
                LibraryColumn("label", .text, default: ""),
                LibraryColumn("created_at", .real),
                LibraryColumn("expires_at", .real, nullable: true),
                LibraryColumn("password_hash", .bytes, nullable: true),
            ]),
        // Upload jobs (PHAssetResourceUploadJob): a resource to send to a
        // destination, for one client ('' for the owner), and its state.
        Table(
            "upload_job", key: ["id"],
            columns: [
                LibraryColumn("id", .integer),
                LibraryColumn("uuid", .text, unique: true),
                LibraryColumn("client", .text, default: ""),
                LibraryColumn("asset_uuid", .text),
                LibraryColumn("resource_id", .integer),
                LibraryColumn("job_type", .integer, default: 0),
                LibraryColumn("state", .integer, default: 1),
                // A JSON object: the request's url, method and headers.
                LibraryColumn("destination", .text),
                LibraryColumn("response_headers", .text, nullable: true),
                LibraryColumn("error", .text, nullable: true),
                LibraryColumn("acknowledged", .integer, default: 0),
                LibraryColumn("retried", .integer, default: 0),
                LibraryColumn("attempts", .integer, default: 0),
                LibraryColumn("created_at", .real),
                LibraryColumn("updated_at", .real),
            ]),
        // Each client's upload-job extension: enabled, with its options.
        Table(
            "upload_extension", key: ["client"],
            columns: [
                LibraryColumn("client", .text),
                LibraryColumn("prevents_expensive_network_access", .integer, default: 0),
                // A JSON array: the command that runs the client's extension; NULL for none.
                LibraryColumn("command", .text, nullable: true),
                LibraryColumn("enabled_at", .real),
            ]),
        // What the library's indexer found in each asset (``SearchIndex``):
        // the words a search matches, each column folded to lowercase
        // without diacritics and split into words joined by single spaces,
        // so that every backend's full-text index reads the same words.
        // Rebuilt from the assets at will; never a change block's.
        Table(
            "asset_search", key: ["asset_id"],
            columns: [
                LibraryColumn("asset_id", .integer),
                // Caption, keywords, file name, camera and lens.
                LibraryColumn("words", .text, default: ""),
                // City, region and country.
                LibraryColumn("place", .text, default: ""),
                // The names of the people in it.
                LibraryColumn("people", .text, default: ""),
                // Text read in the image.
                LibraryColumn("content", .text, default: ""),
            ]),
        // Where each located asset was taken, as the offline reverse
        // geocoder names it: for the places view and `place:` searches.
        Table(
            "asset_place", key: ["asset_id"],
            columns: [
                LibraryColumn("asset_id", .integer),
                LibraryColumn("city", .text),
                LibraryColumn("region", .text, default: ""),
                LibraryColumn("country", .text),
                LibraryColumn("country_code", .text),
            ]),
        // Each asset's perceptual hash (a 64-bit dHash, its bits as a signed
        // integer), from which photos that look alike are grouped.
        Table(
            "asset_hash", key: ["asset_id"],
            columns: [
                LibraryColumn("asset_id", .integer),
                LibraryColumn("hash", .integer),
            ]),
        // Look-alikes someone said are not: each dismissal's assets, which
        // similar-photo groups then never join to one another.
        Table(
            "look_alike_dismissal", key: ["dismissal", "asset_id"],
            columns: [
                LibraryColumn("dismissal", .text),
                LibraryColumn("asset_id", .integer),
            ]),
        // The people faces were grouped into (PersonCentroids): a name
        // someone gave, whether they are hidden from People, and the mean
        // of their faces' descriptors with how many faces it stands for.
        Table(
            "person", key: ["id"],
            columns: [
                LibraryColumn("id", .integer),
                LibraryColumn("uuid", .text, unique: true),
                LibraryColumn("name", .text, nullable: true),
                LibraryColumn("is_hidden", .integer, default: 0),
                LibraryColumn("centroid", .bytes),
                LibraryColumn("face_count", .integer, default: 0),
                LibraryColumn("created_at", .real),
            ]),
        // Each face found in an asset's current image: its box as fractions
        // of the image as shown (origin top left), the detector's
        // confidence, its descriptor (FaceDescriptor), its person, and
        // whether someone put it there by hand (a split or a move).
        Table(
            "face", key: ["id"],
            columns: [
                LibraryColumn("id", .integer),
                LibraryColumn("uuid", .text, unique: true),
                LibraryColumn("asset_id", .integer),
                LibraryColumn("person_id", .integer),
                LibraryColumn("x", .real),
                LibraryColumn("y", .real),
                LibraryColumn("width", .real),
                LibraryColumn("height", .real),
                LibraryColumn("confidence", .real),
                LibraryColumn("descriptor", .bytes),
                LibraryColumn("is_placed_by_hand", .integer, default: 0),
            ]),
        // Each indexer's place in the library's history, and who runs it:
        // the change token it has indexed through (a
        // PHPersistentChangeToken's coded form), the last asset a whole
        // pass reached, the last asset indexed of the change block after
        // the token when that block takes several batches, and the lease
        // that keeps two processes from doing the same work.
        Table(
            "indexer_state", key: ["name"],
            columns: [
                LibraryColumn("name", .text),
                LibraryColumn("token", .bytes, nullable: true),
                LibraryColumn("pass_after", .text, nullable: true),
                LibraryColumn("change_after", .text, nullable: true),
                LibraryColumn("holder", .text, nullable: true),
                LibraryColumn("lease_until", .real, nullable: true),
                LibraryColumn("indexed", .integer, default: 0),
                LibraryColumn("updated_at", .real),
            ]),
        // The timeline's month counts, kept by triggers.
        Table(
            "timeline_month", key: ["local_month"],
            columns: [
                LibraryColumn("local_month", .integer),
                LibraryColumn("asset_count", .integer),
                LibraryColumn("id_total", .integer),
                LibraryColumn("version", .integer),
            ]),
    ]

    /// The catalogue's indexes, beside the primary keys and unique columns.
    package static let indexes: [LibraryIndex] = [
        LibraryIndex(
            "asset_timeline", on: "asset",
            ["creation_date", "id", "trashed_date", "is_hidden", "burst_member_hidden", "source_type", "media_type", "is_favorite"]),
        LibraryIndex("asset_by_added_date", on: "asset", ["added_date"]),
        LibraryIndex("asset_by_trashed_date", on: "asset", ["trashed_date"], where: "trashed_date IS NOT NULL"),
        LibraryIndex("asset_by_burst", on: "asset", ["burst_identifier"], where: "burst_identifier IS NOT NULL"),
        LibraryIndex("asset_by_content_hash", on: "asset", ["content_hash"], where: "content_hash IS NOT NULL"),
        // The map's view of a part of the world reads only the assets located there.
        LibraryIndex("asset_by_location", on: "asset", ["latitude", "longitude"], where: "latitude IS NOT NULL"),
        LibraryIndex(
            "asset_by_local_month_date", on: "asset",
            [
                "local_month", "creation_date", "id", "trashed_date", "is_hidden", "source_type", "burst_identifier", "represents_burst",
                "burst_selection_types",
            ]),
        LibraryIndex(
            "asset_by_local_day", on: "asset",
            ["local_month", "local_day", "trashed_date", "is_hidden", "burst_member_hidden", "source_type", "modification_date"]),
        LibraryIndex("resource_by_asset", on: "resource", ["asset_id"]),
        LibraryIndex("collection_by_parent", on: "collection", ["parent_id", "position"]),
        LibraryIndex("collection_asset_by_asset", on: "collection_asset", ["asset_id"]),
        LibraryIndex("collection_asset_by_position", on: "collection_asset", ["collection_id", "position"]),
        LibraryIndex("upload_job_by_client_state", on: "upload_job", ["client", "state", "acknowledged"]),
        // The places view: countries, then their cities.
        LibraryIndex("asset_place_by_country", on: "asset_place", ["country_code", "city"]),
        // An asset's faces; a person's faces.
        LibraryIndex("face_by_asset", on: "face", ["asset_id"]),
        LibraryIndex("look_alike_dismissal_by_asset", on: "look_alike_dismissal", ["asset_id"]),
        LibraryIndex("face_by_person", on: "face", ["person_id", "asset_id"]),
    ]

    /// The table named `name`. Traps when there is none: the names are the engine's own.
    package static func table(_ name: String) -> Table {
        guard let table = catalogue.first(where: { $0.name == name }) else { preconditionFailure("no catalogue table \(name)") }
        return table
    }

    /// The column `name` of `table`. Traps when there is none: the names are the engine's own.
    package static func column(_ name: String, of table: String) -> LibraryColumn {
        guard let column = Self.table(table).columns.first(where: { $0.name == name }) else {
            preconditionFailure("no column \(name) in the catalogue's \(table)")
        }
        return column
    }

    /// The index named `name`. Traps when there is none: the names are the engine's own.
    package static func index(_ name: String) -> LibraryIndex {
        guard let index = indexes.first(where: { $0.name == name }) else { preconditionFailure("no catalogue index \(name)") }
        return index
    }

    /// SQLite's own: its migrations' record, and every table SQLite names
    /// `sqlite_…` for itself (the sequence behind AUTOINCREMENT, the
    /// statistics `ANALYZE` keeps), and the full-text index SQLite keeps
    /// of `asset_search` with its own tables (``SearchIndex``).
    package static func isSQLiteBookkeeping(_ table: String) -> Bool {
        table == "grdb_migrations" || table.hasPrefix("sqlite_") || SearchIndex.isSQLiteTable(table)
    }

    /// PostgreSQL's own: the change counter writers take in turn, the
    /// migrations' record, the month counts a transaction adds up, and the
    /// full-text index's vocabulary (``SearchIndex``).
    package static let postgresBookkeeping: Set<String> = ["change_counter", "schema_migration", "timeline_month_change", SearchIndex.postgresTerms]
}
