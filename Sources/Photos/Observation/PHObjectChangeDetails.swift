import Foundation

/// How one asset or collection changed. For a collection it describes its
/// own properties (title, count, dates); its contents change through the
/// fetch result of its contents.
public final class PHObjectChangeDetails<ObjectType: PHObject>: NSObject, @unchecked Sendable {
    /// The object the details were asked for.
    public let objectBeforeChanges: ObjectType
    /// The object as it is now; nil when it was deleted.
    public let objectAfterChanges: ObjectType?
    /// Whether the asset's image or video changed (an edit or its revert);
    /// false for collections.
    public let assetContentChanged: Bool
    /// Whether the object is gone: deleted, or for an asset, moved to
    /// Recently Deleted, where apps no longer see it.
    public let objectWasDeleted: Bool

    init(before: ObjectType, after: ObjectType?, contentChanged: Bool, deleted: Bool) {
        objectBeforeChanges = before
        objectAfterChanges = after
        assetContentChanged = contentChanged
        objectWasDeleted = deleted
    }
}
