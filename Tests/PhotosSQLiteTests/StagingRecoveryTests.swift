import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosSQLite
@testable import PhotosStore

@Suite struct StagingRecoveryTests {
    let scratch: ScratchDirectory
    var root: URL { scratch.url.appendingPathComponent("L.photoslibrary") }

    init() throws {
        scratch = try ScratchDirectory("store")
    }

    /// A new asset with one staged photo.
    private static func newPhoto(uuid: String, file: StagedFile) -> NewAsset {
        NewAsset(
            record: AssetRecord(uuid: uuid, mediaType: .image, modificationDate: Date(), addedDate: Date(), playbackStyle: .image),
            resources: [
                NewResource(
                    type: .photo, file: file, originalFilename: "a.jpg",
                    uniformTypeIdentifier: "public.jpeg", pixelWidth: 1, pixelHeight: 1)
            ])
    }

    private func write(_ relativePath: String, in layout: LibraryLayout) throws {
        let url = try #require(layout.url(forRelativePath: relativePath))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: url)
    }

    @Test func abandonedStagingKeepsExactlyWhatTheDatabaseNames() throws {
        let store = try SQLitePhotoStore(url: root)
        let layout = store.layout
        // A committed asset whose file is journalled (a crash after commit, before cleanup).
        let session = store.beginCommit()
        let file = try session.stage(data: Data("photo".utf8), pathExtension: "jpg")
        let uuid = UUID().uuidString
        var changes = ChangeSet()
        changes.newAssets = [Self.newPhoto(uuid: uuid, file: file)]
        _ = try session.commit(changes)
        let kept = layout.originalRelativePath(assetUUID: uuid, index: 0, pathExtension: "jpg")

        // A dead process's staging area: files placed but never committed.
        let orphan = "originals/Z/ZZZZ.jpg"
        try write(orphan, in: layout)
        let dead = layout.staging.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: dead, withIntermediateDirectories: true)
        try Data().write(to: dead.appendingPathComponent("lock"))
        // The last line names a whole folder of originals, which recovery must not empty.
        try Data("\(orphan)\n\(kept)\n\(kept.split(separator: "/").prefix(2).joined(separator: "/"))".utf8)
            .write(to: dead.appendingPathComponent("journal"))

        // A live staging area of another writer must be left alone.
        let live = try store.files.makeStagingArea()
        _ = try live.stage(data: Data("in flight".utf8), pathExtension: "jpg")

        _ = try SQLitePhotoStore(url: root)
        #expect(!FileManager.default.fileExists(atPath: try #require(layout.url(forRelativePath: orphan)).path))
        #expect(FileManager.default.fileExists(atPath: try #require(layout.url(forRelativePath: kept)).path))
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: live.directory.path))
        live.discard()
        #expect(!FileManager.default.fileExists(atPath: live.directory.path))
    }

    @Test func recoveryDeletesTheRenditionsOfAssetsThatAreGone() throws {
        let store = try SQLitePhotoStore(url: root)
        let layout = store.layout
        let kept = UUID().uuidString
        let purged = UUID().uuidString
        var changes = ChangeSet()
        changes.newAssets = [
            NewAsset(
                record: AssetRecord(
                    uuid: kept, mediaType: .image, modificationDate: Date(), addedDate: Date(),
                    playbackStyle: .image), resources: [])
        ]
        _ = try store.beginCommit().commit(changes)
        let derivatives = store.files.derivatives
        for uuid in [kept, purged] {
            try derivatives.store(Data("jpeg".utf8), assetUUID: uuid, version: 0, kind: .thumbnail)
        }
        // A purge that committed, then died before deleting the files.
        let dead = layout.staging.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: dead, withIntermediateDirectories: true)
        try Data().write(to: dead.appendingPathComponent("lock"))
        try Data("renditions-of \(purged)\nrenditions-of \(kept)".utf8).write(to: dead.appendingPathComponent("journal"))
        _ = try SQLitePhotoStore(url: root)
        #expect(derivatives.existing(assetUUID: purged, version: 0, kind: .thumbnail) == nil)
        #expect(derivatives.existing(assetUUID: kept, version: 0, kind: .thumbnail) != nil)
    }

    @Test func aFailedCommitRemovesThePlacedFiles() throws {
        let store = try SQLitePhotoStore(url: root)
        let session = store.beginCommit()
        let file = try session.stage(data: Data("photo".utf8), pathExtension: "jpg")
        let uuid = UUID().uuidString
        var changes = ChangeSet()
        changes.newAssets = [Self.newPhoto(uuid: uuid, file: file)]
        changes.assetEdits = [AssetEdit(uuid: UUID().uuidString, isFavorite: true)]
        #expect(throws: StoreError.self) { try session.commit(changes) }
        let placed = try #require(store.layout.url(forRelativePath: store.layout.originalRelativePath(assetUUID: uuid, index: 0, pathExtension: "jpg")))
        #expect(!FileManager.default.fileExists(atPath: placed.path))
        #expect(try store.fetchAssets(AssetQuery(scope: .library)).ids.isEmpty)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: store.layout.staging.path)) == [])
    }

    @Test func storedPathsNeverLeadOutOfTheLibrary() {
        let layout = LibraryLayout(root: root)
        #expect(layout.url(forRelativePath: "originals/A/A.jpg") == root.appendingPathComponent("originals/A/A.jpg"))
        for hostile in [
            "../x.jpg", "originals/../../x.jpg", "/etc/passwd", "originals//x.jpg", "originals/./x", "derivatives/x.jpg",
            "originals", "", "originals/A/\0.jpg", "originals/A", "originals/AB/x.jpg", "originals/A/x/y.jpg",
        ] {
            #expect(layout.url(forRelativePath: hostile) == nil, "\(hostile)")
        }
    }

    @Test func mountTableNamesTheRootFileSystem() {
        #expect(LibraryLocationCheck.mountedFileSystemType(containing: "/") != nil)
        #expect(LibraryLocationCheck.problem(with: FileManager.default.temporaryDirectory) == nil)
    }
}
