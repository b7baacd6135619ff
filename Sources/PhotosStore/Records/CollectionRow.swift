import Foundation

/// The filterable values of a collection held in memory (a moment, a moment
/// list, a member of a transient list), for `PhotoStore.filterCollectionRows`.
package struct CollectionRow: Encodable, Sendable, Equatable {
    package var uuid: String
    /// `CollectionKind` raw value.
    package var kind: Int
    package var title: String?
    /// Seconds since 1970.
    package var startDate: Double?
    package var endDate: Double?
    package var assetCount: Int?

    package init(uuid: String, kind: CollectionKind, title: String?, startDate: Date?, endDate: Date?, assetCount: Int?) {
        self.uuid = uuid
        self.kind = kind.rawValue
        self.title = title
        self.startDate = startDate?.timeIntervalSince1970
        self.endDate = endDate?.timeIntervalSince1970
        self.assetCount = assetCount
    }
}
