import CExtendedAttributes
import Foundation
import Glibc
import NIOCore
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
        store.removeAbandoned(now: Date())
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == ([live.id + ".part", alsoLive.id + ".json", alsoLive.id + ".part"] + (keepsAttributes ? [] : [live.id + ".json"])).sorted())
        store.removeAbandoned(now: Date().addingTimeInterval(120))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// A token's unfinished uploads are bounded in bytes and in number;
    /// another token's are not counted against it.
    @Test func aTokensUnfinishedUploadsAreBounded() throws {
        let store = try UploadStore(directory: directory, maximumLength: 1 << 20, quota: 100)
        let first = try store.create(tokenID: "a", length: 60, filename: "a.jpg")
        #expect(throws: UploadStore.Refusal.quota(100)) { try store.create(tokenID: "a", length: 50, filename: "b.jpg") }
        _ = try store.create(tokenID: "b", length: 100, filename: "c.jpg")
        store.remove(first.id)
        _ = try store.create(tokenID: "a", length: 50, filename: "b.jpg")
        let many = try UploadStore(directory: scratch.url.appendingPathComponent("many"), maximumLength: 10)
        for index in 0..<UploadStore.maximumPerToken { _ = try many.create(tokenID: "a", length: 1, filename: "\(index).jpg") }
        #expect(throws: UploadStore.Refusal.tooMany) { try many.create(tokenID: "a", length: 1, filename: "last.jpg") }
        #expect(many.list().count == UploadStore.maximumPerToken)
    }

    /// An upload the file system could not hold beside what the others
    /// await is refused before a byte is sent.
    @Test func anUploadTheDiskCannotHoldIsRefused() throws {
        let store = try UploadStore(directory: directory, maximumLength: .max)
        do {
            _ = try store.create(tokenID: "a", length: 1 << 60, filename: "huge.mov")
            Issue.record("an exbibyte upload was taken")
        } catch UploadStore.Refusal.noRoom(let available) {
            #expect(available < 1 << 60)
        }
        #expect(store.list().isEmpty)
    }

    /// Uploads nobody wrote to for their lifetime, and those of tokens no
    /// longer valid, are removed; one written to lately is kept.
    @Test func abandonedUploadsAndThoseOfRevokedTokensAreRemoved() throws {
        let store = try UploadStore(directory: directory, maximumLength: 1 << 20, lifetime: 3_600)
        let created = Date()
        let written = try store.create(tokenID: "a", length: 5, filename: "a.jpg", now: created.addingTimeInterval(-7_200))
        try store.writeBytes(ByteBuffer(string: "ab"), to: written.id, at: 0, syncing: false)
        let idle = try store.create(tokenID: "a", length: 5, filename: "b.jpg", now: created.addingTimeInterval(-7_200))
        try store.writeBytes(ByteBuffer(string: "ab"), to: idle.id, at: 0, syncing: false)
        try FileManager.default.setAttributes(
            [.modificationDate: created.addingTimeInterval(-7_200)],
            ofItemAtPath: store.dataURL(idle.id).path)
        let revoked = try store.create(tokenID: "revoked", length: 5, filename: "c.jpg")
        store.removeAbandoned(validTokens: ["a"], now: created)
        #expect(store.list().map(\.upload.id) == [written.id], "the idle one and the revoked token's are gone")
        #expect(store.upload(revoked.id, tokenID: "revoked") == nil)
        store.removeAll(tokenID: "a")
        #expect(store.list().isEmpty)
    }

    /// A full disk mid-upload is a refusal of its own (the server's 507),
    /// and what arrived stays, to resume from once there is room.
    @Test(.enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root or CAP_SYS_ADMIN, which this process lacks"))
    func aFullDiskMidUploadIsRefusedAndResumable() throws {
        try SmallDisk.mount(at: directory, size: "2m")
        defer { SmallDisk.unmount(directory) }
        let store = try UploadStore(directory: directory, maximumLength: 1 << 30)
        #expect(throws: UploadStore.Refusal.self) { try store.create(tokenID: "a", length: 4 << 20, filename: "big.mov") }
        let upload = try store.create(tokenID: "a", length: 1 << 20, filename: "clip.mov")
        let filler = directory.appendingPathComponent("filler")
        _ = FileManager.default.createFile(atPath: filler.path, contents: Data(count: (2 << 20) - (1 << 20) / 2))
        let chunk = ByteBuffer(repeating: 7, count: 1 << 20)
        #expect(throws: UploadStore.Refusal.diskFull) { try store.writeBytes(chunk, to: upload.id, at: 0, syncing: true) }
        try FileManager.default.removeItem(at: filler)
        let received = store.offset(of: upload.id)
        try store.writeBytes(chunk.getSlice(at: received, length: (1 << 20) - received)!, to: upload.id, at: received, syncing: true)
        #expect(store.offset(of: upload.id) == 1 << 20)
    }
}
