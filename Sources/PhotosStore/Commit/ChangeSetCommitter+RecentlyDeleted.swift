import Foundation
import GRDB

/// Recently Deleted emptied: the assets and their files, for good.
extension ChangeSetCommitter {
    /// Deletes for good the assets of Recently Deleted the purge names, and
    /// notes every file of theirs for removal once the block commits.
    mutating func purge(_ purge: RecentlyDeletedPurge) throws {
        let condition: String
        let arguments: SQLArguments
        switch purge {
        case .all:
            (condition, arguments) = ("trashed_date IS NOT NULL", [])
        case .deletedBefore(let cutoff):
            (condition, arguments) = ("trashed_date < ?", [cutoff.timeIntervalSince1970])
        }
        let doomed = try db.fetchAll(SQLRow.self, sql: "SELECT id, uuid FROM asset WHERE \(condition)", arguments: arguments)
        guard !doomed.isEmpty else { return }
        let ids = db.dialect.elements(of: try doomed.map { try $0[0] as Int64 })
        // Every file of the assets goes: their originals and edits, and their thumbnails and previews.
        removedFiles +=
            try db.fetchAll(String.self, "SELECT relative_path FROM resource WHERE asset_id IN (\(ids))").map(JournalEntry.file)
            + doomed.map { JournalEntry.renditions(assetUUID: try $0[1]) }
        let albums = try albums(holding: ids)
        try db.execute("DELETE FROM asset WHERE id IN (\(ids))")
        for row in doomed {
            try Self.recordDeletion(db, entity: .asset, rowID: row[0], uuid: row[1], at: now)
            try record(.init(identifier: LocalIdentifier(uuid: row[1], entity: .asset), rowID: row[0], kind: .deleted, changedAttributes: []))
        }
        for album in albums {
            try record(
                .init(
                    identifier: LocalIdentifier(uuid: album[1], entity: .assetCollection), rowID: album[0],
                    kind: .updated, changedAttributes: [.members]))
        }
    }
}
