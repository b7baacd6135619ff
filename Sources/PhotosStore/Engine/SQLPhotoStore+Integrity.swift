import Foundation
import GRDB

/// Something a full check of a library found wrong.
package struct IntegrityFinding: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// The database's own checks (SQLite's integrity and foreign-key checks, PostgreSQL's table reads) failed, or it could not be read.
        case database
        /// A file the database names is not there.
        case missingFile
        /// A file the database names has another size than it recorded.
        case fileSizeMismatch
        /// An original's bytes no longer have the content hash recorded at import.
        case contentMismatch
        /// A file in `originals/` that no asset names.
        case orphanFile
        /// A thumbnail or preview of an asset the library no longer has.
        case orphanDerivative
        /// A stored path that would lead outside the library.
        case unsafePath
    }

    package var kind: Kind
    /// The asset concerned, when there is one.
    package var assetUUID: String?
    /// The file concerned, when there is one.
    package var file: URL?
    package var detail: String

    package init(kind: Kind, assetUUID: String? = nil, file: URL? = nil, detail: String) {
        self.kind = kind
        self.assetUUID = assetUUID
        self.file = file
        self.detail = detail
    }
}

/// What a full check of a library found, and what remains to be verified
/// by content (which needs the media layer's hashing).
package struct IntegrityReport: Sendable {
    package var findings: [IntegrityFinding] = []
    package var assetCount = 0
    package var fileCount = 0
    /// Each asset's original with the content hash recorded at import.
    package var hashedOriginals: [(assetUUID: String, file: URL, contentHash: String)] = []
}

/// A file the catalogue names, as the integrity check reads it.
private struct StoredFile {
    var assetUUID: String
    var path: String
    var size: Int64
    /// The content hash recorded at import, on the asset's primary resource.
    var contentHash: String?
    var isPrimary: Bool
}

extension SQLPhotoStore {
    /// Checks the whole library: the database (see ``SQLPhotoStore/databaseProblems()``),
    /// every file the database names
    /// (there, with its recorded size), and every file in `originals/` and
    /// `derivatives/` (named by an asset). Nothing is changed, except that a
    /// database found whole clears damage recorded earlier (and one found
    /// damaged records it). Files are judged orphans only when the database
    /// read whole. Only the owner may check: it reads everything.
    /// Cost: reading the whole database, and a `stat` per file.
    package func checkIntegrity() throws(StoreError) -> IntegrityReport {
        try requireOwner("check the library's integrity")
        var report = IntegrityReport()
        let databaseProblems = self.databaseProblems()
        report.findings += databaseProblems.map { IntegrityFinding(kind: .database, detail: $0) }

        let stored: [StoredFile]
        do {
            stored = try read { db in
                // The content hash covers the primary resource, as import chose it: the
                // first photo or video (PHAssetResourceType 1, 2), else the first full-size one (5, 6).
                try db.fetchAll(
                    SQLRow.self,
                    sql: """
                        SELECT a.uuid, r.relative_path, r.file_size, a.content_hash,
                               r.id = (SELECT p.id FROM resource p WHERE p.asset_id = a.id
                                       ORDER BY p.type IN (\(ResourceType.sqlList(ResourceType.originals))) DESC, p.type IN (\(ResourceType.sqlList(ResourceType.renderings))) DESC, p.id LIMIT 1)
                        FROM resource r JOIN asset a ON a.id = r.asset_id ORDER BY r.id
                        """
                ).map { row in
                    try StoredFile(assetUUID: row[0], path: row[1], size: row[2], contentHash: row[3], isPrimary: row[4])
                }
            }
            report.assetCount = try read { db in try db.fetchOne(Int.self, sql: "SELECT COUNT(*) FROM asset") ?? 0 }
        } catch {
            report.findings.append(IntegrityFinding(kind: .database, detail: "the stored files cannot be listed: \(error)"))
            recordIntegrity(databaseIsWhole: false, problem: report.findings.last?.detail)
            return report
        }
        var named = Set<String>()
        for file in stored {
            let uuid = file.assetUUID
            let path = file.path
            let size = file.size
            named.insert(path)
            report.fileCount += 1
            let readable: URL?
            do {
                readable = try files.readableURL(forStoredPath: path)
            } catch {
                report.findings.append(IntegrityFinding(kind: .missingFile, assetUUID: uuid, detail: "\(path) cannot be read: \(error)"))
                continue
            }
            guard let url = readable else {
                report.findings.append(IntegrityFinding(kind: .unsafePath, assetUUID: uuid, detail: "the stored path \(path) leads outside the library"))
                continue
            }
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
                report.findings.append(IntegrityFinding(kind: .missingFile, assetUUID: uuid, file: url, detail: "\(path) is missing"))
                continue
            }
            let actual = (attributes[.size] as? NSNumber)?.int64Value ?? -1
            if actual != size {
                report.findings.append(
                    IntegrityFinding(
                        kind: .fileSizeMismatch, assetUUID: uuid, file: url,
                        detail: "\(path) holds \(actual) bytes; \(size) were stored"))
            } else if file.isPrimary, let hash = file.contentHash {
                report.hashedOriginals.append((uuid, url, hash))
            }
        }
        guard databaseProblems.isEmpty else {
            recordIntegrity(databaseIsWhole: false, problem: databaseProblems.first)
            return report
        }
        for path in files.presentStoredPaths() where !named.contains(path) {
            report.findings.append(
                IntegrityFinding(
                    kind: .orphanFile, file: layout.root.appendingPathComponent(path),
                    detail: "\(path) belongs to no asset"))
        }
        let uuids = Set(stored.map(\.assetUUID))
        let assetUUIDs = (try? allAssetUUIDs()) ?? uuids
        for path in layout.relativeFilePaths(under: layout.derivatives) {
            let name = (path as NSString).lastPathComponent
            if !assetUUIDs.contains(String(name.prefix(36))) {
                report.findings.append(
                    IntegrityFinding(
                        kind: .orphanDerivative, file: layout.root.appendingPathComponent(path),
                        detail: "\(path) is a rendition of no asset in the library"))
            }
        }
        recordIntegrity(databaseIsWhole: true, problem: nil)
        return report
    }
}
