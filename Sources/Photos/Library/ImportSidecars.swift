import Foundation
import PhotosMedia
import PhotosStore

/// The sidecars beside the files of one import, and the Takeout albums
/// their folders are: read once per folder, whatever order the files come in.
struct ImportSidecars {
    private struct Folder {
        var names: SidecarNames
        var albumTitle: String?
    }

    private var folders: [URL: Folder] = [:]
    private var sidecarsByFile: [URL: [Sidecar]] = [:]
    /// The sidecars that described a file of the import.
    private(set) var read: [URL] = []

    /// Reads the sidecars of `files`. Cost: one listing of each folder, a
    /// read of each sidecar found (a request to exiftool for XMP).
    init(files: [URL]) {
        for file in files {
            let folderURL = file.deletingLastPathComponent()
            let folder = folders[folderURL] ?? Self.folder(at: folderURL)
            folders[folderURL] = folder
            let sidecars = folder.names.sidecars(of: file.lastPathComponent)
                .compactMap { Sidecar.read(folderURL.appendingPathComponent($0)) }
            guard !sidecars.isEmpty else { continue }
            sidecarsByFile[file] = sidecars
            read += sidecars.map(\.file).filter { !read.contains($0) }
        }
    }

    /// The sidecars that describe `file`, Takeout's first.
    func sidecars(of file: URL) -> [Sidecar] {
        sidecarsByFile[file] ?? []
    }

    /// The title of the Takeout album whose folder holds `file`.
    func albumTitle(of file: URL) -> String? {
        folders[file.deletingLastPathComponent()]?.albumTitle
    }

    private static func folder(at url: URL) -> Folder {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        let index = SidecarNames(names: names)
        let title = index.folderMetadataNames.lazy.compactMap { TakeoutJSON.albumTitle(at: url.appendingPathComponent($0)) }.first
        return Folder(names: index, albumTitle: title)
    }
}

extension PHAssetCreationRequest {
    /// Gives the asset what its sidecars say where they are trusted over
    /// its file (``Sidecar/captureDate(over:)``, ``Sidecar/location(over:)``),
    /// Takeout's favorite and archived (as hidden) marks, and the rating,
    /// caption and keywords a sidecar records: an editor's sidecar is newer
    /// than the file it describes, so its rating and caption win and its
    /// keywords join the file's. Apple's `.AAE` gives a Live Photo its effect.
    func apply(_ sidecars: [Sidecar], over file: MediaMetadata) {
        for sidecar in sidecars.reversed() {
            if let date = sidecar.captureDate(over: file) { creationDate = date }
            if let place = sidecar.location(over: file) {
                location = CLLocation(
                    coordinate: CLLocationCoordinate2D(latitude: place.latitude, longitude: place.longitude),
                    altitude: place.altitude ?? 0, horizontalAccuracy: 0, verticalAccuracy: place.altitude == nil ? -1 : 0,
                    timestamp: creationDate ?? file.captureDate ?? Date())
            }
            if sidecar.isFavorite == true { isFavorite = true }
            if sidecar.isArchived == true { isHidden = true }
            if let effect = sidecar.livePhotoEffect { newLivePhotoEffect = effect }
            if let stars = sidecar.descriptive.rating, let rating = PHAsset.Rating(rawValue: stars) { self.rating = rating }
            if let described = ExtendedMetadataRecord(fileRecorded: sidecar.descriptive) {
                if let caption = described.caption { self.caption = caption }
                described.keywords.forEach(addKeyword)
            }
        }
    }
}
