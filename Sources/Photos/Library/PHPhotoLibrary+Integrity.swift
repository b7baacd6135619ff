import Foundation
import PhotosMedia
import PhotosStore

/// Checking a whole library, database and files: an OpenPhotoKit addition
/// that `photos check` runs.
extension PHPhotoLibrary {
    /// Something a check found wrong.
    public struct IntegrityProblem: Sendable, Hashable, CustomStringConvertible {
        /// What kind of problem it is.
        public enum Kind: Sendable, Hashable {
            /// The database is damaged: SQLite's integrity or foreign-key
            /// check failed, or it could not be read.
            case damagedDatabase
            /// A file the library stores is missing.
            case missingFile
            /// A stored file's size is not the one recorded when it was stored.
            case fileSizeMismatch
            /// An original's bytes no longer match the content hash recorded
            /// when it was imported (checked with `verifyingContent`).
            case contentMismatch
            /// A file in the library's `originals/` that no asset names.
            case orphanFile
            /// A thumbnail or preview of an asset the library no longer has.
            case orphanDerivative
            /// The database records a file path that leads outside the library.
            case unsafePath
        }

        /// What kind of problem it is.
        public var kind: Kind
        /// The asset concerned, when there is one.
        public var localIdentifier: String?
        /// The file concerned, when there is one.
        public var fileURL: URL?
        /// The problem, in words.
        public var description: String
    }

    /// What a check found.
    public struct IntegrityReport: Sendable {
        /// Every problem found; empty when the library is whole.
        public var problems: [IntegrityProblem]
        /// The assets the database holds.
        public var assetCount: Int
        /// The files the database names, each checked.
        public var fileCount: Int

        /// Whether nothing is wrong.
        public var isWhole: Bool { problems.isEmpty }
    }

    /// Checks the whole library: every page of its database, every file it
    /// names (there, with the size recorded), files nobody names, and, with
    /// `verifyingContent`, every original's bytes against the content hash
    /// recorded at import. Nothing is changed, except that a database found
    /// whole clears damage recorded earlier, so change blocks work again;
    /// one found damaged is recorded, so that they fail.
    ///
    /// Only the library's owner may check; a client gets `accessRestricted`.
    /// Cost: reading the whole database and a `stat` per file; with
    /// `verifyingContent`, reading every original once (one per core).
    public func checkIntegrity(verifyingContent: Bool = false) throws -> IntegrityReport {
        let report = try withStore { store throws(StoreError) in try store.checkIntegrity() }
        var problems = report.findings.map(IntegrityProblem.init)
        if verifyingContent {
            let originals = report.hashedOriginals
            let mismatches = ConcurrentResults<IntegrityProblem?>(count: originals.count)
            DispatchQueue.concurrentPerform(iterations: originals.count) { index in
                let original = originals[index]
                let identifier = LocalIdentifier(uuid: original.assetUUID, entity: .asset).description
                do throws(MediaError) {
                    let hash = try ContentHash.ofFile(at: original.file)
                    mismatches.set(
                        index,
                        hash == original.contentHash
                            ? nil
                            : IntegrityProblem(
                                kind: .contentMismatch, localIdentifier: identifier, fileURL: original.file,
                                description: "\(original.file.path) no longer holds the bytes imported (content hash \(hash), recorded \(original.contentHash))"
                            ))
                } catch {
                    mismatches.set(
                        index,
                        IntegrityProblem(
                            kind: .missingFile, localIdentifier: identifier, fileURL: original.file,
                            description: error.description))
                }
            }
            problems += mismatches.values.compactMap { $0 }
        }
        changeObservers.checkAvailability()
        return IntegrityReport(problems: problems, assetCount: report.assetCount, fileCount: report.fileCount)
    }
}

extension PHPhotoLibrary.IntegrityProblem {
    init(_ finding: IntegrityFinding) {
        let kind: Kind =
            switch finding.kind {
            case .database: .damagedDatabase
            case .missingFile: .missingFile
            case .fileSizeMismatch: .fileSizeMismatch
            case .contentMismatch: .contentMismatch
            case .orphanFile: .orphanFile
            case .orphanDerivative: .orphanDerivative
            case .unsafePath: .unsafePath
            }
        self.init(
            kind: kind, localIdentifier: finding.assetUUID.map { LocalIdentifier(uuid: $0, entity: .asset).description },
            fileURL: finding.file, description: finding.detail)
    }
}
