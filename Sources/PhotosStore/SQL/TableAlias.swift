/// The name a statement gives one of its tables' rows (`a` in
/// `FROM asset a`), so that conditions written once (``ShownAssets``, an
/// ``AccessScope``'s) apply to whichever row a statement means: a query's
/// table, a trigger's `NEW` or `OLD` row, or the bare columns of a
/// statement over one table. GRDB's `TableAlias` is the model.
///
/// The engine names each table's rows the same way in every statement:
/// ``asset`` is `a`, ``collection`` is `c`. Spliced into an ``SQLFragment``
/// it is its name; ``subscript(_:)`` qualifies a column. Every condition
/// or selection handed from one function to another takes its row as a
/// `TableAlias`; a statement's own text may name its tables' rows as it
/// writes them.
package struct TableAlias: Sendable, Hashable, CustomStringConvertible {
    /// The table it names rows of, when it is one (not a trigger's row).
    package let table: String?
    /// The name, or empty for columns written bare.
    package let name: String

    /// An alias `name` of `table`'s rows.
    package init(_ name: String, of table: String? = nil) {
        self.table = table
        self.name = name
    }

    /// Assets: `asset a`.
    package static let asset = TableAlias("a", of: "asset")
    /// Collections: `collection c`, or the summaries a grant sees under the same name.
    package static let collection = TableAlias("c", of: "collection")
    /// An album's memberships: `collection_asset m`.
    package static let membership = TableAlias("m", of: "collection_asset")
    /// Change blocks: `change_transaction t`.
    package static let changeBlock = TableAlias("t", of: "change_transaction")
    /// History entries: `change_entry e`.
    package static let historyEntry = TableAlias("e", of: "change_entry")
    /// The elements of a list bound as one argument (``SQLDialect/table(of:alias:)-(Int64)``):
    /// `k.value`, and `k.key`, its position.
    package static let listElement = TableAlias("k")
    /// The elements of a list a row holds in one column (an asset's
    /// keywords, ``SQLDialect/elements(ofJSONColumn:alias:)``): `w.value`.
    package static let storedListElement = TableAlias("w")
    /// A row trigger's row after the change.
    package static let newRow = TableAlias("NEW")
    /// A row trigger's row before the change.
    package static let oldRow = TableAlias("OLD")
    /// The columns of a statement over one table, unqualified.
    package static let bare = TableAlias("")

    /// `column` of the aliased row: `a.trashed_date`, or `trashed_date` when bare.
    package subscript(_ column: String) -> String {
        name.isEmpty ? column : "\(name).\(column)"
    }

    /// The table as a FROM clause names it with this alias: `asset a`.
    package var source: String {
        guard let table else { preconditionFailure("TableAlias \(name) names a trigger's row, not a table") }
        return "\(table) \(name)"
    }

    package var description: String { name }
}

extension SQLFragment.StringInterpolation {
    /// The alias's name, spliced as it is.
    package mutating func appendInterpolation(_ alias: TableAlias) {
        appendInterpolation(sql: alias.name)
    }
}
