import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import PhotosObjectStorage

/// The object-storage side of the engine's file interface, against the
/// S3 server `script/services` starts.
@Suite(.enabled(if: TestObjectStorageServer.current != nil, "needs the S3 server script/services starts (script/test starts it)"))
struct ObjectFileStorageTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("object-files-\(UUID().uuidString)")

    func storage() throws -> ObjectFileStorage {
        let layout = LibraryLayout(root: directory)
        try FileManager.default.createDirectory(at: layout.staging, withIntermediateDirectories: true)
        return ObjectFileStorage(layout: layout, client: try #require(TestObjectStorageServer.current).newBucketClient())
    }

    @Test func placingIsAllOrNothing() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try storage()
        let area = try storage.makeStagingArea()
        defer { area.discard() }
        let files = try (0..<12).map { index in
            (file: try area.stage(data: Data("photo \(index)".utf8), pathExtension: "jpg"), path: "originals/A/\(UUID().uuidString).jpg")
        }
        try FileManager.default.removeItem(at: files[7].file.url)
        #expect(throws: StoreError.self) { try storage.place(files) }
        #expect(storage.presentStoredPaths().isEmpty, "none of the block's files stays up")

        let whole = Array(files[0..<7])
        try storage.place(whole)
        #expect(Set(storage.presentStoredPaths()) == Set(whole.map(\.path)))
        let read = try #require(try storage.readableURL(forStoredPath: whole[3].path))
        #expect(try Data(contentsOf: read) == Data("photo 3".utf8))
        storage.remove(.file(whole[3].path))
        #expect(!FileManager.default.fileExists(atPath: read.path), "the cached copy goes with the object")
        #expect(storage.presentStoredPaths().count == 6)
        #expect(try storage.readableURL(forStoredPath: "../etc/passwd") == nil, "a path of another shape reads nothing")
        #expect(throws: StoreError.self) { try storage.readableURL(forStoredPath: whole[3].path) }
    }
}
