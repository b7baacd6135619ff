/// How a photo of a burst was picked (`asset.burst_selection_types`):
/// PhotoKit's `PHAssetBurstSelectionType` bits, written here once; the
/// public option set takes its values from these.
package struct AssetBurstSelectionTypes: OptionSet, Sendable, Hashable {
    package let rawValue: Int

    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    package static let autoPick = Self(rawValue: 1 << 0)
    package static let userPick = Self(rawValue: 1 << 1)
}
