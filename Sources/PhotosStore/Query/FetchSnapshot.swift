import Foundation

/// The ids a fetch selected, in order, and the change block they reflect.
package struct FetchSnapshot: Sendable, Equatable {
    package var ids: [Int64]
    /// The last change block committed when the ids were read.
    package var changeBlock: Int64

    package init(ids: [Int64], changeBlock: Int64) {
        self.ids = ids
        self.changeBlock = changeBlock
    }
}

/// A fetch brought up to date: its new snapshot, and how it differs from the old.
package struct FetchRefresh: Sendable {
    package var snapshot: FetchSnapshot
    package var difference: IdentityDifference
    /// False when the history could not say which objects changed, so the
    /// difference covers only what was removed, inserted and moved.
    package var isIncremental: Bool = true
}
