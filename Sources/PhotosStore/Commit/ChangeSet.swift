import Foundation

/// Everything one change block asks for, already validated against what the
/// public layer can check without the database. The store applies it in one
/// database transaction or not at all. Every write that changes what
/// readers see is a change set: PhotoKit's change blocks, purging Recently
/// Deleted, and the owner's changes of clients' access.
package struct ChangeSet: Sendable {
    package var newAssets: [NewAsset] = []
    package var assetEdits: [AssetEdit] = []
    /// Look-alikes made one stack each (``AssetStack``).
    package var stacks: [AssetStack] = []
    /// Assets to move to Recently Deleted.
    package var trashedAssets: [AssetReference] = []
    /// Assets to bring back from Recently Deleted.
    package var restoredAssets: [AssetReference] = []
    package var newCollections: [NewCollection] = []
    package var collectionEdits: [CollectionEdit] = []
    /// Collections to delete, with their children.
    package var deletedCollections: [String] = []
    /// Leave out each new asset whose original's content (by hash) an asset
    /// already holds, in the library or earlier in this set; the commit
    /// reports which asset holds it (`CommitResult.duplicates`). Decided in
    /// the commit's own transaction, so that processes importing the same
    /// files at once store each of them once. Assets in Recently Deleted do
    /// not count. A limited client's duplicates are those of assets it may
    /// see; any other content it stores anew, so that it learns nothing of
    /// what it may not see.
    package var skipsDuplicates = false
    /// Assets in Recently Deleted to delete for good, with every file of
    /// theirs (originals, edits, thumbnails and previews).
    package var purge: RecentlyDeletedPurge?
    /// Changes of what clients may see (the owner's only).
    package var accessChanges: [AccessChange] = []
    /// Upload jobs created, acknowledged, retried, cancelled or performed,
    /// and the writer's upload-job extension enabled or disabled.
    package var uploadJobChanges: [UploadJobChange] = []
    /// Commit only if the library is still in this state, as the writer's
    /// change tokens name it (plain, or opaque for a client without
    /// read-write access); nil commits whatever happened meanwhile. Checked
    /// in the commit's own transaction, under the library's commit lock, so
    /// two writers holding the same state cannot both commit
    /// (`StoreError.stateChanged`).
    package var requiredState: HistoryPoint?

    package init() {}

    /// A change set that purges Recently Deleted.
    package init(purge: RecentlyDeletedPurge) {
        self.purge = purge
    }

    /// A change set of clients' access.
    package init(accessChanges: [AccessChange]) {
        self.accessChanges = accessChanges
    }

    /// Whether the set asks for nothing at all.
    package var isEmpty: Bool {
        !changesObjects && purge == nil && accessChanges.isEmpty
    }

    /// Whether the set names objects to create or change (what a PhotoKit
    /// change block asks for). A set that does not (a purge, an access
    /// change) and finds nothing to do commits no change block.
    package var changesObjects: Bool {
        !(newAssets.isEmpty && assetEdits.isEmpty && stacks.isEmpty && trashedAssets.isEmpty && restoredAssets.isEmpty
            && newCollections.isEmpty && collectionEdits.isEmpty && deletedCollections.isEmpty && uploadJobChanges.isEmpty)
    }
}

/// Which assets of Recently Deleted a purge deletes for good.
package enum RecentlyDeletedPurge: Sendable, Hashable {
    /// All of them: emptying Recently Deleted, which needs read-write access to the whole library.
    case all
    /// Those deleted before a date: the retention rule, applied by whoever opens the library.
    case deletedBefore(Date)
}

/// A change of what a client may see. Only the library's owner makes them;
/// each is recorded in history for the client concerned alone, so that its
/// fetch results, observers and persistent history follow.
package enum AccessChange: Sendable, Hashable {
    /// Sets a client's grant; nil forgets the decision (the client is undecided again).
    case setGrant(AccessGrant?, client: String)
    /// Forgets a client: its grant, its request and its selection.
    case removeClient(String)
    /// Adds assets (by UUID) to a limited client's selection and removes others.
    case changeSelection(client: String, adding: [String], removing: [String])
    /// Grants a client the reading of one album (`AccessGrant.sharedAlbum`), by its UUID.
    case shareAlbum(String, client: String)

    /// The client the change concerns.
    package var client: String {
        switch self {
        case .setGrant(_, let client), .removeClient(let client), .changeSelection(let client, _, _), .shareAlbum(_, let client): client
        }
    }
}

