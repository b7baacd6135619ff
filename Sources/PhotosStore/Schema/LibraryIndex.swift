/// One index of a catalogue table, as ``LibraryTables`` describes it for
/// every backend. Why each exists is said where the query it serves is.
package struct LibraryIndex: Sendable, Hashable {
    /// Its name, the same on every backend.
    package let name: String
    /// The table it indexes.
    package let table: String
    /// The columns it orders by, in order.
    package let columns: [String]
    /// The condition a row meets to be indexed (a partial index), as SQL both databases accept.
    package let condition: String?

    /// An index named `name` on `table`'s `columns`, of the rows meeting `condition` when given.
    package init(_ name: String, on table: String, _ columns: [String], where condition: String? = nil) {
        self.name = name
        self.table = table
        self.columns = columns
        self.condition = condition
    }

    /// The statement that creates it in `dialect`. SQLite puts NULLs first
    /// in an ascending order and PostgreSQL last; on PostgreSQL each
    /// nullable column is indexed `NULLS FIRST`, so that the engine's one
    /// ORDER BY (which asks for SQLite's order) reads the index on both.
    package func creation(in dialect: SQLDialect, nullable: (String) -> Bool) -> String {
        let keys = columns.map { column in
            dialect == .postgres && nullable(column) ? "\(column) NULLS FIRST" : column
        }
        return "CREATE INDEX \(name) ON \(table) (\(keys.joined(separator: ", ")))" + (condition.map { " WHERE \($0)" } ?? "")
    }
}
