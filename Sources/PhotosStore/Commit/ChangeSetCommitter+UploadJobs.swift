import Foundation

/// Upload jobs in a change block: created within the client's limit, moved
/// between states only as PhotoKit documents (registered → pending →
/// succeeded or failed; failed → registered once, by a retry; registered
/// or pending → cancelled), each client touching only its own jobs.
extension ChangeSetCommitter {
    mutating func apply(_ change: UploadJobChange, client: String?) throws {
        let owner = client ?? ""
        let now = self.now.timeIntervalSince1970
        switch change {
        case .create(let job):
            guard
                let destination = job.destination?.stored ?? Optional(""),
                destination.utf8.count <= UploadDestination.maximumStoredBytes
            else { throw StoreError.editNotAllowed("an upload job's destination holds at most \(UploadDestination.maximumStoredBytes) bytes") }
            try requireUploadableResource(job)
            try db.execute(
                sql: """
                    INSERT INTO upload_job (uuid, client, asset_uuid, resource_id, job_type, state, destination, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    job.uuid, owner, job.assetUUID, job.resourceID, job.type.rawValue, UploadJobState.registered.rawValue, destination, now, now,
                ])
            let outstanding =
                try db.fetchOne(Int.self, sql: "SELECT COUNT(*) FROM upload_job WHERE client = ? AND acknowledged = 0", arguments: [owner]) ?? 0
            guard outstanding <= uploadJobLimit else {
                throw StoreError.limitExceeded(
                    "a client may have \(uploadJobLimit) upload jobs not acknowledged; acknowledge finished ones, or wait for the others to finish")
            }
        case .acknowledge(let uuid):
            let job = try uploadJob(uuid, of: owner)
            guard job.state == .succeeded || job.state == .failed, !job.isAcknowledged else {
                throw StoreError.editNotAllowed("upload job \(uuid) is \(job.state) and cannot be acknowledged: only finished jobs not acknowledged can")
            }
            try db.execute(sql: "UPDATE upload_job SET acknowledged = 1, updated_at = ? WHERE id = ?", arguments: [now, job.id])
        case .retry(let uuid, let destination):
            let job = try uploadJob(uuid, of: owner)
            guard job.state == .failed, !job.isAcknowledged, !job.wasRetried else {
                throw StoreError.editNotAllowed("upload job \(uuid) cannot be retried: only a failed job not acknowledged, and retried never before, can")
            }
            let stored = destination?.stored ?? job.destination?.stored ?? ""
            guard stored.utf8.count <= UploadDestination.maximumStoredBytes else {
                throw StoreError.editNotAllowed("an upload job's destination holds at most \(UploadDestination.maximumStoredBytes) bytes")
            }
            try db.execute(
                sql: """
                    UPDATE upload_job SET state = ?, retried = 1, destination = ?, response_headers = NULL, error = NULL, updated_at = ?
                    WHERE id = ?
                    """, arguments: [UploadJobState.registered.rawValue, stored, now, job.id])
        case .cancel(let uuid):
            let job = try uploadJob(uuid, of: owner)
            guard job.state.isUnfinished else {
                throw StoreError.editNotAllowed("upload job \(uuid) is \(job.state) and cannot be cancelled: only a registered or pending job can")
            }
            try db.execute(
                sql: "UPDATE upload_job SET state = ?, acknowledged = 1, updated_at = ? WHERE id = ?",
                arguments: [UploadJobState.cancelled.rawValue, now, job.id])
        case .start(let uuid):
            guard let job = try anyUploadJob(uuid), job.state.isUnfinished else { return }
            try db.execute(
                sql: "UPDATE upload_job SET state = ?, attempts = attempts + 1, updated_at = ? WHERE id = ?",
                arguments: [UploadJobState.pending.rawValue, now, job.id])
        case .finish(let uuid, let succeeded, let headers, let error):
            // A job cancelled while it was being sent stays cancelled.
            guard let job = try anyUploadJob(uuid), job.state == .pending else { return }
            let headerText = headers.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
            try db.execute(
                sql: "UPDATE upload_job SET state = ?, response_headers = ?, error = ?, updated_at = ? WHERE id = ?",
                arguments: [
                    (succeeded ? UploadJobState.succeeded : .failed).rawValue, headerText, succeeded ? nil : error, now, job.id,
                ])
        case .enableExtension(let prevents, let command):
            let commandText = command.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
            try db.execute(
                sql: """
                    INSERT INTO upload_extension (client, prevents_expensive_network_access, command, enabled_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (client) DO UPDATE SET prevents_expensive_network_access = excluded.prevents_expensive_network_access,
                        command = excluded.command
                    """, arguments: [owner, prevents, commandText, now])
        case .disableExtension:
            try db.execute(sql: "DELETE FROM upload_extension WHERE client = ?", arguments: [owner])
        }
    }

    /// The client's job `uuid`; `notFound` for another client's or none.
    private func uploadJob(_ uuid: String, of client: String) throws -> UploadJobRecord {
        guard
            let job = try db.fetchOne(
                SQLRow.self, sql: "SELECT \(UploadJobRecord.selection) FROM upload_job WHERE uuid = ? AND client = ?", arguments: [uuid, client]
            ).map({ try UploadJobRecord(row: $0) })
        else { throw StoreError.notFound(entity: .asset, identifier: "upload job \(uuid)") }
        return job
    }

    /// Any client's job `uuid`, for the performer.
    private func anyUploadJob(_ uuid: String) throws -> UploadJobRecord? {
        try db.fetchOne(SQLRow.self, sql: "SELECT \(UploadJobRecord.selection) FROM upload_job WHERE uuid = ?", arguments: [uuid])
            .map { try UploadJobRecord(row: $0) }
    }

    /// Refuses a job for a resource the writer cannot see: its asset must
    /// be one the writer's grant covers, and the resource one of it.
    private func requireUploadableResource(_ job: NewUploadJob) throws {
        let visible =
            try db.fetchOne(
                Bool.self,
                """
                SELECT EXISTS (SELECT 1 FROM resource r JOIN asset a ON a.id = r.asset_id
                    WHERE r.id = \(job.resourceID) AND a.uuid = \(job.assetUUID)\(scope.assetCondition(.asset).andClause))
                """) ?? false
        guard visible else {
            throw StoreError.notFound(entity: .asset, identifier: LocalIdentifier(uuid: job.assetUUID, entity: .asset).description)
        }
    }
}
