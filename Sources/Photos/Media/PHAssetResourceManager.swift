import Foundation

/// Identifies a data request, to cancel it.
public typealias PHAssetResourceDataRequestID = Int32
/// A data request ID no request has.
public let PHInvalidAssetResourceDataRequestID: PHAssetResourceDataRequestID = 0
/// Reports download progress, from 0 to 1.
public typealias PHAssetResourceProgressHandler = (Double) -> Void

/// How a resource's data is delivered.
open class PHAssetResourceRequestOptions: NSObject, NSCopying, @unchecked Sendable {
    /// Whether to download from the network; files are local here, so it changes nothing.
    open var isNetworkAccessAllowed = false
    /// Progress of the read, from 0 to 1, called on the manager's queue as chunks arrive.
    open var progressHandler: PHAssetResourceProgressHandler?

    /// Options with PhotoKit's defaults.
    public override init() {}

    /// A copy with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHAssetResourceRequestOptions()
        copy.isNetworkAccessAllowed = isNetworkAccessAllowed
        copy.progressHandler = progressHandler
        return copy
    }
}

/// Reads the files behind assets: streams a resource's bytes in chunks, or
/// copies it to a file. Handlers are called on one serial queue of the
/// manager's.
open class PHAssetResourceManager: NSObject, @unchecked Sendable {
    private static let defaultManager = PHAssetResourceManager()

    /// The shared manager.
    open class func `default`() -> PHAssetResourceManager {
        defaultManager
    }

    /// The bytes handed to a data handler at a time.
    static let chunkSize = 1 << 20

    private let queue = DispatchQueue(label: "photos.resource-data")
    private let lock = NSLock()
    private var cancelled = Set<PHAssetResourceDataRequestID>()
    private var lastID: PHAssetResourceDataRequestID = 0

    /// A manager with its own queue.
    public override init() {}

    /// Streams a resource's bytes to `dataReceivedHandler`, a megabyte at a
    /// time, then calls `completionHandler` with nil, or with the error that
    /// stopped it (`PHPhotosError.userCancelled` when cancelled). The data
    /// is only valid during the handler. Cost: reading the file once.
    @discardableResult
    open func requestData(
        for resource: PHAssetResource, options: PHAssetResourceRequestOptions?,
        dataReceivedHandler handler: @escaping (Data) -> Void,
        completionHandler: @escaping ((any Error)?) -> Void
    ) -> PHAssetResourceDataRequestID {
        let id = lock.withLock { () -> PHAssetResourceDataRequestID in
            lastID = lastID == .max ? 1 : lastID + 1
            return lastID
        }
        let callbacks = UncheckedSendable(
            DataCallbacks(
                received: handler, completion: completionHandler,
                progress: options?.progressHandler))
        queue.async { [self] in
            let callbacks = callbacks.value
            defer { lock.withLock { _ = cancelled.remove(id) } }
            let url: URL
            do {
                url = try resource.storedFile()
            } catch {
                return callbacks.completion(error)
            }
            guard let file = FileHandle(forReadingAtPath: url.path) else {
                return callbacks.completion(
                    PHPhotosError(
                        .missingResource, "the file of \(resource) cannot be read: \(url.path)",
                        identifiers: [resource.assetLocalIdentifier]))
            }
            defer { try? file.close() }
            let total = max(1, (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize).flatMap { $0 } ?? 1)
            var read = 0
            while true {
                if lock.withLock({ cancelled.contains(id) }) {
                    return callbacks.completion(PHPhotosError(.userCancelled, "the data request was cancelled"))
                }
                let chunk: Data
                do {
                    chunk = try file.read(upToCount: Self.chunkSize) ?? Data()
                } catch {
                    return callbacks.completion(PHPhotosError(.missingResource, "\(url.path): \(error.localizedDescription)"))
                }
                if chunk.isEmpty { break }
                read += chunk.count
                callbacks.received(chunk)
                callbacks.progress?(min(1, Double(read) / Double(total)))
            }
            callbacks.completion(nil)
        }
        return id
    }

    /// Stops a data request; its completion handler gets `userCancelled`
    /// unless it already finished.
    open func cancelDataRequest(_ requestID: PHAssetResourceDataRequestID) {
        lock.withLock { _ = cancelled.insert(requestID) }
    }

    /// Copies a resource to `fileURL`, which must not exist yet (not even as
    /// a symbolic link, which is never followed), then calls
    /// `completionHandler` with nil or the error. A failed copy leaves no
    /// partial file. Cost: one file copy.
    open func writeData(
        for resource: PHAssetResource, toFile fileURL: URL, options: PHAssetResourceRequestOptions?,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let progress = UncheckedSendable(options?.progressHandler)
        queue.async {
            completionHandler(Self.copy(resource, to: fileURL, progress: progress.value))
        }
    }

    /// Copies a resource to `fileURL`, which must not exist yet.
    open func writeData(for resource: PHAssetResource, toFile fileURL: URL, options: PHAssetResourceRequestOptions?) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            writeData(for: resource, toFile: fileURL, options: options) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    private static func copy(_ resource: PHAssetResource, to destination: URL, progress: PHAssetResourceProgressHandler?) -> (any Error)? {
        guard destination.isFileURL else {
            return PHPhotosError(.invalidResource, "\(destination) is not a file URL")
        }
        let source: URL
        do {
            source = try resource.storedFile()
        } catch {
            return error
        }
        guard let input = FileHandle(forReadingAtPath: source.path) else {
            return PHPhotosError(
                .missingResource, "the file of \(resource) cannot be read: \(source.path)",
                identifiers: [resource.assetLocalIdentifier])
        }
        defer { try? input.close() }
        // O_EXCL: fails on anything already at the path, a symbolic link included, instead of writing through it.
        let descriptor = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST { return CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: destination.path]) }
            return CocoaError(
                .fileWriteUnknown,
                userInfo: [
                    NSFilePathErrorKey: destination.path,
                    NSLocalizedDescriptionKey: "cannot create \(destination.path): \(String(cString: strerror(code)))",
                ])
        }
        let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let total = max(1, (try? source.resourceValues(forKeys: [.fileSizeKey]).fileSize).flatMap { $0 } ?? 1)
        var written = 0
        do {
            while let chunk = try input.read(upToCount: chunkSize), !chunk.isEmpty {
                try output.write(contentsOf: chunk)
                written += chunk.count
                progress?(min(1, Double(written) / Double(total)))
            }
            try output.close()
        } catch {
            try? output.close()
            try? FileManager.default.removeItem(at: destination)
            return error
        }
        progress?(1)
        return nil
    }

    /// A data request's handlers.
    private struct DataCallbacks {
        let received: (Data) -> Void
        let completion: ((any Error)?) -> Void
        let progress: PHAssetResourceProgressHandler?
    }
}
