import Foundation

/// The objects of one type that one persistent change inserted, updated or
/// deleted, by local identifier.
///
/// An asset moved to Recently Deleted is reported as deleted, and one
/// brought back as inserted: PhotoKit's fetches do not return assets in
/// Recently Deleted. A deleted object's identifier is reported even though
/// the object is gone.
public final class PHPersistentObjectChangeDetails: NSObject, @unchecked Sendable {
    /// The type of object the details are about.
    public let objectType: PHObjectType
    /// The objects the change created (or brought back from Recently Deleted).
    public let insertedLocalIdentifiers: Set<String>
    /// The objects the change edited: properties, membership, order.
    public let updatedLocalIdentifiers: Set<String>
    /// The objects the change deleted (or moved to Recently Deleted).
    public let deletedLocalIdentifiers: Set<String>

    init(objectType: PHObjectType, inserted: Set<String>, updated: Set<String>, deleted: Set<String>) {
        self.objectType = objectType
        insertedLocalIdentifiers = inserted
        updatedLocalIdentifiers = updated
        deletedLocalIdentifiers = deleted
    }

    public override var description: String {
        "<PHPersistentObjectChangeDetails> \(objectType): \(insertedLocalIdentifiers.count) inserted, "
            + "\(updatedLocalIdentifiers.count) updated, \(deletedLocalIdentifiers.count) deleted"
    }
}
