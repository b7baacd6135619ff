import Foundation
import GRDB
import Logging
import NIOCore
import PhotosStore
import PostgresNIO
import Synchronization

/// A pooled PostgreSQL connection inside one of its transactions, as the
/// engine's ``SQLConnection``: the engine's statements, rendered for
/// PostgreSQL (``PostgresStatementText``), run one at a time and waited
/// for on the calling thread, which is never an event loop's.
///
/// Values cross as GRDB's `DatabaseValue`s both ways, so the engine decodes
/// a PostgreSQL row as it decodes an SQLite one: integers of every width
/// as 64-bit integers, booleans as 0 and 1, `numeric` (what `SUM` of
/// integers gives) as an integer when whole.
package final class PostgresSQLConnection: SQLConnection {
    package let dialect = SQLDialect.postgres
    let connection: PostgresConnection
    /// The library the connection reaches, which its errors name.
    package let location: PostgresLocation
    private let text: PostgresStatementText
    /// How long one statement may go unanswered before it fails as
    /// `unreachable` and its connection is closed.
    private let answerTimeout: Duration
    /// The change block this transaction numbered, with its stamp: how a
    /// commit whose answer was lost is settled afterwards.
    var numberedBlock: (changeBlock: Int64, stamp: Int64)?
    /// The first failure of a statement sent without waiting (``send(_:)``).
    private let sentFailure = FirstFailure()

    init(connection: PostgresConnection, location: PostgresLocation, text: PostgresStatementText, answerTimeout: Duration) {
        self.connection = connection
        self.location = location
        self.text = text
        self.answerTimeout = answerTimeout
    }

    package func execute(_ sql: SQLFragment) throws -> Int {
        try run(text.render(sql)).rows ?? 0
    }

    package func fetchAll(_ type: SQLRow.Type, _ sql: SQLFragment) throws -> [SQLRow] {
        try rows(text.render(sql))
    }

    package func fetchOne(_ type: SQLRow.Type, _ sql: SQLFragment) throws -> SQLRow? {
        try fetchAll(type, sql).first
    }

    /// The first column of every row, decoded straight from the cells
    /// (no row of values is built: a fetch's ids can be a million).
    package func fetchAll<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, _ sql: SQLFragment) throws -> [Value] {
        let cells = Collected<DatabaseValue>()
        try run(text.render(sql)) { row in
            guard let cell = row.first else { return }
            if cells.columns.isEmpty { cells.columns = [cell.columnName] }
            cells.items.append(try Self.value(cell))
        }
        return try cells.items.map { value in
            guard let decoded = Value.fromDatabaseValue(value) else {
                throw StoreError.database("PostgreSQL: column \(cells.columns.first ?? "") holds \(value), not \(Value.self)")
            }
            return decoded
        }
    }

    package func fetchOne<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, _ sql: SQLFragment) throws -> Value? {
        guard let row = try fetchOne(SQLRow.self, sql) else { return nil }
        return try row[0] as Value?
    }

    package func prepare(sql: String) throws -> any SQLStatement {
        Prepared(connection: self, sql: text.placeholders(sql))
    }

    /// Cursors ``scan(_:batchSize:_:)`` declared in this transaction, which name them.
    private var scans = 0

    /// Numbers the block with the library's counter (see ``ChangeBlockNumbering``).
    package func numberChangeBlock(committedAt date: Date, author: String?, objectCount: Int) throws -> Int64 {
        try ChangeBlockNumbering.number(self, committedAt: date, author: author, objectCount: objectCount)
    }

    /// Notifies the library's channel, which PostgreSQL delivers when the
    /// transaction commits (see ``PostgresCommitWatcher``).
    package func announceTokenRevocation() throws {
        try execute(sql: "SELECT pg_notify(?, ?)", arguments: [location.channel, ChangeBlockNumbering.tokenRevocationNotice])
    }

    /// Runs one rendered statement, handing each row to `onRow` as it
    /// arrives, on the connection's event loop; returns the command tag's
    /// counts. A statement unanswered for ``answerTimeout`` fails, and its
    /// connection is closed. Fails too when a statement sent before it
    /// without waiting (``send(_:)``) failed, or when `onRow` throws.
    ///
    /// Rows are taken one by one rather than gathered by postgres-nio's
    /// `query(_:logger:)`, which copies the rows gathered so far each time
    /// more arrive: a million ids took seconds.
    @discardableResult
    func run(_ query: PostgresQuery, onRow: @escaping @Sendable (PostgresRow) throws -> Void = { _ in }) throws -> PostgresQueryMetadata {
        try finish(connection.query(query, logger: LibraryDatabase.quiet, onRow))
    }

    /// Starts a statement without waiting for it; its rows are gathered
    /// as they arrive, undecoded, so the event loop does no more than read
    /// them. ``finish(_:)`` waits for them.
    private func start(_ query: PostgresQuery) -> EventLoopFuture<[PostgresRow]> {
        let rows = Collected<PostgresRow>()
        return connection.query(query, logger: LibraryDatabase.quiet) { row in rows.items.append(row) }
            .map { _ in rows.items }
    }

    /// Waits for a statement started on this connection, as ``run(_:onRow:)`` does.
    private func finish<Value: Sendable>(_ answer: EventLoopFuture<Value>) throws -> Value {
        let connection = connection
        do {
            let value = try answer.wait(atMost: answerTimeout, location: location, what: "a statement") {
                let closing: EventLoopFuture<Void> = connection.close()
                closing.whenComplete { _ in }
            }
            try checkSent()
            return value
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(postgres: error, location: location)
        }
    }

    /// Reads the query through a cursor, a batch per `FETCH`: the server
    /// works out the next batch while the rows of one are decoded, on this
    /// thread rather than the event loop, and go through `body`. Cost: one
    /// pass of the query; the server keeps its place between batches, so
    /// no batch repeats the search for where the last one ended.
    package func scan(_ sql: SQLFragment, batchSize: Int, _ body: ([SQLRow]) throws -> Bool) throws {
        scans += 1
        let cursor = "photos_scan_\(scans)"
        try run(text.render("DECLARE \(sql: cursor) NO SCROLL CURSOR FOR \(sql)"))
        let fetch = PostgresQuery(unsafeSQL: "FETCH FORWARD \(batchSize) FROM \(cursor)")
        var pending: EventLoopFuture<[PostgresRow]>? = start(fetch)
        while let answer = pending {
            let rows = try finish(answer)
            pending = rows.count == batchSize ? start(fetch) : nil
            guard !rows.isEmpty, try body(try Self.decode(rows)) else { break }
        }
        if let pending { _ = try finish(pending) }
        send(PostgresQuery(unsafeSQL: "CLOSE \(cursor)"))
    }

    /// Sends a statement without waiting for its answer: a transaction's
    /// `BEGIN`, or a read's `COMMIT`, which would otherwise cost a round
    /// trip of their own. The server answers a connection's statements in
    /// order, and the answer's callback runs before a later statement's
    /// answer wakes its waiter, so the next ``run(_:)`` (or
    /// ``checkSent()``) reports its failure.
    func send(_ query: PostgresQuery) {
        connection.query(query, logger: LibraryDatabase.quiet).whenFailure { [sentFailure] error in
            sentFailure.record(error)
        }
    }

    /// Throws the first failure of a statement ``send(_:)`` sent.
    func checkSent() throws {
        if let failure = sentFailure.first { throw StoreError(postgres: failure, location: location) }
    }

    /// A statement's rows as the engine's rows.
    func rows(_ query: PostgresQuery) throws -> [SQLRow] {
        let rows = Collected<SQLRow>()
        try run(query) { row in
            if rows.columns.isEmpty { rows.columns = row.map(\.columnName) }
            rows.items.append(SQLRow(columns: rows.columns, values: try Self.values(row)))
        }
        return rows.items
    }

    /// Rows read by ``start(_:)``, as the engine's rows.
    private static func decode(_ rows: [PostgresRow]) throws -> [SQLRow] {
        guard let first = rows.first else { return [] }
        let columns = first.map(\.columnName)
        return try rows.map { row in SQLRow(columns: columns, values: try values(row)) }
    }

    /// A row's cells as `DatabaseValue`s. Walks the row with its iterator,
    /// which reads each cell's length once (its indexes read it twice).
    private static func values(_ row: PostgresRow) throws -> [DatabaseValue] {
        var values: [DatabaseValue] = []
        values.reserveCapacity(row.count)
        for cell in row { values.append(try value(cell)) }
        return values
    }

    /// One cell as a `DatabaseValue`, by its PostgreSQL type. The types
    /// the engine's tables use are read straight from their binary form;
    /// any other goes through postgres-nio's decoding.
    private static func value(_ cell: PostgresCell) throws -> DatabaseValue {
        guard var bytes = cell.bytes else { return .null }
        if cell.format == .binary {
            switch (cell.dataType, bytes.readableBytes) {
            case (.int8, 8):
                return bytes.readInteger(as: Int64.self)!.databaseValue
            case (.float8, 8):
                return Double(bitPattern: bytes.readInteger(as: UInt64.self)!).databaseValue
            case (.text, _), (.varchar, _), (.name, _):
                return bytes.readString(length: bytes.readableBytes)!.databaseValue
            default:
                break
            }
        }
        do {
            switch cell.dataType {
            case .int2, .int4, .int8, .oid:
                return try cell.decode(Int64.self).databaseValue
            case .float4, .float8:
                return try cell.decode(Double.self).databaseValue
            case .bool:
                return (try cell.decode(Bool.self) ? 1 : 0 as Int64).databaseValue
            case .numeric:
                let number = try cell.decode(Decimal.self)
                var rounded = number
                var source = number
                NSDecimalRound(&rounded, &source, 0, .plain)
                if rounded == number, let whole = Int64(exactly: NSDecimalNumber(decimal: number).int64Value),
                    Decimal(whole) == number
                {
                    return whole.databaseValue
                }
                return NSDecimalNumber(decimal: number).doubleValue.databaseValue
            case .bytea:
                var buffer = try cell.decode(ByteBuffer.self)
                return Data(buffer.readBytes(length: buffer.readableBytes) ?? []).databaseValue
            default:
                return try cell.decode(String.self).databaseValue
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.database("PostgreSQL: cannot read column \(cell.columnName) of type \(cell.dataType): \(error)")
        }
    }

    /// A statement's text rendered once, run with each call's arguments.
    private struct Prepared: SQLStatement {
        let connection: PostgresSQLConnection
        let sql: String

        func execute(arguments: SQLArguments) throws -> Int {
            try connection.run(PostgresStatementText.query(sql, arguments: arguments)).rows ?? 0
        }

        func fetchOne<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ type: Value.Type, arguments: SQLArguments) throws -> Value? {
            guard let row = try connection.rows(PostgresStatementText.query(sql, arguments: arguments)).first else { return nil }
            return try row[0] as Value?
        }

        /// The rows, fetched whole first: they arrive on the event loop.
        func forEachRow(arguments: SQLArguments, _ body: (any SQLColumnReader) throws -> Void) throws {
            for row in try connection.rows(PostgresStatementText.query(sql, arguments: arguments)) { try body(row) }
        }
    }
}

/// What a statement's rows give, gathered on the connection's event loop
/// and read by the thread that waited for the statement to end; the
/// future it waits on orders the two, so the accesses never overlap and
/// are not checked at run time (a check per row cost a few percent).
private final class Collected<Item>: @unchecked Sendable {
    @exclusivity(unchecked) var items: [Item] = []
    var columns: [String] = []
}

/// The first error recorded, from whichever thread.
private final class FirstFailure: Sendable {
    private let error = Mutex<(any Error)?>(nil)

    var first: (any Error)? { error.withLock { $0 } }

    func record(_ failure: any Error) {
        error.withLock { error in
            if error == nil { error = failure }
        }
    }
}
