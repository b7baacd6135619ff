import ArgumentParser
import Foundation
import Photos

/// `photos info`: what the library holds.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show counts by media type, albums, folders, size on disk and the change history.",
        discussion: """
            Examples:
              photos info
              photos info --json | jq .assets
            """)

    @OptionGroup var options: LibraryOptions

    func run() throws {
        let library = try options.open()
        let history = try library.persistentChangeHistory()
        let token = ChangeTokenText.encode(library.currentChangeToken)
        let counts = library.withCurrentLibrary { () -> [(String, Int)] in
            let hidden = PHFetchOptions()
            hidden.includeHiddenAssets = true
            return [
                ("images", PHAsset.fetchAssets(with: .image, options: hidden).count),
                ("videos", PHAsset.fetchAssets(with: .video, options: hidden).count),
                ("audio", PHAsset.fetchAssets(with: .audio, options: hidden).count),
                ("hidden", PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumAllHidden, options: nil)
                    .firstObject.map { PHAsset.fetchAssets(in: $0, options: nil).count } ?? 0),
                ("recentlyDeleted", Lookup.trashedAssets().count),
                ("albums", PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count),
                ("folders", PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil).count),
            ]
        }
        let bytes = Self.sizeOnDisk(library.url)
        if options.json {
            var json: [String: Any] = ["library": library.url.path, "bytesOnDisk": bytes, "currentToken": token]
            json["assets"] = Dictionary(uniqueKeysWithValues: counts.prefix(5).map { ($0.0, $0.1) })
            json["albums"] = counts[5].1
            json["folders"] = counts[6].1
            json["history"] = ["changeCount": history.changeCount, "oldest": Output.jsonDate(history.oldestChangeDate),
                               "newest": Output.jsonDate(history.newestChangeDate)] as [String: Any]
            Output.json(json)
            return
        }
        guard !options.quiet else { return }
        Output.line("Library:  \(library.url.path)")
        Output.line("Assets:   \(counts[0].1) images, \(counts[1].1) videos, \(counts[2].1) audio (\(counts[3].1) hidden); \(counts[4].1) in Recently Deleted")
        Output.line("Albums:   \(counts[5].1) in \(counts[6].1) folders")
        Output.line("On disk:  \(Output.bytes(bytes))")
        if history.changeCount > 0 {
            Output.line("History:  \(history.changeCount) change blocks, \(Output.date(history.oldestChangeDate)) to \(Output.date(history.newestChangeDate))")
        } else {
            Output.line("History:  no change blocks kept")
        }
        Output.line("Token:    \(token)")
    }

    /// The bytes of every file in the library's directory.
    static func sizeOnDisk(_ url: URL) -> Int64 {
        var total: Int64 = 0
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        while let file = enumerator?.nextObject() as? URL {
            let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey])
            if values?.isRegularFile == true { total += Int64(values?.fileSize ?? 0) }
        }
        return total
    }
}
