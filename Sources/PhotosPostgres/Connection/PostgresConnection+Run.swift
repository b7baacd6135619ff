import PostgresNIO

extension PostgresConnection {
    /// Runs one statement, its failures reported as errors only (the
    /// library logs nothing of its own). Cost: one round trip.
    @discardableResult
    package func run(_ statement: PostgresQuery) async throws -> PostgresRowSequence {
        try await query(statement, logger: LibraryDatabase.quiet)
    }
}
