import Foundation

/// A state of the library: the change block that made it, and that block's
/// random stamp, which tells this library's block N from block N of a copy
/// that went its own way (a library restored from a backup).
///
/// Points handed to clients without read-write access are opaque: their
/// `changeBlock` is masked (`TokenCipher`), so that the library's numbering
/// of change blocks stays its own; the engine unmasks them when they come back.
package struct HistoryPoint: Sendable, Hashable {
    /// 0 names the library before any change block.
    package var changeBlock: Int64
    /// 0 for change block 0.
    package var stamp: Int64
    /// Whether `changeBlock` is masked.
    package var isOpaque: Bool
    /// An opaque point's MAC (`TokenCipher`), which proves the library made
    /// it; 0 for a plain one.
    package var tag: Int64

    package init(changeBlock: Int64, stamp: Int64, isOpaque: Bool = false, tag: Int64 = 0) {
        self.changeBlock = changeBlock
        self.stamp = stamp
        self.isOpaque = isOpaque
        self.tag = tag
    }
}

/// One committed change block as persistent history lists it.
package struct PersistentChangeRecord: Sendable, Hashable {
    /// Whether the block's object changes can be read.
    package enum Details: Sendable, Hashable {
        case kept
        /// The block touched more objects than the library kept details for.
        case dropped
        /// The owner changed the reader's own access in this block: what it
        /// may see changed wholesale, which object changes cannot describe.
        case accessChanged
    }

    /// The state the block made.
    package var point: HistoryPoint
    /// The same state as the reader's change token names it (opaque for a
    /// reader without read-write access).
    package var tokenPoint: HistoryPoint
    package var committedAt: Date
    /// How many objects the block changed (0 when it only changed a
    /// client's access), whatever of them the reader may see: an upper
    /// bound on the entries it reads for the block.
    package var objectCount: Int
    package var details: Details

    package init(point: HistoryPoint, tokenPoint: HistoryPoint? = nil, committedAt: Date, objectCount: Int, details: Details) {
        self.point = point
        self.tokenPoint = tokenPoint ?? point
        self.committedAt = committedAt
        self.objectCount = objectCount
        self.details = details
    }
}
