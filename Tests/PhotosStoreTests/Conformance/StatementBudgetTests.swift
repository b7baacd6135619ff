import Foundation
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosStore

/// A read's budget stops its statement on every backend: past its limit, or
/// (on SQLite, whose statements run in this process) once its work is
/// abandoned; and leaves the connection as it found it.
@Suite struct StatementBudgetTests {
    /// A statement that counts far, in each backend's SQL.
    private static func longStatement(_ backend: TestBackend) -> String {
        switch backend {
        case .sqlite, .sqliteObjectStorage:
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT COUNT(*) FROM c"
        case .postgres, .postgresObjectStorage:
            "SELECT COUNT(*) FROM pg_sleep(30), generate_series(1, 10)"
        }
    }

    @Test(arguments: TestBackend.available)
    func aStatementPastItsLimitIsStopped(backend: TestBackend) throws {
        let library = try StoreConformanceTests.Library(backend)
        let store = try #require(library.owner as? any SQLPhotoStore)
        let budget = StatementBudget(limit: .milliseconds(200))
        let started = ContinuousClock.now
        budget.run {
            #expect(throws: StoreError.self) { try store.read { db in try db.fetchOne(Int.self, sql: Self.longStatement(backend)) } }
        }
        #expect(budget.stop == .deadline)
        #expect(ContinuousClock.now - started < .seconds(20), "stopped, not run to its end")
        // The connection reads as before, without a budget.
        #expect(try store.read { db in try db.fetchOne(Int.self, sql: "SELECT 41 + 1") } == 42)
        do {
            _ = try budget.run { try store.read { db in try db.fetchOne(Int.self, sql: Self.longStatement(backend)) } }
        } catch {
            guard case .stopped(.deadline, _)? = error as? StoreError else {
                Issue.record("expected stopped, got \(error)")
                return
            }
        }
    }

    @Test(arguments: TestBackend.available.filter { $0 == .sqlite || $0 == .sqliteObjectStorage })
    func abandonedWorkIsStopped(backend: TestBackend) throws {
        let library = try StoreConformanceTests.Library(backend)
        let store = try #require(library.owner as? any SQLPhotoStore)
        let abandoned = Atomic(false)
        let budget = StatementBudget(limit: .seconds(600)) { abandoned.load(ordering: .relaxed) }
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.2)
            abandoned.store(true, ordering: .relaxed)
        }
        do {
            _ = try budget.run { try store.read { db in try db.fetchOne(Int.self, sql: Self.longStatement(backend)) } }
            Issue.record("an abandoned statement must be stopped")
        } catch {
            guard case .stopped(.abandoned, _)? = error as? StoreError else {
                Issue.record("expected stopped, got \(error)")
                return
            }
        }
    }
}
