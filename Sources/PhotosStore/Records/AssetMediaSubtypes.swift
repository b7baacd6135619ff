/// The bits of `asset.media_subtypes`: PhotoKit's `PHAssetMediaSubtype`
/// values, written here once. The public option set takes its values from
/// these, and the smart albums' rules test them.
package struct AssetMediaSubtypes: OptionSet, Sendable, Hashable {
    package let rawValue: Int

    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    package static let photoPanorama = Self(rawValue: 1 << 0)
    package static let photoHDR = Self(rawValue: 1 << 1)
    package static let photoScreenshot = Self(rawValue: 1 << 2)
    package static let photoLive = Self(rawValue: 1 << 3)
    package static let photoDepthEffect = Self(rawValue: 1 << 4)
    package static let photoAnimation = Self(rawValue: 1 << 6)
    package static let spatialMedia = Self(rawValue: 1 << 10)
    package static let videoStreamed = Self(rawValue: 1 << 16)
    package static let videoHighFrameRate = Self(rawValue: 1 << 17)
    package static let videoTimelapse = Self(rawValue: 1 << 18)
    package static let videoScreenRecording = Self(rawValue: 1 << 19)
    package static let videoCinematic = Self(rawValue: 1 << 21)
}
