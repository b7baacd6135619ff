import Foundation
import PhotosStore

/// A request, inside a change block, to create, rename, fill, reorder or
/// delete folders, or to reorder the top-level albums and folders. A
/// collection lives in one folder at a time: adding it to a folder moves it.
public class PHCollectionListChangeRequest: PHChangeRequest, @unchecked Sendable {
    private var change: CollectionChange

    required init(
        target: CollectionEditTarget, creationTitle: String?, currentTitle: String,
        snapshot: PHFetchResult<PHCollection>?, api: String
    ) {
        var creation: NewCollection?
        if case .collection(let uuid) = target, let creationTitle {
            creation = NewCollection(uuid: uuid, kind: .collectionList, title: creationTitle)
        }
        change = CollectionChange(
            target: target, creation: creation, currentTitle: currentTitle,
            snapshot: snapshot?.viewed(as: PHObject.self), memberEntity: .assetCollection)
        super.init()
        ChangeBlock.required(by: api).add(self)
    }

    /// A request to create a folder at the top level.
    @discardableResult
    public class func creationRequestForCollectionList(withTitle title: String) -> Self {
        Self(
            target: .collection(uuid: UUID().uuidString), creationTitle: title, currentTitle: title, snapshot: nil,
            api: "creationRequestForCollectionList(withTitle:)")
    }

    /// Stands for the folder this request creates (or edits).
    public var placeholderForCreatedCollectionList: PHObjectPlaceholder {
        guard case .collection(let uuid) = change.target else {
            return PHObjectPlaceholder(localIdentifier: "", library: nil)
        }
        return PHObjectPlaceholder(localIdentifier: LocalIdentifier(uuid: uuid, entity: .collectionList).description, library: nil)
    }

    /// Deletes folders and, recursively, the albums and folders they hold.
    /// The assets stay in the library.
    public class func deleteCollectionLists(_ collectionLists: any NSFastEnumeration) {
        let api = "PHCollectionListChangeRequest.deleteCollectionLists(_:)"
        let block = ChangeBlock.required(by: api)
        precondition(
            !collectionLists._fastEnumerationElements.contains { ($0 as? PHCollectionList)?.isRootFolder == true },
            "\(api): the root folder cannot be deleted (canPerform(.delete) is false)")
        block.add(ObjectRemoval(.deleteCollections(memberUUIDs(collectionLists, entity: .collectionList, api: api))))
    }

    /// A request to edit a folder; nil for lists that cannot be edited.
    /// The root folder's request edits the top level: what it adds moves
    /// to the top level, and its order is the top level's.
    public convenience init?(for collectionList: PHCollectionList) {
        if collectionList.isRootFolder {
            self.init(target: .topLevel, creationTitle: nil, currentTitle: "", snapshot: nil, api: "PHCollectionListChangeRequest(for:)")
            return
        }
        guard collectionList.canPerform(.addContent), let identifier = collectionList.parsedIdentifier else { return nil }
        self.init(
            target: .collection(uuid: identifier.uuid), creationTitle: nil,
            currentTitle: collectionList.localizedTitle ?? "", snapshot: nil, api: "PHCollectionListChangeRequest(for:)")
    }

    /// A request to edit a folder whose indexes refer to `childCollections`,
    /// the folder's contents as the app last fetched them.
    public convenience init?(for collectionList: PHCollectionList, childCollections: PHFetchResult<PHCollection>) {
        if collectionList.isRootFolder {
            self.init(forTopLevelCollectionListUserCollections: childCollections)
            return
        }
        guard collectionList.canPerform(.addContent), let identifier = collectionList.parsedIdentifier else { return nil }
        self.init(
            target: .collection(uuid: identifier.uuid), creationTitle: nil,
            currentTitle: collectionList.localizedTitle ?? "", snapshot: childCollections,
            api: "PHCollectionListChangeRequest(for:childCollections:)")
    }

    /// A request to reorder (or add to) the top-level albums and folders,
    /// whose indexes refer to `childCollections` as fetched by
    /// `PHCollection.fetchTopLevelUserCollections(with:)`.
    public convenience init?(forTopLevelCollectionListUserCollections childCollections: PHFetchResult<PHCollection>) {
        self.init(
            target: .topLevel, creationTitle: nil, currentTitle: "", snapshot: childCollections,
            api: "PHCollectionListChangeRequest(forTopLevelCollectionListUserCollections:)")
    }

    /// The folder's title.
    public var title: String {
        get { change.title }
        set {
            if case .topLevel = change.target { preconditionFailure("the root folder cannot be renamed (canPerform(.rename) is false)") }
            change.newTitle = newValue
        }
    }

    /// Appends collections (or placeholders), moving them from wherever they were.
    public func addChildCollections(_ collections: any NSFastEnumeration) {
        change.add(collections, api: "addChildCollections(_:)")
    }

    /// Inserts collections so that each ends at its index, in ascending order.
    public func insertChildCollections(_ collections: any NSFastEnumeration, at indexes: IndexSet) {
        change.insert(collections, at: indexes, api: "insertChildCollections(_:at:)")
    }

    /// Takes collections out of the folder; they go back to the top level.
    public func removeChildCollections(_ collections: any NSFastEnumeration) {
        change.remove(collections, api: "removeChildCollections(_:)")
    }

    /// Takes the collections at the indexes out of the folder.
    public func removeChildCollections(at indexes: IndexSet) {
        change.remove(at: indexes)
    }

    /// Replaces the collections at the indexes with others, in order.
    public func replaceChildCollections(at indexes: IndexSet, withChildCollections collections: any NSFastEnumeration) {
        change.replace(at: indexes, with: collections, api: "replaceChildCollections(at:withChildCollections:)")
    }

    /// Removes the collections at `indexes`, then inserts them, in order, at
    /// `toIndex` of what remains.
    public func moveChildCollections(at indexes: IndexSet, to toIndex: Int) {
        change.move(at: indexes, to: toIndex)
    }

    override func contribute(to builder: ChangeSetBuilder) throws(PHPhotosError) {
        change.contribute(to: builder)
    }
}
