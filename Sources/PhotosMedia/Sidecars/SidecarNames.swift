import Foundation

/// Which names in a folder are the sidecars of a photo or video there, as
/// the tools that write them name them:
/// - darktable `IMG_1234.JPG.xmp`, Lightroom and others `IMG_1234.xmp`;
/// - Apple's Photos `IMG_1234.AAE`, or `IMG_O1234.AAE` as later versions name
///   an original's adjustments;
/// - Google Takeout `IMG_1234.JPG.json` or `IMG_1234.JPG.supplemental-metadata.json`,
///   cut to 51 characters (`IMG_…JPG.supplemen.json`, `very-long-name-cut.json`),
///   with a copy's number moved to the end (`image(1).jpg` is described by
///   `image.jpg(1).json`), and an edited copy (`image-edited.jpg`) described
///   by its original's.
package struct SidecarNames: Sendable {
    private struct TakeoutKey {
        var describedName: String
        var copyNumber: String
        var jsonName: String
    }

    private let lowercasedNames: [String: String]
    private let takeoutKeys: [TakeoutKey]
    /// JSON files that describe no file (`metadata.json`, in any language):
    /// where Takeout keeps an album folder's title.
    package let folderMetadataNames: [String]

    /// Indexes a folder's names. Cost: linear in their number.
    package init(names: [String]) {
        var lowercased: [String: String] = [:]
        var keys: [TakeoutKey] = []
        for name in names {
            lowercased[name.lowercased()] = lowercased[name.lowercased()] ?? name
            guard name.lowercased().hasSuffix(".json") else { continue }
            var stem = String(name.dropLast(5))
            let copy = Self.copyNumber(of: &stem)
            if let dot = stem.lastIndex(of: "."), stem.index(after: dot) < stem.endIndex,
                "supplemental-metadata".hasPrefix(stem[stem.index(after: dot)...].lowercased())
            {
                stem = String(stem[..<dot])
            }
            keys.append(TakeoutKey(describedName: stem, copyNumber: copy, jsonName: name))
        }
        lowercasedNames = lowercased
        takeoutKeys = keys.filter { $0.describedName.contains(".") }
        folderMetadataNames = keys.filter { !$0.describedName.contains(".") && $0.copyNumber.isEmpty }.map(\.jsonName)
    }

    /// The names of `mediaName`'s sidecars in this folder, Takeout's first.
    package func sidecars(of mediaName: String) -> [String] {
        var found: [String] = []
        if let json = takeoutJSON(of: mediaName) { found.append(json) }
        let stem = (mediaName as NSString).deletingPathExtension
        for candidate in [mediaName + ".xmp", stem + ".xmp"] {
            if let name = lowercasedNames[candidate.lowercased()], !found.contains(name) {
                found.append(name)
                break
            }
        }
        var adjustments = [stem + ".aae"]
        if stem.uppercased().hasPrefix("IMG_") { adjustments.append("IMG_O" + stem.dropFirst(4) + ".aae") }
        if let name = adjustments.lazy.compactMap({ lowercasedNames[$0.lowercased()] }).first { found.append(name) }
        return found
    }

    /// The shortest name Google cuts a JSON's to: shorter ones must match whole.
    private static let shortestCutName = 30

    private func takeoutJSON(of mediaName: String) -> String? {
        let pathExtension = (mediaName as NSString).pathExtension
        var stem = (mediaName as NSString).deletingPathExtension
        let copy = Self.copyNumber(of: &stem)
        var described = [stem + (pathExtension.isEmpty ? "" : "." + pathExtension)]
        if stem.hasSuffix("-edited") {
            described.append(String(stem.dropLast(7)) + (pathExtension.isEmpty ? "" : "." + pathExtension))
        }
        for name in described {
            let keys = takeoutKeys.filter { $0.copyNumber == copy }
            if let exact = keys.first(where: { $0.describedName == name }) { return exact.jsonName }
            let cut = keys.filter { $0.describedName.count >= Self.shortestCutName && name.hasPrefix($0.describedName) }
            if let longest = cut.max(by: { $0.describedName.count < $1.describedName.count }) { return longest.jsonName }
        }
        return nil
    }

    /// Removes a copy's number ("(1)") from the end of a name, and returns it ("" for none).
    private static func copyNumber(of stem: inout String) -> String {
        guard stem.hasSuffix(")"), let open = stem.lastIndex(of: "(") else { return "" }
        let digits = stem[stem.index(after: open)..<stem.index(before: stem.endIndex)]
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return "" }
        let number = String(digits)
        stem = String(stem[..<open])
        return number
    }
}
