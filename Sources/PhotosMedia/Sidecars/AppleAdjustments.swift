import Foundation

/// What Apple's Photos says of a photo's edits in the `.AAE` file it
/// exports beside the photo (`IMG_1234.AAE`), or hands to PhotoKit as an
/// asset's `adjustmentData` resource: an XML property list whose
/// `adjustmentRenderTypes` is a set of bits saying what the edit renders,
/// the Live Photo effect among them, which is what Photos itself reads
/// when it imports the photo. Bit 0x1 is Loop, 0x8 Bounce, 0x4 Long
/// Exposure; with several, Loop wins, then Bounce. The other bits
/// (Portrait, Cinematic, spatial, camera adjustments) and the edit itself
/// (`adjustmentData`) are left alone.
///
/// Everything in the file is data: its size and nesting are bounded, and
/// a binary property list (Photos writes XML) is not read.
package enum AppleAdjustments {
    /// The largest adjustments file read. Photos writes one to three kilobytes.
    package static let maximumSize = 64 << 10
    /// The deepest nesting of arrays and dictionaries read, far above
    /// Photos' one level: Foundation's parser recurses, so a file of
    /// nothing but `<array>` would otherwise use up the stack.
    static let maximumNesting = 16

    /// The render types' Live Photo effects, in the order Photos checks them.
    static let effectRenderTypes: [(bit: Int, effect: LivePhotoEffect)] = [(0x1, .loop), (0x8, .bounce), (0x4, .longExposure)]

    /// The Live Photo effect the adjustments file at `url` gives its photo;
    /// nil for none, or for a file that is not Photos' adjustments.
    /// Cost: one read of a small file.
    package static func livePhotoEffect(ofFileAt url: URL) -> LivePhotoEffect? {
        guard Sidecar.isSmallFile(url, maximumSize: maximumSize), let data = try? Data(contentsOf: url) else { return nil }
        return livePhotoEffect(propertyList: data)
    }

    /// The Live Photo effect a property list of Photos' adjustments gives its photo; nil for none.
    package static func livePhotoEffect(propertyList data: Data) -> LivePhotoEffect? {
        guard data.count <= maximumSize, let nesting = nesting(ofXMLPropertyList: data), nesting <= maximumNesting,
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let renderTypes = (plist["adjustmentRenderTypes"] as? NSNumber)?.int64Value
        else { return nil }
        return effectRenderTypes.first { renderTypes & Int64($0.bit) != 0 }?.effect
    }

    /// How deeply an XML property list nests its arrays and dictionaries,
    /// counted from their tags; nil when the data is not XML (a binary
    /// property list's objects may refer to each other in a cycle no count
    /// of tags reveals).
    static func nesting(ofXMLPropertyList data: Data) -> Int? {
        let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...]
        guard text.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") else { return nil }
        var depth = 0
        var deepest = 0
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            let closing = text[index...].first == UInt8(ascii: "/")
            let name = text[index...].dropFirst(closing ? 1 : 0).prefix { $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "/") }
            guard name.elementsEqual("array".utf8) || name.elementsEqual("dict".utf8) else { continue }
            if closing {
                depth -= 1
            } else if text[name.endIndex...].first != UInt8(ascii: "/") {  // `<dict/>` opens nothing
                depth += 1
                deepest = max(deepest, depth)
            }
        }
        return deepest
    }
}
