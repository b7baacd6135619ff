import Foundation
import PhotosStore

/// How a fetch filters, sorts and limits its results. A nil options argument
/// means every default.
///
/// The hundred most recent favorites taken since the start of 2024, hidden
/// ones included:
///
/// ```swift
/// let start = Calendar.current.date(from: DateComponents(year: 2024, month: 1, day: 1))!
/// let options = PHFetchOptions()
/// options.predicate = NSPredicate(format: "favorite == YES AND creationDate >= %@", start as CVarArg)
/// options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
/// options.includeHiddenAssets = true
/// options.fetchLimit = 100
/// let favorites = PHAsset.fetchAssets(with: options)
/// ```
open class PHFetchOptions: NSObject, NSCopying, @unchecked Sendable {
    /// Which objects to keep, over the keys PhotoKit supports for the class
    /// fetched (see ``validate(for:)``). Default nil: all.
    open var predicate: NSPredicate?
    /// The order; default nil: the fetch's natural order (creation date for
    /// assets, the album's own order for album contents, position in a folder).
    open var sortDescriptors: [NSSortDescriptor]?
    /// Include hidden assets. Default false (fetches by identifier always include them).
    open var includeHiddenAssets = false
    /// Include every photo of each burst, not only its representative and
    /// the user's picks. Default false.
    open var includeAllBurstAssets = false
    /// The asset sources to include; the default, none, lets the fetch decide
    /// (the user's library for library-wide fetches, every source for
    /// albums and identifiers).
    open var includeAssetSourceTypes: PHAssetSourceType = []
    /// The most objects to return; 0 (the default) for no limit.
    open var fetchLimit = 0
    /// Whether observers get incremental change details for results of this
    /// fetch. Default true.
    open var wantsIncrementalChangeDetails = true
    /// Whether the fetched assets come with their ``PHAsset/extendedMetadata``
    /// (caption, keywords), read by the same queries that read the assets,
    /// rather than one query per asset when each is asked. Default false.
    open var prefetchAssetExtendedMetadata = false

    /// Options with every default.
    public override init() {}

    /// A copy with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHFetchOptions()
        copy.predicate = predicate
        copy.sortDescriptors = sortDescriptors
        copy.includeHiddenAssets = includeHiddenAssets
        copy.includeAllBurstAssets = includeAllBurstAssets
        copy.includeAssetSourceTypes = includeAssetSourceTypes
        copy.fetchLimit = fetchLimit
        copy.wantsIncrementalChangeDetails = wantsIncrementalChangeDetails
        copy.prefetchAssetExtendedMetadata = prefetchAssetExtendedMetadata
        return copy
    }

    /// Checks that the predicate and sort descriptors use only keys and
    /// values PhotoKit supports for fetching `objectClass` (`PHAsset.self`,
    /// `PHAssetCollection.self`, `PHCollectionList.self` or
    /// `PHCollection.self`), throwing an error that names the key and its
    /// position. Fetches trap on the same problems, as PhotoKit raises.
    public func validate(for objectClass: PHObject.Type) throws(PHPredicateError) {
        if objectClass is PHAsset.Type {
            _ = try FetchTranslation<AssetAttribute>.assets.filter(predicate)
            _ = try FetchTranslation<AssetAttribute>.assets.sort(sortDescriptors)
        } else {
            let keys = FetchTranslation<CollectionAttribute>.collections(for: objectClass)
            _ = try keys.filter(predicate)
            _ = try keys.sort(sortDescriptors)
        }
    }
}
