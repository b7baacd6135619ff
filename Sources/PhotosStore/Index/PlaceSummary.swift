import Foundation

/// One place the library's photos were taken, with how many of those the
/// reader sees were taken there and the newest added of them.
package struct PlaceSummary: Sendable, Hashable {
    package var place: IndexedPlace
    package var assetCount: Int
    /// The UUID of the asset added last there: the place's cover.
    package var coverUUID: String

    package init(place: IndexedPlace, assetCount: Int, coverUUID: String) {
        self.place = place
        self.assetCount = assetCount
        self.coverUUID = coverUUID
    }
}
