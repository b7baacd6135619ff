import CExtendedAttributes
import Foundation
import NIOCore
import Synchronization

/// Uploads in progress, kept on disk beside the library (`uploads/`): each
/// is a data file, appended to as bytes arrive, described by a small JSON
/// record written when it is created. The offset to resume from is the
/// data file's length, so an upload survives a dropped connection and a
/// server killed mid-write. Ids are random and server-made: a client's
/// names never become paths. Uploads older than `lifetime` are removed.
///
/// The description is an extended attribute of the data file
/// (`user.openphotokit.upload`), so that an upload is one file: a
/// description file of its own cost an inode made and freed per upload,
/// which on ext4 cost more than the rest of a small photo's upload. Where
/// the file system keeps no such attributes, it is a JSON file beside the
/// data file (`ID.json`); both are read. Every process serving the library
/// sees the same uploads.
final class UploadStore: Sendable {
    struct Upload: Codable, Sendable {
        let id: String
        /// The token that created it; no other may see it.
        let tokenID: String
        let length: Int
        let filename: String
        let created: Date
    }

    let directory: URL
    let maximumLength: Int
    let lifetime: TimeInterval
    /// Whether descriptions are written as attributes when the file system
    /// takes them (else always as files, which tests use to cover that form).
    private let describesInAttributes: Bool
    /// Uploads being written now: one writer at a time per upload.
    private let writing = Mutex<Set<String>>([])

    static let descriptionAttribute = "user.openphotokit.upload"

    init(directory: URL, maximumLength: Int, lifetime: TimeInterval = 86_400, describesInAttributes: Bool = true) throws {
        self.directory = directory
        self.maximumLength = maximumLength
        self.lifetime = lifetime
        self.describesInAttributes = describesInAttributes
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Creates the data file, empty, and its description, durably: a crash
    /// after this returns leaves the upload resumable.
    func create(tokenID: String, length: Int, filename: String) throws -> Upload {
        let upload = Upload(id: Self.randomID(), tokenID: tokenID, length: length, filename: filename, created: Date())
        let description = try JSONEncoder().encode(upload)
        let path = dataURL(upload.id).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.fileError(path) }
        defer { close(descriptor) }
        let described = describesInAttributes && description.withUnsafeBytes {
            fsetxattr(descriptor, Self.descriptionAttribute, $0.baseAddress, $0.count, Int32(XATTR_CREATE))
        } == 0
        if !described {
            // No attributes here (or not this large): the description's own file, new, written in place; one
            // cut short by a crash does not decode, and its upload is then unknown and removed.
            let descriptionPath = descriptionURL(upload.id).path
            let file = open(descriptionPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard file >= 0 else { throw Self.fileError(descriptionPath) }
            defer { close(file) }
            let written = description.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            guard written == description.count, fsync(file) == 0 else { throw Self.fileError(descriptionPath) }
        }
        guard fsync(descriptor) == 0 else { throw Self.fileError(path) }
        return upload
    }

    private static func fileError(_ path: String) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
    }

