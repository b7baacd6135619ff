import Foundation
import PhotosStore

/// What an album or folder change request records: its target, a creation,
/// a new title, ordered membership operations, and the snapshot their
/// indexes refer to. Both collection change requests keep one and add it to
/// the change set the same way.
struct CollectionChange {
    let target: CollectionEditTarget
    /// The collection to create first, for creation requests.
    let creation: NewCollection?
    let currentTitle: String
    /// The members, in the order the request's indexes refer to; nil for the
    /// collection's contents as a default fetch returns them when applied.
    let snapshot: PHFetchResult<PHObject>?
    /// Albums hold assets; folders hold collections.
    let memberEntity: StoreEntity
    var newTitle: String?
    private(set) var operations: [MembershipOperation] = []

    init(
        target: CollectionEditTarget, creation: NewCollection?, currentTitle: String,
        snapshot: PHFetchResult<PHObject>?, memberEntity: StoreEntity
    ) {
        self.target = target
        self.creation = creation
        self.currentTitle = currentTitle
        self.snapshot = snapshot
        self.memberEntity = memberEntity
        newTitle = creation?.title
    }

    var title: String { newTitle ?? currentTitle }

    mutating func add(_ members: any NSFastEnumeration, api: String) {
        operations.append(.add(memberUUIDs(members, entity: memberEntity, api: api)))
    }

    mutating func insert(_ members: any NSFastEnumeration, at indexes: IndexSet, api: String) {
        operations.append(.insert(memberUUIDs(members, entity: memberEntity, api: api), at: Array(indexes)))
    }

    mutating func remove(_ members: any NSFastEnumeration, api: String) {
        operations.append(.remove(memberUUIDs(members, entity: memberEntity, api: api)))
    }

    mutating func remove(at indexes: IndexSet) {
        operations.append(.removeAt(Array(indexes)))
    }

    mutating func replace(at indexes: IndexSet, with members: any NSFastEnumeration, api: String) {
        operations.append(.replace(at: Array(indexes), with: memberUUIDs(members, entity: memberEntity, api: api)))
    }

    mutating func move(at indexes: IndexSet, to destination: Int) {
        operations.append(.move(from: Array(indexes), to: destination))
    }

    func contribute(to builder: ChangeSetBuilder) {
        if let creation {
            builder.changeSet.newCollections.append(NewCollection(uuid: creation.uuid, kind: creation.kind, title: title))
        }
        let renamed = creation == nil && newTitle != nil
        guard renamed || !operations.isEmpty else { return }
        builder.changeSet.collectionEdits.append(
            CollectionEdit(
                target: target, title: renamed ? newTitle : nil,
                snapshot: snapshot.map(builder.snapshotUUIDs(of:)), operations: operations))
    }
}
