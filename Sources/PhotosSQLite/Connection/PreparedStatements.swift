import GRDB
import PhotosStore

/// The statements a connection runs most often (a row looked up by id),
/// kept prepared and found by their text's identity: GRDB's statement cache
/// hashes the whole text of a statement at every use, about a tenth of a
/// lookup by id. Only code on the connection's queue uses it (see
/// ``SQLiteReaders``), one caller at a time.
final class PreparedStatements: @unchecked Sendable {
    private var statements: [(sql: String, statement: Statement)] = []
    /// Few statements are run often; others go to GRDB's cache.
    private static let capacity = 8

    /// The statement for `sql`, prepared on `db` the first time. Cost: a
    /// comparison per statement kept, which for the same string (a
    /// `static let`) compares its storage, not its bytes.
    func statement(_ sql: String, in db: Database) throws -> Statement {
        if let kept = statements.first(where: { $0.sql == sql }) { return kept.statement }
        guard statements.count < Self.capacity else { return try db.cachedStatement(sql: sql) }
        // Its own statement, not GRDB's cached one: its bindings may be set
        // with SQLite's calls (see `SQLStatement.forEachRow(id:_:)`).
        let statement = try db.makeStatement(sql: sql)
        statements.append((sql, statement))
        return statement
    }
}
