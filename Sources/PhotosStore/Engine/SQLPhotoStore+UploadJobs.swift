import Foundation

/// Reads of upload jobs: a client's own (what `PHAssetResourceUploadJob`
/// fetches), and, for the performer, every client's with an enabled extension.
extension SQLPhotoStore {
    /// The store's client's jobs, oldest first: those an action finds, or
    /// all when `action` is nil; only those named when `uuids` is given.
    /// Cost: one query over the client's jobs.
    package func uploadJobs(action: UploadJobAction?, uuids: [String]?) throws(StoreError) -> [UploadJobRecord] {
        try readObjects { db, _ in
            var conditions: [SQLFragment] = ["client = \(client ?? "")"]
            if let action { conditions.append(SQLFragment(sql: action.condition)) }
            if let uuids { conditions.append("uuid IN (\(db.dialect.elements(of: uuids)))") }
            return try db.fetchAll(
                SQLRow.self, "SELECT \(sql: UploadJobRecord.selection) FROM upload_job WHERE \(conditions.joined(separator: " AND ")) ORDER BY id"
            ).map { try UploadJobRecord(row: $0) }
        }
    }

    /// The store's client's extension, when enabled. Cost: one query.
    package func uploadExtension() throws(StoreError) -> UploadExtensionRecord? {
        try readObjects { db, _ in
            try db.fetchOne(SQLRow.self, "SELECT \(sql: UploadExtensionRecord.selection) FROM upload_extension WHERE client = \(client ?? "")")
                .map { try UploadExtensionRecord(row: $0) }
        }
    }

    /// Every enabled extension, for the performer (the owner only).
    package func allUploadExtensions() throws(StoreError) -> [UploadExtensionRecord] {
        try requireOwner("perform upload jobs")
        return try read { db in
            try db.fetchAll(SQLRow.self, "SELECT \(sql: UploadExtensionRecord.selection) FROM upload_extension ORDER BY client")
                .map { try UploadExtensionRecord(row: $0) }
        }
    }

    /// The unfinished jobs (registered or pending) of clients whose
    /// extension is enabled, oldest first, at most `limit`: what the
    /// performer sends next. The owner only. Cost: one query.
    package func unfinishedUploadJobs(limit: Int) throws(StoreError) -> [UploadJobRecord] {
        try requireOwner("perform upload jobs")
        return try read { db in
            try db.fetchAll(
                SQLRow.self,
                """
                SELECT \(sql: UploadJobRecord.selection) FROM upload_job
                WHERE \(sql: UploadJobAction.process.condition) AND client IN (SELECT client FROM upload_extension)
                ORDER BY id LIMIT \(limit)
                """
            ).map { try UploadJobRecord(row: $0) }
        }
    }
}
