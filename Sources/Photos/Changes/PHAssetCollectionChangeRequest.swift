import Foundation
import PhotosStore

/// A request, inside a change block, to create, rename, reorder, fill or
/// delete albums. Smart albums, moments and transient collections cannot be
/// edited: `init(for:)` returns nil for them.
public class PHAssetCollectionChangeRequest: PHChangeRequest, @unchecked Sendable {
    private var change: CollectionChange
    private let uuid: String

    required init(uuid: String, creationTitle: String?, currentTitle: String, snapshot: PHFetchResult<PHAsset>?, api: String) {
        self.uuid = uuid
        change = CollectionChange(
            target: .collection(uuid: uuid),
            creation: creationTitle.map { NewCollection(uuid: uuid, kind: .assetCollection, title: $0) },
            currentTitle: currentTitle, snapshot: snapshot?.viewed(as: PHObject.self), memberEntity: .asset)
        super.init()
        ChangeBlock.required(by: api).add(self)
    }

    /// A request to create an album at the top level.
    @discardableResult
    public class func creationRequestForAssetCollection(withTitle title: String) -> Self {
        Self(
            uuid: UUID().uuidString, creationTitle: title, currentTitle: title, snapshot: nil,
            api: "creationRequestForAssetCollection(withTitle:)")
    }

    /// Stands for the album this request creates (or edits).
    public var placeholderForCreatedAssetCollection: PHObjectPlaceholder {
        PHObjectPlaceholder(localIdentifier: LocalIdentifier(uuid: uuid, entity: .assetCollection).description, library: nil)
    }

    /// Deletes albums; their assets stay in the library.
    public class func deleteAssetCollections(_ assetCollections: any NSFastEnumeration) {
        let api = "PHAssetCollectionChangeRequest.deleteAssetCollections(_:)"
        let block = ChangeBlock.required(by: api)
        block.add(ObjectRemoval(.deleteCollections(memberUUIDs(assetCollections, entity: .assetCollection, api: api))))
    }

    /// A request to edit an album; nil for collections that cannot be edited.
    /// Indexes given to the request refer to the album's assets as a default
    /// fetch returns them when the block is applied.
    public convenience init?(for assetCollection: PHAssetCollection) {
        self.init(for: assetCollection, assets: nil)
    }

    /// A request to edit an album whose indexes refer to `assets`, the
    /// album's contents as the app last fetched them, so they stay right even
    /// if another process changed the album since.
    public convenience init?(for assetCollection: PHAssetCollection, assets: PHFetchResult<PHAsset>?) {
        guard assetCollection.canPerform(.addContent), let identifier = assetCollection.parsedIdentifier else { return nil }
        self.init(
            uuid: identifier.uuid, creationTitle: nil, currentTitle: assetCollection.localizedTitle ?? "",
            snapshot: assets, api: "PHAssetCollectionChangeRequest(for:)")
    }

    /// The album's title.
    public var title: String {
        get { change.title }
        set { change.newTitle = newValue }
    }

    /// Appends assets (or placeholders) not already in the album.
    public func addAssets(_ assets: any NSFastEnumeration) {
        change.add(assets, api: "addAssets(_:)")
    }

    /// Inserts assets so that each ends at its index, in ascending order.
    public func insertAssets(_ assets: any NSFastEnumeration, at indexes: IndexSet) {
        change.insert(assets, at: indexes, api: "insertAssets(_:at:)")
    }

    /// Removes assets from the album (they stay in the library).
    public func removeAssets(_ assets: any NSFastEnumeration) {
        change.remove(assets, api: "removeAssets(_:)")
    }

    /// Removes the assets at the indexes.
    public func removeAssets(at indexes: IndexSet) {
        change.remove(at: indexes)
    }

    /// Replaces the assets at the indexes with others, in order.
    public func replaceAssets(at indexes: IndexSet, withAssets assets: any NSFastEnumeration) {
        change.replace(at: indexes, with: assets, api: "replaceAssets(at:withAssets:)")
    }

    /// Removes the assets at `fromIndexes`, then inserts them, in order, at
    /// `toIndex` of what remains.
    public func moveAssets(at fromIndexes: IndexSet, to toIndex: Int) {
        change.move(at: fromIndexes, to: toIndex)
    }

    override func contribute(to builder: ChangeSetBuilder) throws(PHPhotosError) {
        change.contribute(to: builder)
    }
}
