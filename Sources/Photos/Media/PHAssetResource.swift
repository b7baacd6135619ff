import Foundation
import PhotosStore

/// One file stored for an asset: the original photo or video, a Live
/// Photo's paired video, the rendering and adjustment data of an edit...
public final class PHAssetResource: NSObject, @unchecked Sendable {
    /// What the file is to the asset.
    public let type: PHAssetResourceType
    /// The local identifier of the asset it belongs to.
    public let assetLocalIdentifier: String
    /// The name the file had when it was added. Apple deprecates it for
    /// ``filename`` in iOS 27; it stays, answering the same.
    public let originalFilename: String
    /// The file's format, such as `public.jpeg`.
    public let uniformTypeIdentifier: String
    /// Width in pixels, upright; 0 when not an image or video.
    public let pixelWidth: Int
    /// Height in pixels, upright; 0 when not an image or video.
    public let pixelHeight: Int

    let record: ResourceRecord
    let library: PHPhotoLibrary

    init(record: ResourceRecord, asset: PHAsset, library: PHPhotoLibrary) {
        type = PHAssetResourceType(record.type)
        assetLocalIdentifier = asset.localIdentifier
        originalFilename = record.originalFilename
        uniformTypeIdentifier = record.uniformTypeIdentifier
        pixelWidth = record.pixelWidth
        pixelHeight = record.pixelHeight
        self.record = record
        self.library = library
    }

    /// The file's format, as a type.
    public var contentType: UTType { UTType(uniformTypeIdentifier) ?? .data }

    /// The name the file had when it was added, as iOS 27 spells it; nil
    /// for a resource whose file had no name. Cost: a property read.
    public var filename: String? { originalFilename.isEmpty ? nil : originalFilename }

    /// The resource's size in bytes, as recorded when it was stored; nil
    /// when the library does not know it (a size is never recorded as
    /// zero: a stored file has bytes). Cost: a property read, no `stat`.
    public var dataSize: Int? { record.fileSize > 0 ? Int(record.fileSize) : nil }

    /// The resources of an asset, the original first; empty for an asset
    /// this process may not read. Cost: one query.
    public class func assetResources(for asset: PHAsset) -> [PHAssetResource] {
        guard let library = asset.library, let store = library.store else { return [] }
        do {
            return try store.resources(assetID: asset.record.id).map { PHAssetResource(record: $0, asset: asset, library: library) }
        } catch {
            Diagnostics.report(error, while: "reading the resources of \(asset.localIdentifier)")
            return []
        }
    }

    /// Where the file lies in the library. Throws `missingResource` when it
    /// is not there, or when the stored path would lead outside the
    /// library (a damaged or forged database row).
    func storedFile() throws(PHPhotosError) -> URL {
        guard let url = try library.storedFileURL(record.relativePath) else {
            throw PHPhotosError(
                .missingResource, "the stored path of \(self) is not a path inside the library: \(record.relativePath)",
                identifiers: [assetLocalIdentifier])
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw PHPhotosError(.missingResource, "the file of \(self) is missing: \(url.path)", identifiers: [assetLocalIdentifier])
        }
        return url
    }

    /// The resource's bytes for streaming by range (the server's original
    /// route): its file when it is on this machine, else a reader of the
    /// remote object's ranges, so that a video's seek fetches only what is
    /// played. Throws `missingResource` when the file is gone.
    package func bytes() throws(PHPhotosError) -> ResourceBytes {
        let source: StoredFileSource?
        do {
            source = try library.store?.files.source(forStoredPath: record.relativePath)
        } catch {
            throw PHPhotosError(storeError: error)
        }
        switch source {
        case .local:
            return .file(try storedFile())
        case .remote(let object):
            return .remote(
                size: object.size,
                read: { range in
                    do {
                        return try await object.read(range)
                    } catch {
                        throw PHPhotosError(storeError: error)
                    }
                })
        case nil:
            throw PHPhotosError(
                .missingResource, "the stored path of \(self) is not a path inside the library: \(record.relativePath)",
                identifiers: [assetLocalIdentifier])
        }
    }

    public override var description: String {
        "<PHAssetResource> \(type) \(originalFilename) (\(uniformTypeIdentifier)) of \(assetLocalIdentifier)"
    }

    // MARK: - Key-value coding

    /// The value of a property by its Objective-C name: the documented
    /// ones, and the private keys real clients read: `fileSize` (bytes, an
    /// `NSNumber`), `locallyAvailable` (the file is there), `isCurrent`
    /// (part of what the asset shows now), `privateFileURL`. An unknown key
    /// traps, as Apple's `valueForUndefinedKey:` raises. Cost: a property
    /// read; `locallyAvailable` and the file URLs a `stat`, `isCurrent` a query.
    public func value(forKey key: String) -> Any? {
        KeyValueCoding.lookup(key, on: self).value { value(forUndefinedKey: key) }
    }

    /// Called for a key the resource does not have: traps, as Apple's raises.
    public func value(forUndefinedKey key: String) -> Any? {
        KeyValueCoding.undefinedKey(key, of: self)
    }

    /// Whether the resource answers the property key `aSelector` names.
    public func responds(to aSelector: Selector?) -> Bool {
        aSelector.map { KeyValueCoding.lookup($0.name, on: self).isFound } ?? false
    }
}
