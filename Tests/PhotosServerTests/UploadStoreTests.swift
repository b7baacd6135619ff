import CExtendedAttributes
import Foundation
import PhotosTestSupport
import Testing
@testable import PhotosServer

/// Uploads on disk, described by an attribute of their data file or by a
/// file beside it: seen by their token only, from any process, gone without
/// a trace once a change block made them assets, kept when it failed.
@Suite struct UploadStoreTests {
    private let scratch: ScratchDirectory
    private let directory: URL

    init() throws {
        scratch = try ScratchDirectory("upload-store")
        directory = scratch.url.appendingPathComponent("uploads")
    }

    /// Whether this file system keeps user attributes (tmpfs before Linux 6.6 does not).
    private var keepsAttributes: Bool {
        let probe = scratch.url.appendingPathComponent("probe").path
        _ = FileManager.default.createFile(atPath: probe, contents: nil)
        defer { unlink(probe) }
        return setxattr(probe, "user.probe", "x", 1, 0) == 0
    }

    @Test(arguments: [true, false]) func anUploadIsSeenByItsTokenFromAnyProcess(inAttributes: Bool) throws {
        let store = try UploadStore(directory: directory, maximumLength: 1 << 20, describesInAttributes: inAttributes)
        let upload = try store.create(tokenID: "token-1", length: 5, filename: "IMG 1.jpg")
        #expect(store.upload(upload.id, tokenID: "token-1")?.filename == "IMG 1.jpg")
        #expect(store.upload(upload.id, tokenID: "token-2") == nil, "another token's upload is not found")
        #expect(store.upload(String(repeating: "0", count: 32), tokenID: "token-1") == nil)
        #expect(store.offset(of: upload.id) == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let inOneFile = inAttributes && keepsAttributes
        #expect(names == (inOneFile ? ["\(upload.id).part"] : ["\(upload.id).json", "\(upload.id).part"]))
        let anotherProcess = try UploadStore(directory: directory, maximumLength: 1 << 20, describesInAttributes: !inAttributes)
        #expect(anotherProcess.upload(upload.id, tokenID: "token-1")?.length == 5, "either form is read")
    }

    @Test(arguments: [true, false]) func aCommittedUploadLeavesNoTraceWhereverItsFileWent(inAttributes: Bool) throws {
        let store = try UploadStore(directory: directory, maximumLength: 1 << 20, describesInAttributes: inAttributes)
        let upload = try store.create(tokenID: "token", length: 5, filename: "a.jpg")
        try Data("hello".utf8).write(to: store.dataURL(upload.id))
        let descriptor = try #require(store.openForChangeBlock(upload.id))
        let library = scratch.url.appendingPathComponent("original.jpg")
        #expect(rename(store.dataURL(upload.id).path, library.path) == 0, "as the engine moves it")
        #expect(store.upload(upload.id, tokenID: "token") == nil, "moved, it is no upload any more, before anything is cleared")
        store.release(descriptor, of: upload.id, committed: true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        #expect(getxattr(library.path, UploadStore.descriptionAttribute, nil, 0) < 0, "the library's file keeps no description")
        #expect(try Data(contentsOf: library) == Data("hello".utf8))
    }

    @Test func aFailedBlockLeavesTheUploadAsItWas() throws {
        let store = try UploadStore(directory: directory, maximumLength: 1 << 20)
        let upload = try store.create(tokenID: "token", length: 5, filename: "a.jpg")
        try Data("hello".utf8).write(to: store.dataURL(upload.id))
        store.release(try #require(store.openForChangeBlock(upload.id)), of: upload.id, committed: false)
        #expect(store.upload(upload.id, tokenID: "token")?.filename == "a.jpg")
        #expect(store.offset(of: upload.id) == 5)
        store.remove(upload.id)
        #expect(store.openForChangeBlock(upload.id) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func expiredUploadsAndFilesWithoutADescriptionAreRemoved() throws {
        let store = try UploadStore(directory: directory, maximumLength: 1 << 20, lifetime: 60)
        let live = try store.create(tokenID: "token", length: 5, filename: "a.jpg")
        let inFiles = try UploadStore(directory: directory, maximumLength: 1 << 20, lifetime: 60, describesInAttributes: false)
        let alsoLive = try inFiles.create(tokenID: "token", length: 5, filename: "b.jpg")
        let stray = directory.appendingPathComponent("0123456789abcdef0123456789abcdef.part")
        _ = FileManager.default.createFile(atPath: stray.path, contents: Data("x".utf8))
        let cutShort = directory.appendingPathComponent("fedcba9876543210fedcba9876543210")
        try Data("{\"id\":".utf8).write(to: cutShort.appendingPathExtension("json"))
        _ = FileManager.default.createFile(atPath: cutShort.appendingPathExtension("part").path, contents: nil)
        store.removeExpired(now: Date())
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == ([live.id + ".part", alsoLive.id + ".json", alsoLive.id + ".part"] + (keepsAttributes ? [] : [live.id + ".json"])).sorted())
        store.removeExpired(now: Date().addingTimeInterval(120))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
