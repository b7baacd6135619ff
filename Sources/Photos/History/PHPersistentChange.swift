import Foundation
import PhotosStore

/// One committed change block of a library's history, from any process:
/// the token of the state it made, and what it did to each type of object.
public final class PHPersistentChange: NSObject, @unchecked Sendable {
    /// The state of the library right after this change. Store the last
    /// change's token once its changes are processed.
    ///
    /// Cost: a small object made at each use; tokens of one state are
    /// equal (`==`), not identical. A reader usually keeps only the last
    /// change's token, so the others are never made.
    public var changeToken: PHPersistentChangeToken {
        PHPersistentChangeToken(libraryUUID: libraryUUID, point: point)
    }
    private let libraryUUID: String
    /// The state this change made, as the reader's tokens name it.
    private let point: HistoryPoint
    /// When the change block was committed.
    let committedAt: Date
    private let contents: Result<ArraySlice<HistoryEntry>, PHPhotosError>

    init(libraryUUID: String, point: HistoryPoint, committedAt: Date, contents: Result<ArraySlice<HistoryEntry>, PHPhotosError>) {
        self.libraryUUID = libraryUUID
        self.point = point
        self.committedAt = committedAt
        self.contents = contents
    }

    /// The local identifiers of the objects of `objectType` this change
    /// inserted, updated and deleted; empty sets when it touched none.
    ///
    /// Throws `PHPhotosError.persistentChangeDetailsUnavailable` when the
    /// details were not kept: the change block touched more objects than the
    /// library's retention keeps details for, the history was pruned while
    /// it was read, or the library's owner changed this client's access in
    /// it. The error's message says which. Refetch what you track then.
    /// Cost: none; the details were read with the change.
    public func changeDetails(for objectType: PHObjectType) throws -> PHPersistentObjectChangeDetails {
        let entries: ArraySlice<HistoryEntry>
        switch contents {
        case .success(let own): entries = own
        case .failure(let error): throw error
        }
        var inserted = Set<String>()
        var updated = Set<String>()
        var deleted = Set<String>()
        // Entries are read where they are: a copy of each would retain its identifier and attributes.
        for index in entries.indices where entries[index].identifier.entity.rawValue == objectType.rawValue {
            switch Self.outcome(entries[index].kind, attributes: entries[index].attributes) {
            case .inserted: inserted.insert(entries[index].identifier.description)
            case .updated: updated.insert(entries[index].identifier.description)
            case .deleted: deleted.insert(entries[index].identifier.description)
            }
        }
        // Most changes update nothing; an empty set is left as it is.
        if !updated.isEmpty {
            updated.subtract(inserted)
            updated.subtract(deleted)
        }
        return PHPersistentObjectChangeDetails(objectType: objectType, inserted: inserted, updated: updated, deleted: deleted)
    }

    /// Which of the three lists an entry of `kind` that changed `attributes`
    /// belongs to. To a reader of history, an asset moved to Recently
    /// Deleted is deleted and one restored from it is inserted, as PhotoKit
    /// reports them.
    private static func outcome(_ kind: ObjectChange.Kind, attributes: Set<ChangedAttribute>) -> ObjectChange.Kind {
        switch kind {
        case .updated where attributes.contains(.trashed): .deleted
        case .updated where attributes.contains(.restored): .inserted
        case let kind: kind
        }
    }

    public override var description: String {
        point.isOpaque
            ? "<PHPersistentChange> a change block committed \(committedAt)"
            : "<PHPersistentChange> change block \(point.changeBlock), committed \(committedAt)"
    }
}
