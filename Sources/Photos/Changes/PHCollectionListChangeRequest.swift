import Foundation
import PhotosStore

/// A request, inside a change block, to create, rename, fill, reorder or
/// delete folders, or to reorder the top-level albums and folders. A
/// collection lives in one folder at a time: adding it to a folder moves it.
public class PHCollectionListChangeRequest: PHChangeRequest, @unchecked Sendable {
    private let target: CollectionEditTarget
    private let isCreation: Bool
    private let currentTitle: String
    private let snapshot: PHFetchResult<PHCollection>?
    private var newTitle: String?
    private var operations: [MembershipOperation] = []

    required init(target: CollectionEditTarget, isCreation: Bool, title: String,
                  snapshot: PHFetchResult<PHCollection>?, api: String) {
        self.target = target
        self.isCreation = isCreation
        currentTitle = title
        self.snapshot = snapshot
        super.init()
        ChangeBlock.required(by: api).add(self)
    }

    /// A request to create a folder at the top level.
    public class func creationRequestForCollectionList(withTitle title: String) -> Self {
        let request = Self(target: .collection(uuid: UUID().uuidString), isCreation: true, title: title, snapshot: nil,
                           api: "creationRequestForCollectionList(withTitle:)")
        request.newTitle = title
        return request
    }

    /// Stands for the folder this request creates (or edits).
    public var placeholderForCreatedCollectionList: PHObjectPlaceholder {
        let uuid: String
        switch target {
        case .collection(let targetUUID): uuid = targetUUID
        case .topLevel: uuid = ""
        }
        return PHObjectPlaceholder(localIdentifier: LocalIdentifier(uuid: uuid, entity: .collectionList).description, library: nil)
    }

    /// Deletes folders and, recursively, the albums and folders they hold.
    /// The assets stay in the library.
    public class func deleteCollectionLists(_ collectionLists: any NSFastEnumeration) {
        let api = "PHCollectionListChangeRequest.deleteCollectionLists(_:)"
        let block = ChangeBlock.required(by: api)
        block.add(ObjectRemoval(.deleteCollections, uuids: memberUUIDs(collectionLists, entity: .collectionList, api: api)))
    }

    /// A request to edit a folder; nil for lists that cannot be edited.
    public convenience init?(for collectionList: PHCollectionList) {
        guard collectionList.canPerform(.addContent), let identifier = collectionList.parsedIdentifier else { return nil }
        self.init(target: .collection(uuid: identifier.uuid), isCreation: false,
                  title: collectionList.localizedTitle ?? "", snapshot: nil, api: "PHCollectionListChangeRequest(for:)")
    }

    /// A request to edit a folder whose indexes refer to `childCollections`,
    /// the folder's contents as the app last fetched them.
    public convenience init?(for collectionList: PHCollectionList, childCollections: PHFetchResult<PHCollection>) {
        guard collectionList.canPerform(.addContent), let identifier = collectionList.parsedIdentifier else { return nil }
        self.init(target: .collection(uuid: identifier.uuid), isCreation: false,
                  title: collectionList.localizedTitle ?? "", snapshot: childCollections,
                  api: "PHCollectionListChangeRequest(for:childCollections:)")
    }

    /// A request to reorder (or add to) the top-level albums and folders,
    /// whose indexes refer to `childCollections` as fetched by
    /// `PHCollection.fetchTopLevelUserCollections(with:)`.
    public convenience init?(forTopLevelCollectionListUserCollections childCollections: PHFetchResult<PHCollection>) {
        self.init(target: .topLevel, isCreation: false, title: "", snapshot: childCollections,
                  api: "PHCollectionListChangeRequest(forTopLevelCollectionListUserCollections:)")
    }

    /// The folder's title.
    public var title: String {
        get { newTitle ?? currentTitle }
        set { newTitle = newValue }
    }

    /// Appends collections (or placeholders), moving them from wherever they were.
    public func addChildCollections(_ collections: any NSFastEnumeration) {
        operations.append(.add(memberUUIDs(collections, entity: .assetCollection, api: "addChildCollections(_:)")))
    }

    /// Inserts collections so that each ends at its index, in ascending order.
    public func insertChildCollections(_ collections: any NSFastEnumeration, at indexes: IndexSet) {
        operations.append(.insert(memberUUIDs(collections, entity: .assetCollection, api: "insertChildCollections(_:at:)"),
                                  at: Array(indexes)))
    }

    /// Takes collections out of the folder; they go back to the top level.
    public func removeChildCollections(_ collections: any NSFastEnumeration) {
        operations.append(.remove(memberUUIDs(collections, entity: .assetCollection, api: "removeChildCollections(_:)")))
    }

    /// Takes the collections at the indexes out of the folder.
    public func removeChildCollections(at indexes: IndexSet) {
        operations.append(.removeAt(Array(indexes)))
    }

    /// Replaces the collections at the indexes with others, in order.
    public func replaceChildCollections(at indexes: IndexSet, withChildCollections collections: any NSFastEnumeration) {
        operations.append(.replace(at: Array(indexes), with: memberUUIDs(collections, entity: .assetCollection,
                                                                         api: "replaceChildCollections(at:withChildCollections:)")))
    }

    /// Removes the collections at `indexes`, then inserts them, in order, at
    /// `toIndex` of what remains.
    public func moveChildCollections(at indexes: IndexSet, to toIndex: Int) {
        operations.append(.move(from: Array(indexes), to: toIndex))
    }

    override func contribute(to builder: ChangeSetBuilder) throws(PHPhotosError) {
        if isCreation, case .collection(let uuid) = target {
            builder.changeSet.newCollections.append(NewCollection(uuid: uuid, kind: .collectionList, title: title))
        }
        let renamed = !isCreation && newTitle != nil
        guard renamed || !operations.isEmpty else { return }
        builder.changeSet.collectionEdits.append(CollectionEdit(
            target: target, title: renamed ? newTitle : nil,
            snapshot: snapshot.map(builder.snapshotUUIDs(of:)), operations: operations))
    }
}