/// An asset to create, with the files already staged.
package struct NewAsset: Sendable {
    package var record: AssetRecord
    package var resources: [NewResource]
    /// Whether the asset becomes its burst's representative when the burst
    /// has none yet: for photos whose file names a burst, so that the first
    /// of a burst to arrive shows and the others stay behind it.
    package var representsNewBurst: Bool
    /// Whether the record's UTC offset is this machine's, assumed because
    /// the file gave none: a creation date set by the client then takes the
    /// offset of that date instead.
    package var timeZoneIsAssumed: Bool

    package init(record: AssetRecord, resources: [NewResource], representsNewBurst: Bool = false, timeZoneIsAssumed: Bool = false) {
        self.record = record
        self.resources = resources
        self.representsNewBurst = representsNewBurst
        self.timeZoneIsAssumed = timeZoneIsAssumed
    }
}

/// A file to store for a new asset.
package struct NewResource: Sendable {
    package var type: ResourceType
    package var file: StagedFile
    package var originalFilename: String
    package var uniformTypeIdentifier: String
    package var pixelWidth: Int
    package var pixelHeight: Int

    package init(
        type: ResourceType, file: StagedFile, originalFilename: String, uniformTypeIdentifier: String,
        pixelWidth: Int, pixelHeight: Int
    ) {
        self.type = type
        self.file = file
        self.originalFilename = originalFilename
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }
}

/// Property changes to one asset; nil leaves a property alone.
package struct AssetEdit: Sendable {
    package var uuid: String
    /// `.some(nil)` clears the creation date.
    package var creationDate: Date??
    /// `.some(nil)` clears the location.
    package var location: StoredLocation??
    package var isFavorite: Bool?
    package var isHidden: Bool?
    /// A new rendering of the content, or a return to the original.
    package var content: ContentEdit?
    package var rating: AssetRating?
    /// `.some(nil)` clears the caption, as an empty one does.
    package var caption: String??
    /// Keywords added and removed, in the order asked: adding one the
    /// asset has, or removing one it lacks, does nothing.
    package var keywordChanges: [KeywordChange]
    /// A Live Photo's motion shown (true) or the Live Photo shown as a
    /// still (false); nil leaves it alone, as does any value for an asset
    /// that is not a Live Photo.
    package var livePhotoPlaybackEnabled: Bool?

    package init(
        uuid: String, creationDate: Date?? = nil, location: StoredLocation?? = nil,
        isFavorite: Bool? = nil, isHidden: Bool? = nil, content: ContentEdit? = nil,
        rating: AssetRating? = nil, caption: String?? = nil, keywordChanges: [KeywordChange] = [],
        livePhotoPlaybackEnabled: Bool? = nil
    ) {
        self.uuid = uuid
        self.creationDate = creationDate
        self.location = location
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.content = content
        self.rating = rating
        self.caption = caption
        self.keywordChanges = keywordChanges
        self.livePhotoPlaybackEnabled = livePhotoPlaybackEnabled
    }
}

/// Look-alikes made one stack, as a camera makes a burst: they share a new
/// burst identifier, `kept` represents it (and is the user's pick), and the
/// others leave default fetches, as a burst's unpicked shots do
/// (`includeAllBurstAssets` and the burst's own fetch still show them). A
/// member that was in a burst brings that burst's other shots along, so no
/// shot is left in a burst with no representative.
package struct AssetStack: Sendable, Hashable {
    /// The UUID of the asset shown for the stack; one of `members`.
    package var kept: String
    /// The UUIDs of the assets stacked, `kept` among them.
    package var members: [String]
    /// The most assets one stack takes.
    package static let maximumMembers = 1_000

    package init(kept: String, members: [String]) {
        self.kept = kept
        self.members = members
    }
}

/// One keyword added to an asset, or removed from it.
package enum KeywordChange: Sendable, Hashable {
    case add(String)
    case remove(String)

    /// `keywords` after the changes, in order: an added keyword goes at the
    /// end unless it is there already; a removed one that is absent is ignored.
    package static func apply(_ changes: [KeywordChange], to keywords: [String]) -> [String] {
        changes.reduce(into: keywords) { keywords, change in
            switch change {
            case .add(let keyword): if !keywords.contains(keyword) { keywords.append(keyword) }
            case .remove(let keyword): keywords.removeAll { $0 == keyword }
            }
        }
    }
}

