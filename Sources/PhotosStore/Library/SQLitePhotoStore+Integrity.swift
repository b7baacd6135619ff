import Foundation
import GRDB

/// Something a full check of a library found wrong.
package struct IntegrityFinding: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        /// SQLite's integrity or foreign-key check failed, or the database could not be read.
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

extension SQLitePhotoStore {
    /// Checks the whole library: every page of the database (SQLite's
    /// integrity and foreign-key checks), every file the database names
    /// (there, with its recorded size), and every file in `originals/` and
    /// `derivatives/` (named by an asset). Nothing is changed, except that a
    /// database found whole clears damage recorded earlier (and one found
    /// damaged records it). Files are judged orphans only when the database
    /// read whole. Only the owner may check: it reads everything.
    /// Cost: reading the whole database, and a `stat` per file.
    package func checkIntegrity() throws(StoreError) -> IntegrityReport {
        try requireOwner("check the library's integrity")
        var report = IntegrityReport()
        let databaseProblems: [String]
        do {
            databaseProblems = try readDatabase { db in
                let pages = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
                let keys = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
                    "a row of \(row[0] as String? ?? "?") (rowid \(row[1] as Int64? ?? 0)) refers to a missing row of \(row[2] as String? ?? "?")"
                }
                return pages + keys
            }
        } catch {
            databaseProblems = ["the database cannot be read: \(error)"]
        }
        report.findings += databaseProblems.map { IntegrityFinding(kind: .database, detail: $0) }

        let stored: [Row]
        do {
            stored = try readDatabase { db in
                // The content hash covers the primary resource, as import chose it: the
                // first photo or video (PHAssetResourceType 1, 2), else the first full-size one (5, 6).
                try Row.fetchAll(db, sql: """
                    SELECT a.uuid, r.relative_path, r.file_size, a.content_hash,
                           r.id = (SELECT p.id FROM resource p WHERE p.asset_id = a.id
                                   ORDER BY p.type IN (\(ResourceType.sqlList(ResourceType.originals))) DESC, p.type IN (\(ResourceType.sqlList(ResourceType.renderings))) DESC, p.id LIMIT 1)
                    FROM resource r JOIN asset a ON a.id = r.asset_id ORDER BY r.id
                    """)
            }
            report.assetCount = try readDatabase { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset") ?? 0 }
        } catch {
            report.findings.append(IntegrityFinding(kind: .database, detail: "the stored files cannot be listed: \(error)"))
            return finish(report, databaseIsWhole: false)
        }
        var named = Set<String>()
        for row in stored {
            let uuid: String = row[0], path: String = row[1], size: Int64 = row[2]
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
                report.findings.append(IntegrityFinding(kind: .fileSizeMismatch, assetUUID: uuid, file: url,
                                                        detail: "\(path) holds \(actual) bytes; \(size) were stored"))
            } else if row[4] as Bool, let hash = row[3] as String? {
                report.hashedOriginals.append((uuid, url, hash))
            }
        }
        guard databaseProblems.isEmpty else { return finish(report, databaseIsWhole: false) }
        for path in files.presentStoredPaths() where !named.contains(path) {
            report.findings.append(IntegrityFinding(kind: .orphanFile, file: layout.root.appendingPathComponent(path),
                                                    detail: "\(path) belongs to no asset"))
        }
        let uuids = Set(stored.map { $0[0] as String })
        let assetUUIDs = (try? readDatabase { db in Set(try String.fetchAll(db, sql: "SELECT uuid FROM asset")) }) ?? uuids
        for path in layout.relativeFilePaths(under: layout.derivatives) {
            let name = (path as NSString).lastPathComponent
            if !assetUUIDs.contains(String(name.prefix(36))) {
                report.findings.append(IntegrityFinding(kind: .orphanDerivative, file: layout.root.appendingPathComponent(path),
                                                        detail: "\(path) is a rendition of no asset in the library"))
            }
        }
        return finish(report, databaseIsWhole: true)
    }

    private func finish(_ report: IntegrityReport, databaseIsWhole: Bool) -> IntegrityReport {
        if databaseIsWhole {
            if readOnlyReason == nil { damage.clear() }
        } else if let first = report.findings.first(where: { $0.kind == .database }) {
            damage.record(first.detail)
        }
        return report
    }

    /// The regular files under `folder`, as paths relative to `root`.
}
