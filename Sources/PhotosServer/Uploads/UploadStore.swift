import CExtendedAttributes
import Foundation
import Glibc
import NIOCore
import Synchronization

/// Uploads in progress, kept on disk beside the library (`uploads/`): each
/// is a data file, appended to as bytes arrive, described by a small JSON
/// record written when it is created. The offset to resume from is the
/// data file's length, so an upload survives a dropped connection and a
/// server killed mid-write. Ids are random and server-made: a client's
/// names never become paths.
///
/// Bounded: an upload is refused (``Refusal``) when the file system could
/// not hold it beside what the unfinished uploads still await (and a
/// margin), and when its token's unfinished uploads would hold more than
/// `quota` bytes, or number more than ``maximumPerToken``. Uploads not
/// written to for `lifetime`, and those of tokens revoked or expired, are
/// removed (``removeAbandoned(validTokens:now:)``, which the server runs at
/// start and then periodically).
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
    /// The most bytes one token's unfinished uploads may declare in all.
    let quota: Int
    let lifetime: TimeInterval
    /// The most unfinished uploads one token may have.
    static let maximumPerToken = 1000
    /// Room left free on the file system, whatever uploads await: a
    /// hundredth of it, at most 256 MiB.
    static let freeMargin = 256 << 20
    /// What the unfinished uploads declare and hold, by id, so that taking
    /// one more costs no look at the others: made from the directory when
    /// first needed and again at each sweep (which also finds other
    /// processes' uploads), kept up to date by this process's own.
    private let ledger = Mutex<[String: Entry]?>(nil)

    private struct Entry {
        let tokenID: String
        let length: Int
        var received: Int
    }
    /// Whether descriptions are written as attributes when the file system
    /// takes them (else always as files, which tests use to cover that form).
    private let describesInAttributes: Bool
    /// Uploads being written now: one writer at a time per upload.
    private let writing = Mutex<Set<String>>([])

    static let descriptionAttribute = "user.openphotokit.upload"

    init(directory: URL, maximumLength: Int, quota: Int = .max, lifetime: TimeInterval = 86_400, describesInAttributes: Bool = true) throws {
        self.directory = directory
        self.maximumLength = maximumLength
        self.quota = quota
        self.lifetime = lifetime
        self.describesInAttributes = describesInAttributes
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Why an upload is not taken.
    enum Refusal: Error, Equatable {
        /// The token's unfinished uploads would declare more than the quota.
        case quota(Int)
        /// The token has ``UploadStore/maximumPerToken`` unfinished uploads.
        case tooMany
        /// The file system cannot hold it beside what other uploads await: `available` bytes are.
        case noRoom(available: Int)
        /// The file system is full (or the quota of its user reached) now.
        case diskFull
    }

    /// Creates the data file, empty, and its description, durably: a crash
    /// after this returns leaves the upload resumable. Throws a
    /// ``Refusal`` when the token or the file system cannot take it.
    /// Cost: a look at every unfinished upload (a `stat` and its description).
    func create(tokenID: String, length: Int, filename: String, now: Date = Date()) throws -> Upload {
        let entries = currentLedger()
        return try ledger.withLock { ledger in
            var entries = ledger ?? entries
            let own = entries.values.filter { $0.tokenID == tokenID }
            guard own.count < Self.maximumPerToken else { throw Refusal.tooMany }
            let declared = own.reduce(0) { $0 &+ $1.length }
            guard length <= quota - min(quota, declared) else { throw Refusal.quota(quota) }
            let awaited = entries.values.reduce(0) { $0 &+ max(0, $1.length - $1.received) }
            let space = fileSystemSpace()
            let available = max(0, space.free - awaited - min(Self.freeMargin, space.total / 100))
            guard length <= available else { throw Refusal.noRoom(available: available) }
            let upload = try make(tokenID: tokenID, length: length, filename: filename, now: now)
            entries[upload.id] = Entry(tokenID: tokenID, length: length, received: 0)
            ledger = entries
            return upload
        }
    }

    /// The ledger, made from the directory the first time.
    private func currentLedger() -> [String: Entry] {
        if let entries = ledger.withLock({ $0 }) { return entries }
        return rebuildLedger()
    }

    /// The ledger made again from what the directory holds.
    @discardableResult
    private func rebuildLedger() -> [String: Entry] {
        let entries = Dictionary(
            list().map { ($0.upload.id, Entry(tokenID: $0.upload.tokenID, length: $0.upload.length, received: $0.received)) },
            uniquingKeysWith: { first, _ in first })
        ledger.withLock { $0 = entries }
        return entries
    }

    /// Takes an upload out of the ledger: a change block made it an asset.
    func forget(_ id: String) {
        ledger.withLock { _ = $0?.removeValue(forKey: id) }
    }

    /// The bytes the uploads' file system has free for this process, and its size.
    private func fileSystemSpace() -> (free: Int, total: Int) {
        var status = statvfs()
        guard statvfs(directory.path, &status) == 0 else { return (0, 0) }
        func bytes(_ blocks: UInt) -> Int {
            let (bytes, overflow) = Int(clamping: blocks).multipliedReportingOverflow(by: Int(clamping: status.f_frsize))
            return overflow ? .max : bytes
        }
        return (bytes(status.f_bavail), bytes(status.f_blocks))
    }

    private func make(tokenID: String, length: Int, filename: String, now: Date) throws -> Upload {
        let upload = Upload(id: Self.randomID(), tokenID: tokenID, length: length, filename: filename, created: now)
        let description = try JSONEncoder().encode(upload)
        let path = dataURL(upload.id).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.fileError(path) }
        defer { close(descriptor) }
        let described =
            describesInAttributes
            && description.withUnsafeBytes {
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

    /// The error of a failed file call: ``Refusal/diskFull`` when the file
    /// system is out of room or quota, else what the system said (which
    /// names the file: the server logs it and tells the client less).
    private static func fileError(_ path: String) -> any Error {
        let code = errno
        if code == ENOSPC || code == EDQUOT { return Refusal.diskFull }
        return CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)])
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

    /// The upload with this id if `tokenID` made it (any token's, when nil:
    /// the owner's view) and it has not been abandoned.
    func upload(_ id: String, tokenID: String?, now: Date = Date()) -> Upload? {
        guard Self.isID(id), let upload = description(of: id), tokenID == nil || upload.tokenID == tokenID,
            !isAbandoned(upload, now: now)
        else { return nil }
        return upload
    }

    private static func isID(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Whether nothing was written to the upload for its lifetime.
    private func isAbandoned(_ upload: Upload, now: Date) -> Bool {
        now.timeIntervalSince(max(upload.created, lastWrite(of: upload.id) ?? upload.created)) >= lifetime
    }

    /// An unfinished upload as a listing shows it.
    struct Status: Sendable {
        let upload: Upload
        /// The bytes received so far.
        let received: Int
        /// When bytes last arrived (its creation, before any).
        let lastWrite: Date
    }

    /// Every unfinished upload, of every token, oldest first. Cost: a look
    /// at each (its description and a `stat`).
    func list() -> [Status] {
        ids().filter(Self.isID).compactMap { id -> Status? in
            guard let status = fileStatus(id), let upload = description(of: id) else { return nil }
            return Status(
                upload: upload, received: Int(status.st_size),
                lastWrite: max(upload.created, Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec))))
        }.sorted { ($0.upload.created, $0.upload.id) < ($1.upload.created, $1.upload.id) }
    }

    private func fileStatus(_ id: String) -> stat? {
        var status = stat()
        return stat(dataURL(id).path, &status) == 0 ? status : nil
    }

    private func lastWrite(of id: String) -> Date? {
        fileStatus(id).map { Date(timeIntervalSince1970: TimeInterval($0.st_mtim.tv_sec)) }
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
        let end = offset + bytes.readableBytes
        ledger.withLock { ledger in
            if let received = ledger?[id]?.received, received < end { ledger?[id]?.received = end }
        }
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
        forget(id)
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

    /// Removes uploads not written to for their lifetime, those of tokens
    /// not in `validTokens` (revoked or expired; nil keeps every token's),
    /// and files without a description. Cost: a look at every file.
    func removeAbandoned(validTokens: Set<String>? = nil, now: Date = Date()) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names {
            let id = String(name.prefix { $0 != "." })
            if let upload = description(of: id), !isAbandoned(upload, now: now), validTokens?.contains(upload.tokenID) ?? true { continue }
            unlink(directory.appendingPathComponent(name).path)
        }
        rebuildLedger()
    }
}
