import Foundation

extension SQLPhotoStore {
    /// Cleans up after processes that died inside a change block, as a
    /// store opens: each file a dead block staged or placed is kept when the
    /// database names it (the block committed) and removed when it does not.
    /// Files are deleted only on what the database says, and only once
    /// ``checkTablesBeforeRecovery()`` found the tables that say it whole: a
    /// damaged table could otherwise make a stored original look like an
    /// orphan. Cost: nothing when no block was abandoned; else one lookup
    /// per file it left.
    package func recoverAbandonedChangeBlocks() throws(StoreError) {
        guard files.hasAbandonedStaging() else { return }
        try checkTablesBeforeRecovery()
        do {
            try files.recoverAbandonedStaging { entry in
                try readStatement { db in
                    switch entry {
                    case .file(let path):
                        try db.fetchOne(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM resource WHERE relative_path = ?)", arguments: [path]) ?? false
                    case .renditions(let uuid):
                        try db.fetchOne(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM asset WHERE uuid = ?)", arguments: [uuid]) ?? false
                    }
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .fileSystem("recovering an interrupted change block of \(location.isFileURL ? location.path : location.absoluteString): \(error)")
        }
    }
}
