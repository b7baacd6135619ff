// The names PhotoKit's enumerations and option sets go by outside Swift
// (the server's JSON, `photos … --json`), where Apple's integers would
// mean nothing to a reader. An enumeration's name is its Swift case name;
// an option set's names are its static members', listed beside it here,
// since Swift cannot enumerate them.

/// A PhotoKit value sent as a name rather than its raw integer.
package protocol PhotoKitNamed {
    /// The name, as Apple's Swift spelling has it (`"video"`, `"livePhoto"`).
    var name: String { get }
}

/// A PhotoKit option set sent as the names of the options it holds.
package protocol PhotoKitNamedOptions: OptionSet where Element == Self {
    /// Every named option, in raw-value order.
    static var named: [(option: Self, name: String)] { get }
}

extension PhotoKitNamedOptions {
    /// The names of the options this value holds, in raw-value order; bits without a name are left out.
    package var names: [String] {
        Self.named.filter { contains($0.option) }.map(\.name)
    }

    /// The options `names` name; nil when one of them is not an option's name.
    package init?(names: some Sequence<String>) {
        self = []
        for name in names {
            guard let option = Self.named.first(where: { $0.name == name })?.option else { return nil }
            insert(option)
        }
    }
}

extension PhotoKitNamed where Self: RawRepresentable {
    /// The Swift case name.
    package var name: String { String(describing: self) }
}

extension PHAssetMediaType: PhotoKitNamed {}
extension PHAsset.PlaybackStyle: PhotoKitNamed {}
extension PHAsset.PlaybackVariation: PhotoKitNamed {}
extension PHAssetResourceType: PhotoKitNamed {}
extension PHAssetCollectionType: PhotoKitNamed {}
extension PHCollectionListType: PhotoKitNamed {}
extension PHCollectionListSubtype: PhotoKitNamed {}

extension PHAssetCollectionSubtype: PhotoKitNamed {
    /// The case name without the `album` or `smartAlbum` the collection's
    /// type already says (`"recentlyDeleted"`, `"regular"`), lowercased at its start.
    package var name: String {
        let full = String(describing: self)
        for prefix in ["smartAlbum", "album"] where full.hasPrefix(prefix) && full.count > prefix.count {
            let rest = full.dropFirst(prefix.count)
            // "RAW" stays as Apple capitalises it; other names start lowercase.
            return rest.allSatisfy(\.isUppercase) ? String(rest) : rest.prefix(1).lowercased() + rest.dropFirst()
        }
        return full
    }
}

extension PHAssetMediaSubtype: PhotoKitNamedOptions {
    package static var named: [(option: PHAssetMediaSubtype, name: String)] {
        [
            (.photoPanorama, "photoPanorama"), (.photoHDR, "photoHDR"), (.photoScreenshot, "photoScreenshot"),
            (.photoLive, "photoLive"), (.photoDepthEffect, "photoDepthEffect"), (.photoAnimation, "photoAnimation"), (.spatialMedia, "spatialMedia"),
            (.videoStreamed, "videoStreamed"), (.videoHighFrameRate, "videoHighFrameRate"), (.videoTimelapse, "videoTimelapse"),
            (.videoScreenRecording, "videoScreenRecording"), (.videoCinematic, "videoCinematic"),
        ]
    }
}

extension PHAssetBurstSelectionType: PhotoKitNamedOptions {
    package static var named: [(option: PHAssetBurstSelectionType, name: String)] {
        [(.autoPick, "autoPick"), (.userPick, "userPick")]
    }
}

extension PHAssetSourceType: PhotoKitNamedOptions {
    /// Without the `type` prefix of Apple's Swift spelling (`"userLibrary"`).
    package static var named: [(option: PHAssetSourceType, name: String)] {
        [(.typeUserLibrary, "userLibrary"), (.typeCloudShared, "cloudShared"), (.typeiTunesSynced, "iTunesSynced")]
    }
}
