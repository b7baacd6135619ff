import Foundation
import PhotosStore

/// Something a change block asked for: a change request, or a deletion.
protocol ChangeContribution: AnyObject {
    /// Adds this request's part to the change set. Throws when the request
    /// cannot be applied (an unreadable file, say), which fails the block.
    func contribute(to builder: ChangeSetBuilder) throws(PHPhotosError)
}

/// The change block running on this task: the requests it has made so far.
/// Lives on the change queue while its block runs; never shared across threads.
final class ChangeBlock: @unchecked Sendable {
    @TaskLocal static var current: ChangeBlock?

    let library: PHPhotoLibrary
    private var contributions: [any ChangeContribution] = []

    init(library: PHPhotoLibrary) {
        self.library = library
    }

    /// The running change block; traps, as PhotoKit raises, when `api` is
    /// used outside one.
    static func required(by api: String) -> ChangeBlock {
        guard let block = current else {
            fatalError(
                "\(api) can only be called from inside of -[PHPhotoLibrary performChanges:completionHandler:] or -[PHPhotoLibrary performChangesAndWait:error:]"
            )
        }
        return block
    }

    func add(_ contribution: any ChangeContribution) {
        contributions.append(contribution)
    }

    /// Turns the requests into one change set and commits it; nil when the
    /// block asked for nothing. `skipsDuplicates`: see `ChangeSet.skipsDuplicates`.
    func commit(to store: any PhotoStore, skipsDuplicates: Bool = false, requiredState: HistoryPoint? = nil) throws(PHPhotosError) -> CommitResult? {
        let builder = ChangeSetBuilder(library: library, session: store.beginCommit())
        builder.changeSet.skipsDuplicates = skipsDuplicates
        builder.changeSet.requiredState = requiredState
        defer { builder.session.discard() }
        for contribution in contributions {
            try contribution.contribute(to: builder)
        }
        try builder.prepareNewAssets()
        guard !builder.changeSet.isEmpty else { return nil }
        do {
            return try builder.session.commit(builder.changeSet)
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }
}

/// Accumulates a change block's requests into one `ChangeSet`.
final class ChangeSetBuilder {
    let library: PHPhotoLibrary
    /// Where the block's files are staged and its change set committed.
    let session: CommitSession
    var changeSet = ChangeSet()
    private var assetEditIndexes: [String: Int] = [:]

    init(library: PHPhotoLibrary, session: CommitSession) {
        self.library = library
        self.session = session
    }

    private var pendingAssets: [(preparation: NewAssetPreparation, finish: (inout NewAsset) -> Void)] = []

    /// Queues a new asset to prepare; `finish` applies the request's own
    /// property values to what the files say.
    func prepareNewAsset(_ preparation: NewAssetPreparation, finish: @escaping (inout NewAsset) -> Void) {
        pendingAssets.append((preparation, finish))
    }

    /// Prepares the queued new assets, as many at once as there are cores,
    /// and adds them to the change set in the order they were requested. The
    /// first failure, in that order, fails the block.
    func prepareNewAssets() throws(PHPhotosError) {
        let pending = pendingAssets
        pendingAssets = []
        guard !pending.isEmpty else { return }
        let preparations = UncheckedSendable(pending.map(\.preparation))
        let prepared = ConcurrentResults<Result<NewAsset, PHPhotosError>>(count: pending.count)
        DispatchQueue.concurrentPerform(iterations: pending.count) { index in
            prepared.set(index, Result { () throws(PHPhotosError) in try preparations.value[index].prepare() })
        }
        for (index, result) in prepared.values.enumerated() {
            var asset = try result.get()
            pending[index].finish(&asset)
            changeSet.newAssets.append(asset)
        }
    }

    /// Merges property edits of one asset made by several requests; later ones win.
    func editAsset(_ uuid: String, _ change: (inout AssetEdit) -> Void) {
        if let index = assetEditIndexes[uuid] {
            change(&changeSet.assetEdits[index])
        } else {
            var edit = AssetEdit(uuid: uuid)
            change(&edit)
            assetEditIndexes[uuid] = changeSet.assetEdits.count
            changeSet.assetEdits.append(edit)
        }
    }

    /// The UUIDs of a fetch result's objects, in order: the snapshot index-based edits refer to.
    func snapshotUUIDs<T>(of fetchResult: PHFetchResult<T>) -> [String] {
        fetchResult.allObjects.compactMap { ($0 as? PHObject)?.parsedIdentifier?.uuid }
    }
}

/// The UUID of an object passed to a change request: a fetched object or a
/// placeholder of the right kind. Anything else is a programming error, and
/// traps as PhotoKit raises.
func memberUUID(_ element: Any, entity: StoreEntity, api: String) -> String {
    let expected = entity == .asset ? "PHAsset" : "PHCollection"
    guard let object = element as? PHObject, let identifier = object.parsedIdentifier,
        identifier.entity == entity || (entity != .asset && identifier.entity != .asset)
    else {
        fatalError("\(api) expects \(expected) objects or their placeholders, not \(type(of: element))")
    }
    return identifier.uuid
}

/// The UUIDs of every element of an enumeration passed to a change request.
/// A fetch result of stored rows gives them in one query, without building
/// its objects (deleting 10,000 assets should not read 10,000 whole rows).
func memberUUIDs(_ elements: any NSFastEnumeration, entity: StoreEntity, api: String) -> [String] {
    if let result = elements as? any FetchedContents, let uuids = result.contents.uuids(of: entity) { return uuids }
    return elements._fastEnumerationElements.map { memberUUID($0, entity: entity, api: api) }
}

/// The assets of an enumeration passed to a change request of `library`.
/// A fetch result of that library's assets names them by the row ids it
/// holds, which costs no query here and spares the commit a lookup by UUID
/// (trashing 5,000 assets should not look each up twice); anything else
/// names them by UUID.
func memberAssets(_ elements: any NSFastEnumeration, library: PHPhotoLibrary, api: String) -> [AssetReference] {
    if let result = elements as? any FetchedContents, let rowIDs = result.contents.assetRowIDs(of: library) {
        return rowIDs.map(AssetReference.rowID)
    }
    return memberUUIDs(elements, entity: .asset, api: api).map(AssetReference.uuid)
}

/// PhotoKit's abstract base of change requests.
public class PHChangeRequest: NSObject, ChangeContribution, @unchecked Sendable {
    func contribute(to builder: ChangeSetBuilder) throws(PHPhotosError) {}
}

/// A deletion, trash or restore requested through a class method.
final class ObjectRemoval: ChangeContribution {
    enum Action {
        case trashAssets([AssetReference])
        case restoreAssets([AssetReference])
        case deleteCollections([String])
    }

    let action: Action

    init(_ action: Action) {
        self.action = action
    }

    func contribute(to builder: ChangeSetBuilder) throws(PHPhotosError) {
        switch action {
        case .trashAssets(let assets): builder.changeSet.trashedAssets += assets
        case .restoreAssets(let assets): builder.changeSet.restoredAssets += assets
        case .deleteCollections(let uuids): builder.changeSet.deletedCollections += uuids
        }
    }
}

/// Results filled in by concurrent workers, one slot each.
final class ConcurrentResults<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: Value) {
        lock.withLock { slots[index] = value }
    }

    /// Every slot's value, in order; call once all workers are done.
    var values: [Value] {
        lock.withLock { slots.map { $0! } }
    }
}
