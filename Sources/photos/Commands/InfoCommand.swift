import ArgumentParser
import Foundation
import Photos

/// `photos info`: what the library holds, as far as this process may know.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show counts by media type, albums, folders, size and the change history.",
        discussion: """
            The owner sees the whole library; a client (PHOTOS_CLIENT_ID) sees what its
            grant covers: a limited client its selection and the change blocks about it,
            with opaque tokens; an add-only or denied client only its access.

            Examples:
              photos info
              photos info --json | jq .assets
            """)

    @OptionGroup var options: LibraryOptions

    /// What this process may learn of the library.
    enum Reach: String {
        case whole, limited, addOnly, none

        init(_ library: PHPhotoLibrary) {
            self = library.withCurrentLibrary {
                switch PHPhotoLibrary.authorizationStatus(for: .readWrite) {
                case .authorized: .whole
                case .limited: .limited
                default: PHPhotoLibrary.authorizationStatus(for: .addOnly) == .authorized ? .addOnly : .none
                }
            }
        }
    }

    func run() throws {
        let library = try options.open()
        let reach = Reach(library)
        guard reach == .whole || reach == .limited else {
            let access =
                reach == .addOnly
                ? "add-only: this client may add photos and read nothing"
                : "none: the library's owner has not granted this client access"
            if options.json {
                Output.json(["library": library.locationDescription, "access": reach.rawValue])
            } else {
                options.say("Library:  \(library.locationDescription)")
                options.say("Access:   \(access)")
            }
            return try options.requireAvailable(library)
        }
        let history = try library.persistentChangeHistory()
        let token = ChangeTokenText.encode(library.currentChangeToken)
        let stored = try library.storedBytes()
        let counts = library.withCurrentLibrary { () -> [(String, Int)] in
            let hidden = PHFetchOptions()
            hidden.includeHiddenAssets = true
            return [
                ("images", PHAsset.fetchAssets(with: .image, options: hidden).count),
                ("videos", PHAsset.fetchAssets(with: .video, options: hidden).count),
                ("audio", PHAsset.fetchAssets(with: .audio, options: hidden).count),
                (
                    "hidden",
                    PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumAllHidden, options: nil)
                        .firstObject.map { PHAsset.fetchAssets(in: $0, options: nil).count } ?? 0
                ),
                ("recentlyDeleted", Lookup.trashedAssets().count),
                ("albums", PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count),
                ("folders", PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil).count),
            ]
        }
        // The whole directory's size tells of everything in it: the owner's and read-write clients' to know.
        let onDisk = reach == .whole ? Self.sizeOnDisk(library.filesDirectory) : nil
        try options.requireAvailable(library)
        if options.json {
            var json: [String: Any] = ["library": library.locationDescription, "access": reach.rawValue, "storedBytes": stored, "currentToken": token]
            json["bytesOnDisk"] = onDisk
            json["assets"] = Dictionary(uniqueKeysWithValues: counts.prefix(5).map { ($0.0, $0.1) })
            json["albums"] = counts[5].1
            json["folders"] = counts[6].1
            json["history"] =
                [
                    "changeCount": history.changeCount, "oldest": Output.jsonDate(history.oldestChangeDate),
                    "newest": Output.jsonDate(history.newestChangeDate),
                ] as [String: Any]
            Output.json(json)
            return
        }
        guard !options.quiet else { return }
        Output.line("Library:  \(library.locationDescription)\(reach == .limited ? " (limited access: what this client may see)" : "")")
        Output.line("Assets:   \(counts[0].1) images, \(counts[1].1) videos, \(counts[2].1) audio (\(counts[3].1) hidden); \(counts[4].1) in Recently Deleted")
        Output.line("Albums:   \(counts[5].1) in \(counts[6].1) folders")
        Output.line("Files:    \(Output.bytes(stored))" + (onDisk.map { "; \(Output.bytes($0)) on disk with thumbnails and database" } ?? ""))
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