/// An edit of an asset's content. The original is always kept.
package enum ContentEdit: Sendable {
    /// The content as an editor rendered it, with the data that lets the
    /// editor reopen the edit.
    case adjust(AdjustedContent)
    /// Back to the original: the rendering and the adjustment data go.
    /// With a choice, the original of a RAW+JPEG asset to render from then
    /// on; an asset without a raw alternate fails the block.
    case revert(choosing: AssetOriginalResourceChoice?)
}

/// A rendering of an asset's content and the adjustment data behind it.
package struct AdjustedContent: Sendable {
    /// The rendered file: a full-size photo or video.
    package var rendered: NewResource
    /// The adjustment data, as a file.
    package var adjustmentData: NewResource
    package var formatIdentifier: String
    package var formatVersion: String
    /// The rendering's ThumbHash placeholder.
    package var thumbHash: Data?

    package init(
        rendered: NewResource, adjustmentData: NewResource, formatIdentifier: String, formatVersion: String,
        thumbHash: Data? = nil
    ) {
        self.rendered = rendered
        self.adjustmentData = adjustmentData
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.thumbHash = thumbHash
    }

    var resources: [NewResource] { [rendered, adjustmentData] }
}

/// A user album (asset collection) or folder (collection list) to create at the top level.
package struct NewCollection: Sendable {
    package var uuid: String
    package var kind: CollectionKind
    package var title: String

    package init(uuid: String, kind: CollectionKind, title: String) {
        self.uuid = uuid
        self.kind = kind
        self.title = title
    }
}

/// What a collection edit applies to.
package enum CollectionEditTarget: Sendable, Hashable {
    case collection(uuid: String)
    /// The list of top-level user albums and folders.
    case topLevel
}

/// A change to a collection's title or ordered members. Members are asset
/// UUIDs for albums and collection UUIDs for folders.
package struct CollectionEdit: Sendable {
    package var target: CollectionEditTarget
    package var title: String?
    /// The members, in order, that the operations' indexes refer to; nil means
    /// the members a default fetch of the collection returns now.
    package var snapshot: [String]?
    package var operations: [MembershipOperation]

    package init(
        target: CollectionEditTarget, title: String? = nil, snapshot: [String]? = nil,
        operations: [MembershipOperation] = []
    ) {
        self.target = target
        self.title = title
        self.snapshot = snapshot
        self.operations = operations
    }
}

/// One edit of an ordered membership. Indexes follow NSMutableArray's
/// semantics and refer to the list as the previous operations left it.
package enum MembershipOperation: Sendable, Hashable {
    /// Appends the members not already present.
    case add([String])
    /// Places each member at its index of the resulting list (indexes ascending).
    case insert([String], at: [Int])
    case remove([String])
    case removeAt([Int])
    case replace(at: [Int], with: [String])
    /// Removes the members at the indexes, then inserts them, in order, at `to`.
    case move(from: [Int], to: Int)
}

/// What a commit changed, object by object: the raw material of change
/// notifications and persistent history.
package struct CommitResult: Sendable {
    /// The number of the change block the commit recorded.
    package var changeBlock: Int64
    /// The objects it inserted, updated and deleted, as every reader with
    /// full access sees them (changes of a client's access are recorded for
    /// that client only, and are not listed here).
    package var changes: [ObjectChange]
    /// New assets left out as duplicates (`ChangeSet.skipsDuplicates`): the
    /// UUID each would have had, and the UUID of the asset holding its content.
    package var duplicates: [String: String]

    package init(changeBlock: Int64, changes: [ObjectChange], duplicates: [String: String] = [:]) {
        self.changeBlock = changeBlock
        self.changes = changes
        self.duplicates = duplicates
    }
}

/// One object a commit inserted, updated or deleted.
package struct ObjectChange: Sendable, Hashable {
    /// Raw values are what history rows store.
    package enum Kind: Int, Sendable, Hashable {
        case inserted = 1
        case updated = 2
        case deleted = 3
    }

    package var identifier: LocalIdentifier
    package var rowID: Int64
    package var kind: Kind
    /// For updates: what changed.
    package var changedAttributes: Set<ChangedAttribute>
}

extension MembershipOperation {
    /// The UUIDs the operations name as members, whatever they do with them.
    static func members(named operations: [MembershipOperation]) -> Set<String> {
        var names = Set<String>()
        for operation in operations {
            switch operation {
            case .add(let members), .insert(let members, _), .remove(let members), .replace(_, let members):
                names.formUnion(members)
            case .removeAt, .move:
                break
            }
        }
        return names
    }
}
