import Foundation
import Photos

/// Finding what the user names on the command line: assets by local
/// identifier (or the UUID before its first slash), albums and folders by
/// identifier or title. Runs inside `withCurrentLibrary`.
enum Lookup {
    /// The full local identifier of the `type` object the user typed (the
    /// UUID alone will do); what they typed when it names none, to be reported as not found.
    private static func identifier(_ text: String, of type: PHObjectType) -> String {
        type.localIdentifier(text) ?? text
    }

    /// Assets in the order given, trashed ones included when `includingTrashed`.
    static func assets(_ identifiers: [String], includingTrashed: Bool = false) throws -> [PHAsset] {
        let wanted = identifiers.map { identifier($0, of: .asset) }
        var found: [String: PHAsset] = [:]
        PHAsset.fetchAssets(withLocalIdentifiers: wanted, options: nil).enumerateObjects { asset, _, _ in
            found[asset.localIdentifier] = asset
        }
        if includingTrashed && found.count < Set(wanted).count {
            trashedAssets().enumerateObjects { asset, _, _ in
                if wanted.contains(asset.localIdentifier) { found[asset.localIdentifier] = asset }
            }
        }
        let missing = zip(identifiers, wanted).filter { found[$0.1] == nil }.map(\.0)
        guard missing.isEmpty else {
            try requireReadable()
            throw CLIError.user("no asset with the identifier\(missing.count > 1 ? "s" : "") \(missing.joined(separator: ", "))")
        }
        return wanted.map { found[$0]! }
    }

    /// The assets in Recently Deleted, most recently deleted first.
    static func trashedAssets() -> PHFetchResult<PHAsset> {
        guard let trash = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumRecentlyDeleted, options: nil).firstObject else {
            return PHAsset.fetchAssets(withLocalIdentifiers: [], options: nil)
        }
        return PHAsset.fetchAssets(in: trash, options: nil)
    }

    /// The album with this identifier, or the one album with this title.
    static func album(_ nameOrIdentifier: String) throws -> PHAssetCollection {
        try named(
            nameOrIdentifier, kind: "album", type: .assetCollection,
            byIdentifier: { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: $0, options: nil) },
            byTitle: { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: $0) })
    }

    /// The folder with this identifier, or the one folder with this title.
    static func folder(_ nameOrIdentifier: String) throws -> PHCollectionList {
        try named(
            nameOrIdentifier, kind: "folder", type: .collectionList,
            byIdentifier: { PHCollectionList.fetchCollectionLists(withLocalIdentifiers: $0, options: nil) },
            byTitle: { PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: $0) })
    }

    /// An album or a folder, for moving things into folders.
    static func collection(_ nameOrIdentifier: String) throws -> PHCollection {
        if let album = try? album(nameOrIdentifier) { return album }
        if let folder = try? folder(nameOrIdentifier) { return folder }
        try requireReadable()
        throw CLIError.user("no album or folder is named or identified \(nameOrIdentifier)")
    }

    /// Fails with why the library could not be read, if it could not: then
    /// a lookup that found nothing proves nothing, and saying "no such
    /// asset" would mislead.
    private static func requireReadable() throws {
        if let reason = PHPhotoLibrary.shared().unavailabilityReason { throw CLIError.library(reason) }
    }

    /// The collection a fetch by identifier finds, else the only one a fetch by title finds.
    private static func named<T: PHCollection>(
        _ text: String, kind: String, type: PHObjectType,
        byIdentifier: ([String]) -> PHFetchResult<T>,
        byTitle: (PHFetchOptions) -> PHFetchResult<T>
    ) throws -> T {
        if let found = byIdentifier([identifier(text, of: type)]).firstObject { return found }
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "title == %@", text)
        let result = byTitle(options)
        let matches = result.objects(at: IndexSet(integersIn: 0..<result.count))
        switch matches.count {
        case 0:
            try requireReadable()
            throw CLIError.user("no \(kind) is named or identified \(text)")
        case 1: return matches[0]
        default:
            throw CLIError.user(
                "\(matches.count) \(kind)s are named \(text); use an identifier: "
                    + matches.map(\.localIdentifier).joined(separator: ", "))
        }
    }
}
