import Foundation

/// What one ``LibraryIndexer/catchUp(shouldStop:)`` did.
public struct IndexRun: Sendable, Equatable {
    /// Assets whose entries it wrote.
    public var indexed = 0
    /// Deleted assets whose entries it removed.
    public var removed = 0
    /// The kinds it left to another process holding their lease.
    public var heldElsewhere: [IndexKind] = []
    /// The kinds it could not run on this machine, each with the reason
    /// (its model is not installed).
    public var unavailable: [IndexKind: String] = [:]

    /// A run that did nothing: what a run finds when everything is indexed.
    public init() {}
}
