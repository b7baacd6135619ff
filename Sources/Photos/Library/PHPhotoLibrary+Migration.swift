#if PostgreSQL
import Foundation
import PhotosPostgres
import PhotosStore

/// Moving a library into PostgreSQL: an OpenPhotoKit addition that
/// `photos migrate` runs, in builds with the `PostgreSQL` trait.
extension PHPhotoLibrary {
    /// What ``migrate(to:originals:progress:)`` copied and then verified.
    public struct MigrationReport: Sendable {
        /// The PostgreSQL library, without secrets.
        public var destination: String
        /// The assets copied.
        public var assetCount: Int
        /// The rows copied, every table together.
        public var rowCount: Int
        /// The stored files (originals and edits) copied.
        public var fileCount: Int
        /// Their bytes.
        public var byteCount: Int64
    }

    /// The steps of a migration, as its progress reports them.
    public enum MigrationPhase: Sendable {
        /// Copying each stored file into the new library's storage.
        case files
        /// Copying the database's rows, in one transaction.
        case rows
        /// Comparing every row and file with its copy, then checking the copy.
        case verification
    }

    /// Copies this library, a directory, into the PostgreSQL library at
    /// `url` (`postgres://USER@HOST/DB?library=NAME`), which must be new or
    /// empty, and verifies the copy. A new one keeps its files at
    /// `originals`: object storage (`s3://…`) or `file:///DIR`, a directory
    /// every server mounts; one `photos init` made keeps the place it
    /// records.
    ///
    /// The copy is the same library: identifiers, albums and folders,
    /// history with its change tokens, client grants and access tokens all
    /// carry over. Rows are written in one transaction, after the files, so
    /// a failed copy leaves the destination empty; each row and file is
    /// then compared with the original, and the destination must pass its
    /// integrity check. This library is read in one snapshot and not
    /// changed. Only the owner may copy it (`accessRestricted` otherwise).
    /// `progress` hears each phase's steps (`done` of `total`) as they finish.
    ///
    /// Cost: every row and file read, written and read back once.
    public func migrate(
        to url: URL, originals: URL? = nil,
        progress: (MigrationPhase, _ done: Int, _ total: Int) -> Void = { _, _, _ in }
    ) throws -> MigrationReport {
        let source = try requireStore()
        do {
            let target = try PostgresBackend().open(
                url,
                options: StoreOpenOptions(
                    createIfNeeded: true, client: nil, originals: originals?.absoluteString, fileStorage: LinkedBackends.fileStorage))
            let migration = try LibraryMigration(source: source, target: target)
            let report = try migration.run { phase, done, total in
                let phase: MigrationPhase =
                    switch phase {
                    case .files: .files
                    case .rows: .rows
                    case .verification: .verification
                    }
                progress(phase, done, total)
            }
            return MigrationReport(
                destination: target.location.absoluteString, assetCount: report.rows["asset"] ?? 0,
                rowCount: report.rows.values.reduce(0, +), fileCount: report.files, byteCount: report.bytes)
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }
}
#endif
