/// The tables every backend keeps a library's catalogue in, written once:
/// each with its primary key, parents before children. The migration from
/// one backend to another copies exactly these (and stops rather than lose
/// a table it does not know), and a test holds the live SQLite and
/// PostgreSQL databases to them by introspection: the same tables, the
/// same columns, the same keys. Each backend's own bookkeeping is named
/// beside them.
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
    }

    /// The catalogue's tables, parents before children.
    package static let catalogue: [Table] = [
        // A copy keeps where its own originals are.
        Table(name: "library_metadata", key: ["key"], excludedFromCopies: "key = 'originals'"),
        Table(name: "change_transaction", key: ["id"]),
        Table(name: "change_entry", key: ["transaction_id", "position"]),
        Table(name: "asset", key: ["id"]),
        Table(name: "resource", key: ["id"]),
        Table(name: "collection", key: ["id"], parentColumn: "parent_id"),
        Table(name: "collection_asset", key: ["collection_id", "asset_id"]),
        Table(name: "deleted_object", key: ["entity", "row_id"]),
        Table(name: "client_access", key: ["client"]),
        Table(name: "client_selection", key: ["client", "entity", "uuid"]),
        Table(name: "access_token", key: ["id"]),
        // The timeline's month counts, kept by triggers.
        Table(name: "timeline_month", key: ["local_month"]),
    ]

    /// SQLite's own: its migrations' record, and every table SQLite names
    /// `sqlite_…` for itself (the sequence behind AUTOINCREMENT, the
    /// statistics `ANALYZE` keeps).
    package static func isSQLiteBookkeeping(_ table: String) -> Bool {
        table == "grdb_migrations" || table.hasPrefix("sqlite_")
    }

    /// PostgreSQL's own: the change counter writers take in turn, the
    /// migrations' record, and the month counts a transaction adds up.
    package static let postgresBookkeeping: Set<String> = ["change_counter", "schema_migration", "timeline_month_change"]
}
