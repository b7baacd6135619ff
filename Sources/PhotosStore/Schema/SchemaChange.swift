/// One change to the catalogue's schema, named by what ``LibraryTables``
/// describes and rendered for each backend, so that a new column or index
/// is declared once however many databases keep libraries.
///
/// Statements name tables bare: SQLite has one schema, and a PostgreSQL
/// library's connections search its own schema first.
package enum SchemaChange: Sendable, Hashable {
    /// Adds the column `column` of `table` as the catalogue describes it.
    /// A derived column cannot be added this way: how the database computes
    /// it differs between backends.
    case addColumn(table: String, column: String)
    /// Creates the index the catalogue names `index`.
    case createIndex(String)
    /// Runs SQL both databases accept as it is: moving data to a new shape.
    case run(String)

    /// The statements that make this change in `dialect`.
    /// Cost: none beyond building the text.
    package func statements(in dialect: SQLDialect) -> [String] {
        switch self {
        case .addColumn(let table, let name):
            let column = LibraryTables.column(name, of: table)
            precondition(!column.isDerived, "SchemaChange.addColumn cannot add \(table).\(name): a derived column is computed differently per backend")
            return ["ALTER TABLE \(table) ADD COLUMN \(column.definition(in: dialect))"]
        case .createIndex(let name):
            let index = LibraryTables.index(name)
            return [index.creation(in: dialect) { LibraryTables.column($0, of: index.table).isNullable }]
        case .run(let sql):
            return [sql]
        }
    }
}

/// A named step of the schema that every backend takes: one migration on
/// each, in the order ``LibraryTables/steps`` lists them.
package struct SchemaStep: Sendable {
    /// What the step does, as the migrations' records name it.
    package let name: String
    /// Its changes, in order, in one transaction.
    package let changes: [SchemaChange]

    /// The statements of every change, in order, for `dialect`.
    package func statements(in dialect: SQLDialect) -> [String] {
        changes.flatMap { $0.statements(in: dialect) }
    }
}
