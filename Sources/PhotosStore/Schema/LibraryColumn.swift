/// One column of a catalogue table, as ``LibraryTables`` describes it for
/// every backend: a new column is written here once, and each backend's
/// declaration of it is rendered from this (``SchemaChange``).
package struct LibraryColumn: Sendable, Hashable {
    /// What a column keeps, in terms both databases share.
    package enum StoredType: Sendable, Hashable {
        /// A 64-bit integer; booleans are 0 and 1 (predicates compare them with numbers).
        case integer
        /// A double, as dates are: seconds since 1970.
        case real
        /// Text, compared by its bytes on both databases.
        case text
        /// Bytes: hashes and placeholders.
        case bytes

        /// How `dialect` declares a column of this type.
        package func declaration(in dialect: SQLDialect) -> String {
            switch (self, dialect) {
            case (.integer, .sqlite): "INTEGER"
            case (.integer, .postgres): "BIGINT"
            case (.real, .sqlite): "REAL"
            case (.real, .postgres): "DOUBLE PRECISION"
            case (.text, .sqlite): "TEXT"
            // SQLite compares text by bytes; the "C" collation does the same.
            case (.text, .postgres): "TEXT COLLATE \"C\""
            case (.bytes, .sqlite): "BLOB"
            case (.bytes, .postgres): "BYTEA"
            }
        }
    }

    /// A column's default: what a row inserted without it holds.
    package enum DefaultValue: Sendable, Hashable, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
        case integer(Int64)
        case text(String)

        package init(integerLiteral value: Int64) { self = .integer(value) }
        package init(stringLiteral value: String) { self = .text(value) }

        /// The default as an SQL literal, the same on both databases.
        package var literal: String {
            switch self {
            case .integer(let value): String(value)
            case .text(let value): "'\(value.replacingOccurrences(of: "'", with: "''"))'"
            }
        }
    }

    /// Its name, the same on every backend.
    package let name: String
    /// What it keeps.
    package let type: StoredType
    /// Whether it may be NULL. A primary key's columns never are.
    package let isNullable: Bool
    /// What a row inserted without it holds; nil for NULL, or for none when it may not be.
    package let defaultValue: DefaultValue?
    /// Whether no two rows hold the same value in it.
    package let isUnique: Bool
    /// Whether the database computes it from the row's other columns (a
    /// generated column, or one its triggers keep), so the engine never
    /// writes it and a copy from one backend to another leaves it out.
    package let isDerived: Bool

    /// A column named `name` keeping `type`.
    package init(
        _ name: String, _ type: StoredType, nullable: Bool = false, default defaultValue: DefaultValue? = nil,
        unique: Bool = false, derived: Bool = false
    ) {
        self.name = name
        self.type = type
        self.isNullable = nullable
        self.defaultValue = defaultValue
        self.isUnique = unique
        self.isDerived = derived
    }

    /// The column's definition as `ALTER TABLE … ADD COLUMN` takes it in `dialect`.
    package func definition(in dialect: SQLDialect) -> String {
        var definition = "\(name) \(type.declaration(in: dialect))"
        if !isNullable { definition += " NOT NULL" }
        if let defaultValue { definition += " DEFAULT \(defaultValue.literal)" }
        if isUnique { definition += " UNIQUE" }
        return definition
    }
}