    /// 128 random bits as 32 lowercase hexadecimal digits.
    private static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        for word in [generator.next(), generator.next()] as [UInt64] {
            for shift in stride(from: 60, through: 0, by: -4) { text.append(digits[Int(word >> UInt64(shift) & 0xF)]) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The upload with this id if `tokenID` made it and it has not expired.
    func upload(_ id: String, tokenID: String) -> Upload? {
        guard id.utf8.count == 32, id.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
              let upload = description(of: id), upload.tokenID == tokenID,
              Date().timeIntervalSince(upload.created) < lifetime else { return nil }
        return upload
    }

    /// The upload's description, from its data file's attribute or its own
    /// file; nil once the data file is gone (a change block moved it into
    /// the library), whatever is left to remove.
    private func description(of id: String) -> Upload? {
        let path = dataURL(id).path
        guard let data = Self.attribute(of: path) ?? (access(path, F_OK) == 0 ? try? Data(contentsOf: descriptionURL(id)) : nil)
        else { return nil }
        return try? JSONDecoder().decode(Upload.self, from: data)
    }

    /// The description attribute's bytes; nil when the file has none.
    private static func attribute(of path: String) -> Data? {
        var buffer = [UInt8](repeating: 0, count: 1024)
        var size = getxattr(path, descriptionAttribute, &buffer, buffer.count)
        if size < 0, errno == ERANGE {
            let needed = getxattr(path, descriptionAttribute, nil, 0)
            guard needed > 0 else { return nil }
            buffer = [UInt8](repeating: 0, count: needed)
            size = getxattr(path, descriptionAttribute, &buffer, buffer.count)
        }
        return size > 0 ? Data(buffer[..<size]) : nil
    }

    /// The data file, open for a change block that makes it an asset; nil
    /// when it is gone. The engine moves the file into the library; through
    /// this descriptor, its description is removed wherever it went
    /// (``release(_:of:committed:)``).
    func openForChangeBlock(_ id: String) -> Int32? {
        let descriptor = open(dataURL(id).path, O_RDONLY | O_CLOEXEC)
        return descriptor >= 0 ? descriptor : nil
    }

    /// After a change block: when it committed, the upload is gone (its
    /// description removed from the data file, wherever the engine moved
    /// it, and what is left here removed); when it failed, it stays as it
    /// was. Closes the descriptor.
    func release(_ descriptor: Int32, of id: String, committed: Bool) {
        if committed {
            fremovexattr(descriptor, Self.descriptionAttribute)
            remove(id)
        }
        close(descriptor)
    }

    /// Writes `bytes` into the upload's data file at `offset`; with
    /// `syncing`, durably. Blocks: call it off the event loops.
    func writeBytes(_ bytes: ByteBuffer, to id: String, at offset: Int, syncing: Bool) throws {
        let path = dataURL(id).path
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.fileError(path) }
        defer { close(descriptor) }
        try bytes.withUnsafeReadableBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = pwrite(descriptor, buffer.baseAddress! + written, buffer.count - written, off_t(offset + written))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { throw Self.fileError(path) }
                written += count
            }
        }
        guard !syncing || fsync(descriptor) == 0 else { throw Self.fileError(path) }
    }

    /// How many bytes have arrived. A plain `stat`: Foundation's file
    /// attributes also look up the owner's names in `/etc/passwd` and
    /// `/etc/group`, which cost more than the rest of a small upload's request.
    func offset(of id: String) -> Int {
        var status = stat()
        return stat(dataURL(id).path, &status) == 0 ? Int(status.st_size) : 0
    }

    func dataURL(_ id: String) -> URL { directory.appendingPathComponent(id + ".part") }
    private func descriptionURL(_ id: String) -> URL { directory.appendingPathComponent(id + ".json") }

    /// Claims the upload for one writer; false while another writes it.
    func beginWriting(_ id: String) -> Bool { writing.withLock { $0.insert(id).inserted } }
    func endWriting(_ id: String) { writing.withLock { _ = $0.remove(id) } }

    /// Removes both files; the data file may have been moved into the library already.
    func remove(_ id: String) {
        unlink(dataURL(id).path)
        unlink(descriptionURL(id).path)
    }

    /// Removes every upload of a token (revoked). Cost: a pass over the
    /// uploads' directory.
    func removeAll(tokenID: String) {
        for id in ids() where description(of: id)?.tokenID == tokenID { remove(id) }
    }

    /// The ids of the uploads' files in the directory, each once.
    private func ids() -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).map { String($0.prefix { $0 != "." }) })
    }

    /// Removes uploads past their lifetime and files without a description.
    func removeExpired(now: Date = Date()) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names {
            let id = String(name.prefix { $0 != "." })
            if let upload = description(of: id), now.timeIntervalSince(upload.created) < lifetime { continue }
            unlink(directory.appendingPathComponent(name).path)
        }
    }
}
