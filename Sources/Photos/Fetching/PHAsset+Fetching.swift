import Foundation
import PhotosStore

extension PHAsset {
    /// The assets of a collection: an album in its own order, a smart
    /// album, a moment, or a transient collection. Hidden assets, burst
    /// members other than the representative and the user's picks, and
    /// assets in Recently Deleted are left out unless the options (or the
    /// album itself: Hidden, Recently Deleted) ask for them.
    /// Cost: one query for the ids; objects load lazily.
    public class func fetchAssets(in assetCollection: PHAssetCollection, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        let library = assetCollection.library ?? PHPhotoLibrary.current
        switch assetCollection.content {
        case .stored(let record) where record.type == .smartAlbum:
            // A smart album this version does not compute (made by a later one) holds nothing yet.
            guard let subtype = SmartAlbumSubtype(rawValue: record.subtype) else { return PHFetchResult(contents: .empty) }
            return library.fetchAssets(scope: .smartAlbum(subtype: subtype), options: options)
        case .stored(let record):
            return library.fetchAssets(scope: .album(rowID: record.id), options: options)
        case .moment(let moment):
            return library.fetchAssets(scope: .creationDateRange(start: moment.startDate, end: moment.endDate), options: options)
        case .transient(let ids, _, _, _):
            return library.fetchAssets(scope: .rowIDs(ids), options: options)
        case .deleted:
            return PHFetchResult(contents: .empty)
        }
    }

    /// The assets with these local identifiers, in the order given unless
    /// the options sort them. Hidden assets are included unless options are
    /// given that leave them out (`includeHiddenAssets` false); identifiers
    /// that name nothing (or an asset in Recently Deleted) are skipped. A
    /// bare UUID, without its `/L0/001` suffix, names the asset too.
    public class func fetchAssets(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        fetchAssets(with: identifiers, options: options)
    }

    /// The assets with these local identifiers, from any sequence of them (a
    /// `Set` from change history, say); see ``fetchAssets(withLocalIdentifiers:options:)``.
    public class func fetchAssets<Identifiers: Sequence>(with identifiers: Identifiers, options: PHFetchOptions?) -> PHFetchResult<PHAsset>
    where Identifiers.Element == String {
        let uuids = identifiers.compactMap { LocalIdentifier($0, fetching: .asset) }.filter { $0.entity == .asset }.map(\.uuid)
        return PHPhotoLibrary.current.fetchAssets(scope: .uuids(uuids), options: options)
    }

    /// The asset that stands for a collection (its first one, in the
    /// collection's order), or nil when it has none.
    public class func fetchKeyAssets(in assetCollection: PHAssetCollection, options: PHFetchOptions?) -> PHFetchResult<PHAsset>? {
        let limited = (options?.copy() as? PHFetchOptions) ?? PHFetchOptions()
        limited.fetchLimit = 1
        let result = fetchAssets(in: assetCollection, options: limited)
        return result.count == 0 ? nil : result
    }

    /// The photos of a burst: its representative and the user's picks, or
    /// every photo with `includeAllBurstAssets`.
    public class func fetchAssets(withBurstIdentifier burstIdentifier: String, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        PHPhotoLibrary.current.fetchAssets(scope: .burst(identifier: burstIdentifier), options: options)
    }

    /// Every asset of the user's library (not shared or synced ones unless
    /// `includeAssetSourceTypes` says so), by creation date unless sorted.
    ///
    /// The videos of the current library, newest first:
    ///
    /// ```swift
    /// let options = PHFetchOptions()
    /// options.predicate = NSPredicate(format: "mediaType == %d", PHAssetMediaType.video.rawValue)
    /// options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
    /// let videos = PHAsset.fetchAssets(with: options)
    /// videos.enumerateObjects { asset, index, _ in
    ///     print(index, asset.localIdentifier, asset.duration)
    /// }
    /// ```
    public class func fetchAssets(with options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        PHPhotoLibrary.current.fetchAssets(scope: .library, options: options)
    }

    /// Every asset of a media type; see ``fetchAssets(with:)``.
    public class func fetchAssets(with mediaType: PHAssetMediaType, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        PHPhotoLibrary.current.fetchAssets(
            scope: .library, options: options,
            extraFilter: .compare(.attribute(.mediaType), .equal, .value(.integer(Int64(mediaType.rawValue))), []))
    }
}
