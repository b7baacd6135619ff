import ArgumentParser
import Foundation
import Photos
import PhotosIndexing
import PhotosMedia

/// Builds a sample library through the public API and tours it.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Create a sample library of generated photos and show what fetches return.",
        discussion: """
            Generates JPEG photos with EXIF dates and GPS positions from several trips over
            six years, imports them in atomic change blocks, makes albums and a folder, and
            prints fetches, smart albums, moments and Recently Deleted.

            Examples:
              photos demo
              photos demo --assets 500 --keep
              photos demo --library /tmp/Demo.photoslibrary
            """)

    @Option(help: "Where to create the demo library (a new or empty directory). Default: a temporary directory.")
    var library: String?

    @Option(help: "How many photos to generate (60...5000).")
    var assets = 300

    @Flag(help: "Keep the library (and the generated photos) instead of deleting them at the end.")
    var keep = false

    func validate() throws {
        guard (60...5000).contains(assets) else { throw ValidationError("--assets must be between 60 and 5000") }
    }

    func run() throws {
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("photos-demo-\(UUID().uuidString.prefix(8))")
        let libraryURL = library.map { URL(fileURLWithPath: $0) } ?? workspace.appendingPathComponent("Demo.photoslibrary")
        let card = workspace.appendingPathComponent("DCIM")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        defer {
            if !keep {
                try? FileManager.default.removeItem(at: workspace)
                if library != nil { try? FileManager.default.removeItem(at: libraryURL) }
            }
        }

        let photoLibrary = try PHPhotoLibrary(url: libraryURL, clientIdentifier: nil)
        var tour = Tour(library: photoLibrary)
        tour.title("OpenPhotoKit demo")
        Output.line("Library: \(photoLibrary.locationDescription)")

        let shots = Trip.schedule(count: assets)
        tour.section("1. Generate \(shots.count) photos with EXIF dates and GPS, as a camera card would hold them")
        let files = try shots.enumerated().map { index, shot in try shot.write(to: card, index: index) }
        Output.line("   \(files.count) JPEGs in \(card.path)")

        tour.section("2. Import them in atomic change blocks of 50")
        let started = Date()
        var identifiers: [String] = []
        for batch in stride(from: 0, to: files.count, by: 50).map({ Array(files[$0..<min($0 + 50, files.count)]) }) {
            try photoLibrary.performChangesAndWait {
                for file in batch {
                    let request = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file)
                    identifiers.append(request!.placeholderForCreatedAsset!.localIdentifier)
                }
            }
        }
        let seconds = Date().timeIntervalSince(started)
        Output.line(
            String(
                format: "   %d assets in %.1f s (%.0f per second); each block stored all of its photos or none",
                identifiers.count, seconds, Double(identifiers.count) / seconds))

        let afterImport = photoLibrary.currentChangeToken
        try tour.organise(identifiers: identifiers, shots: shots)
        try photoLibrary.withCurrentLibrary {
            try tour.showFetches()
            tour.showAlbums()
            tour.showSmartAlbums()
            tour.showMoments()
            try tour.showRecentlyDeleted()
            try tour.showHistory(since: afterImport)
            try tour.showLimitedClient()
            try tour.showImages()
            try tour.showSearch(receiptIn: card)
            try tour.showPeople(copyingInto: card)
        }
        tour.section("Done")
        if keep {
            Output.line("   The library stays at \(photoLibrary.locationDescription)")
            Output.line("   Try: PHOTOS_LIBRARY=\"\(photoLibrary.locationDescription)\" photos --help")
        } else {
            Output.line("   The demo library is deleted; run with --keep to keep it.")
        }
    }
}

/// One generated photo.
struct Shot {
    var trip: Trip
    var date: Date
    var latitude: Double?
    var longitude: Double?
    var portrait: Bool

    func write(to folder: URL, index: Int) throws -> URL {
        var exif = ExifFields()
        let (dateTime, offset) = ExifFields.exifDateTime(date, utcOffset: trip.utcOffset)
        exif.dateTimeOriginal = dateTime
        exif.offsetTimeOriginal = offset
        exif.make = "OpenPhotoKit"
        exif.model = "Demo Camera"
        exif.latitude = latitude
        exif.longitude = longitude
        exif.orientation = portrait ? 6 : 1
        let shade = Double(index % 17) * 6
        let data = try SampleImage.jpeg(
            width: 640, height: 480, from: trip.colors.0, to: (trip.colors.1.0, trip.colors.1.1 - shade, trip.colors.1.2),
            exif: exif, quality: 80)
        let url = folder.appendingPathComponent(String(format: "IMG_%04d.JPG", index + 1))
        try data.write(to: url)
        return url
    }
}

/// A trip, or everyday life at home, where the demo's photos were taken.
struct Trip {
    var name: String
    var start: String
    var days: Int
    var latitude: Double?
    var longitude: Double?
    var utcOffset: Int
    var colors: ((Double, Double, Double), (Double, Double, Double))

    static let all = [
        Trip(
            name: "Paris", start: "2019-05-01", days: 8, latitude: 48.8566, longitude: 2.3522, utcOffset: 7200,
            colors: ((30, 40, 90), (220, 180, 160))),
        Trip(
            name: "Kyoto", start: "2020-10-10", days: 6, latitude: 35.0116, longitude: 135.7681, utcOffset: 32400,
            colors: ((120, 20, 30), (250, 200, 120))),
        Trip(
            name: "New York", start: "2021-12-18", days: 5, latitude: 40.7128, longitude: -74.0060, utcOffset: -18000,
            colors: ((20, 20, 30), (200, 200, 230))),
        Trip(
            name: "Cape Town", start: "2022-02-05", days: 9, latitude: -33.9249, longitude: 18.4241, utcOffset: 7200,
            colors: ((10, 80, 140), (250, 220, 150))),
        Trip(
            name: "Reykjavik", start: "2023-08-12", days: 7, latitude: 64.1466, longitude: -21.9426, utcOffset: 0,
            colors: ((40, 90, 80), (200, 230, 240))),
        Trip(
            name: "Lisbon", start: "2024-04-20", days: 6, latitude: 38.7223, longitude: -9.1393, utcOffset: 3600,
            colors: ((200, 120, 40), (250, 240, 210))),
    ]
    static let home = Trip(
        name: "Home", start: "2019-01-05", days: 2000, latitude: nil, longitude: nil, utcOffset: 3600,
        colors: ((60, 60, 60), (200, 190, 180)))

    var startDate: Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: start)!
    }

    /// Two thirds of the photos on trips, a third at home, deterministically.
    static func schedule(count: Int) -> [Shot] {
        var shots: [Shot] = []
        let perTrip = count * 2 / 3 / all.count
        for trip in all {
            for index in 0..<perTrip {
                let day = Double(index * trip.days / max(1, perTrip))
                let minutes = Double((index * 37) % 600)
                let date = trip.startDate.addingTimeInterval(day * 86_400 + 9 * 3600 + minutes * 60)
                let jitter = Double(index % 9) * 0.002
                shots.append(
                    Shot(
                        trip: trip, date: date, latitude: trip.latitude.map { $0 + jitter },
                        longitude: trip.longitude.map { $0 - jitter }, portrait: index % 5 == 0))
            }
        }
        let homeCount = count - shots.count
        for index in 0..<homeCount {
            let date = home.startDate.addingTimeInterval(Double(index * home.days / max(1, homeCount)) * 86_400 + 18 * 3600)
            shots.append(Shot(trip: home, date: date, latitude: nil, longitude: nil, portrait: index % 3 == 0))
        }
        return shots
    }
}

/// Prints the tour of the library.
struct Tour {
    let library: PHPhotoLibrary
    private let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }()

    init(library: PHPhotoLibrary) {
        self.library = library
    }

    func title(_ text: String) {
        Output.line(text)
        Output.line(String(repeating: "=", count: text.count))
    }

    func section(_ text: String) {
        Output.line("")
        Output.line(text)
    }

    func date(_ date: Date?) -> String {
        date.map { formatter.string(from: $0) + " UTC" } ?? "no date"
    }

    /// Favourites (four stars; the best of them five), a hidden photo, a
    /// keyword per trip, albums per trip in a folder, a "Best of" album.
    mutating func organise(identifiers: [String], shots: [Shot]) throws {
        section("3. Organise: favorites, ratings, keywords, hidden photos, an album per trip in a \"Trips\" folder, a \"Best of\" album")
        try library.withCurrentLibrary {
            let assets = PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: nil)
            try library.performChangesAndWait {
                assets.enumerateObjects { asset, index, _ in
                    let request = PHAssetChangeRequest(for: asset)
                    if index % 7 == 3 {
                        request.isFavorite = true
                        request.rating = index % 21 == 3 ? .five : .four
                    }
                    if index % 97 == 50 { request.isHidden = true }
                    if index < shots.count { request.addKeyword(shots[index].trip.name) }
                }
                let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trips")
                var albums: [PHObjectPlaceholder] = []
                for trip in Trip.all {
                    let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(
                        withTitle: "\(trip.name) \(trip.start.prefix(4))")
                    let members = shots.indices.filter { shots[$0].trip.name == trip.name }.map { assets[$0] }
                    album.addAssets(members as NSArray)
                    albums.append(album.placeholderForCreatedAssetCollection)
                }
                folder.addChildCollections(albums as NSArray)
                let best = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best of")
                best.addAssets(stride(from: 3, to: assets.count, by: 21).map { assets[$0] } as NSArray)
            }
        }
        Output.line("   one change block: favorites rated 4 and 5 stars, a keyword per trip, hidden, 6 albums, a folder holding them, and \"Best of\"")
    }

    func showFetches() throws {
        section("4. Fetches")
        let all = PHAsset.fetchAssets(with: nil)
        Output.line("   PHAsset.fetchAssets(with: nil)                    \(all.count) assets (hidden ones left out)")
        Output.line("   countOfAssets(with: .image) / (with: .video)      \(all.countOfAssets(with: .image)) / \(all.countOfAssets(with: .video))")
        var years: [String] = []
        for year in 2019...2024 {
            let options = PHFetchOptions()
            var start = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"), year: year)
            let from = start.date!
            start.year = year + 1
            options.predicate = NSPredicate(format: "creationDate >= %@ AND creationDate < %@", from as any CVarArg, start.date! as any CVarArg)
            years.append("\(year): \(PHAsset.fetchAssets(with: options).count)")
        }
        Output.line("   per year (creationDate >= %@ AND creationDate < %@)")
        Output.line("     " + years.joined(separator: "   "))

        let options = PHFetchOptions()
        let since = ISO8601DateFormatter().date(from: "2022-01-01T00:00:00Z")!
        options.predicate = NSPredicate(
            format: "mediaType == %d AND creationDate > %@ AND favorite == YES",
            PHAssetMediaType.image.rawValue, since as any CVarArg)
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
        options.fetchLimit = 5
        let recent = PHAsset.fetchAssets(with: options)
        Output.line("   favorites since 2022, newest first, limit 5:")
        recent.enumerateObjects { asset, _, _ in
            let place = asset.location.map { String(format: "%8.4f, %9.4f", $0.coordinate.latitude, $0.coordinate.longitude) } ?? "no location"
            Output.line("     \(date(asset.creationDate))  \(asset.pixelWidth)x\(asset.pixelHeight)  \(place)  \(asset.localIdentifier)")
        }
        let rated = PHFetchOptions()
        rated.predicate = NSPredicate(format: "rating >= %d AND ANY keywords == %@", PHAsset.Rating.four.rawValue, "Kyoto")
        rated.prefetchAssetExtendedMetadata = true
        let kyoto = PHAsset.fetchAssets(with: rated)
        Output.line("   rating >= 4 AND ANY keywords == 'Kyoto': \(kyoto.count), keywords \(kyoto.firstObject?.extendedMetadata.keywords ?? [])")
        let portraits = PHFetchOptions()
        portraits.predicate = NSPredicate(format: "pixelHeight > pixelWidth")
        Output.line("   portrait photos (EXIF orientation applied): \(PHAsset.fetchAssets(with: portraits).count)")
    }

    func showAlbums() {
        section("5. Albums and folders (PHCollection.fetchTopLevelUserCollections)")
        func show(_ collections: PHFetchResult<PHCollection>, depth: Int) {
            collections.enumerateObjects { collection, _, _ in
                let indent = String(repeating: "  ", count: depth + 1)
                if let list = collection as? PHCollectionList {
                    Output.line("\(indent)\(list.localizedTitle ?? "")/")
                    show(PHCollection.fetchCollections(in: list, options: nil), depth: depth + 1)
                } else if let album = collection as? PHAssetCollection {
                    let range = "\(date(album.startDate).prefix(10)) to \(date(album.endDate).prefix(10))"
                    Output.line("\(indent)\(album.localizedTitle ?? ""): \(album.estimatedAssetCount) photos, \(range)")
                }
            }
        }
        show(PHCollection.fetchTopLevelUserCollections(with: nil), depth: 0)
    }

    func showSmartAlbums() {
        section("6. Smart albums, computed from the assets (never stored as membership)")
        let albums = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil)
        var lines: [String] = []
        albums.enumerateObjects { album, _, _ in
            let count = PHAsset.fetchAssets(in: album, options: nil).count
            if count > 0 || [.smartAlbumFavorites, .smartAlbumAllHidden].contains(album.assetCollectionSubtype) {
                lines.append("\(album.localizedTitle ?? "?") \(count)")
            }
        }
        Output.line("   " + lines.joined(separator: " · "))
    }

    func showMoments() {
        section("7. Moments: photos grouped by time and place")
        let moments = PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: nil)
        let years = PHCollectionList.fetchCollectionLists(with: .momentList, subtype: .momentListYear, options: nil)
        let largest = PHFetchOptions()
        largest.sortDescriptors = [NSSortDescriptor(key: "estimatedAssetCount", ascending: false)]
        largest.fetchLimit = 3
        Output.line("   \(moments.count) moments in \(years.count) years; the three largest:")
        PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: largest).enumerateObjects { moment, _, _ in
            let place =
                moment.localizedTitle
                ?? moment.approximateLocation.map { String(format: "around %.3f, %.3f", $0.coordinate.latitude, $0.coordinate.longitude) }
                ?? "no location"
            Output.line("     \(date(moment.startDate)) to \(date(moment.endDate).suffix(9)): \(moment.estimatedAssetCount) photos, \(place)")
        }
    }

    func showSearch(receiptIn folder: URL) throws {
        section("12. Search: the indexer names places offline, reads words and the text in photos, then searches find them")
        let receipt = try Receipt.write(to: folder)
        try library.performChangesAndWait { _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: receipt) }
        Output.line("   imported a photo of a receipt, drawn by libvips")
        let run = try LibraryIndexer(library: library).catchUp()
        Output.line(
            "   wrote \(run.indexed) entries: each photo's place and words, the text in it, a hash of its look and its faces; it follows the library's history from here on"
        )
        for (kind, reason) in run.unavailable { Output.line("   \(kind.rawValue) was not indexed: \(reason)") }
        for place in try library.places().prefix(4) {
            Output.line("     \(place.city), \(place.country): \(place.assetCount) photos")
        }
        for search in ["kyoto", "place:paris favorite", "2021 december", "plumber"] {
            let found = try PHAsset.fetchAssets(matchingSearch: search, options: nil)
            Output.line("   photos search \(search): \(found.count) found")
        }
    }

    func showPeople(copyingInto folder: URL) throws {
        section("13. People: the indexer finds faces (dlib, offline) and groups them into people; a name is searchable")
        let johns = URL(fileURLWithPath: "/usr/share/doc/libdlib19.1/examples/johns")
        let people = ["John_Salley", "John_Simm"]
        var photos: [(person: String, url: URL)] = []
        for person in people {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: johns.appendingPathComponent(person).path)) ?? []
            for file in files.filter({ $0.hasSuffix(".jpg") }).sorted().prefix(4) {
                let copy = folder.appendingPathComponent("\(person)-\(file)")
                try? FileManager.default.removeItem(at: copy)
                try FileManager.default.copyItem(at: johns.appendingPathComponent(person).appendingPathComponent(file), to: copy)
                photos.append((person, copy))
            }
        }
        guard !photos.isEmpty else {
            Output.line("   skipped: dlib's sample faces (Debian's libdlib19.1) are not installed")
            return
        }
        var salley: Set<String> = []
        try library.performChangesAndWait {
            for photo in photos {
                let created = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo.url)
                if photo.person == "John_Salley", let id = created?.placeholderForCreatedAsset?.localIdentifier { salley.insert(id) }
            }
        }
        Output.line("   imported \(photos.count) photos of two people, from dlib's examples")
        let run = try LibraryIndexer(library: library, kinds: [.faces]).catchUp()
        for (kind, reason) in run.unavailable { Output.line("   \(kind.rawValue) was not indexed: \(reason)") }
        let found = try library.people()
        for person in found {
            Output.line("     a person in \(person.assetCount) photos (\(person.faceCount) faces), \(person.localIdentifier)")
        }
        guard let person = found.first(where: { salley.contains($0.keyFace.assetLocalIdentifier) }) else { return }
        try library.setName("John Salley", ofPersonWithLocalIdentifier: person.localIdentifier)
        Output.line(
            "   named one \"John Salley\"; photos search person:salley: \(try PHAsset.fetchAssets(matchingSearch: "person:salley", options: nil).count) found")
    }

    func showRecentlyDeleted() throws {
        section("8. Recently Deleted: delete three photos, restore one, empty the rest")
        let library = self.library
        let all = PHAsset.fetchAssets(with: nil)
        let doomed = [all[0], all[1], all[2]]
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(doomed as NSArray) }
        let trash = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumRecentlyDeleted, options: nil)[0]
        Output.line(
            "   after deleteAssets: \(PHAsset.fetchAssets(with: nil).count) assets, \(PHAsset.fetchAssets(in: trash, options: nil).count) in Recently Deleted")
        try library.performChangesAndWait { PHAssetChangeRequest.restoreDeletedAssets([doomed[0]] as NSArray) }
        Output.line("   after restoring one: \(PHAsset.fetchAssets(with: nil).count) assets")
        let purged = try library.emptyRecentlyDeleted()
        Output.line("   emptyRecentlyDeleted() removed \(purged) assets and their files")
    }

    func showHistory(since token: PHPersistentChangeToken) throws {
        section("9. Persistent change history since the import, as an app would read it at its next launch")
        let archived = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        Output.line("   the token, archived with NSKeyedArchiver: \(archived.count) bytes")
        for (number, change) in try library.fetchPersistentChanges(since: token).enumerated() {
            let parts = try [(PHObjectType.asset, "assets"), (.assetCollection, "albums"), (.collectionList, "folders")].compactMap { type, noun in
                let details = try change.changeDetails(for: type)
                let counts = [("+", details.insertedLocalIdentifiers), ("~", details.updatedLocalIdentifiers), ("-", details.deletedLocalIdentifiers)]
                    .filter { !$0.1.isEmpty }.map { "\($0.0)\($0.1.count)" }
                return counts.isEmpty ? nil : "\(noun) " + counts.joined(separator: " ")
            }
            Output.line("   change \(number + 1): \(parts.joined(separator: ", "))")
        }
    }

    func showLimitedClient() throws {
        section("10. A client with limited access: the owner grants it five photos")
        let client = "org.example.hiking"
        let chosen = PHAsset.fetchAssets(with: nil).objects(at: IndexSet(integersIn: 0..<5)).map(\.localIdentifier)
        try library.setAccess(.limited, forClient: client)
        try library.addToLimitedSelection(chosen, ofClient: client)
        let limited = try PHPhotoLibrary(url: library.url, clientIdentifier: client)
        limited.withCurrentLibrary {
            let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
            Output.line("   authorizationStatus(for: .readWrite) = .limited: \(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .limited)")
            Output.line(
                "   it sees \(PHAsset.fetchAssets(with: nil).count) assets and \(albums.count) of the albums; the owner sees "
                    + "\(library.withCurrentLibrary { PHAsset.fetchAssets(with: nil).count }) assets")
        }
        let before = limited.currentChangeToken
        try library.performChangesAndWait {
            for asset in PHAsset.fetchAssets(with: nil).objects(at: IndexSet(integersIn: 3..<8)) {
                PHAssetChangeRequest(for: asset).isFavorite.toggle()
            }
        }
        let seen = try limited.fetchPersistentChanges(since: before).reduce(0) { $0 + (try $1.changeDetails(for: .asset).updatedLocalIdentifiers.count) }
        Output.line("   the owner edits five photos, two of them chosen: the client's history shows \(seen) updated")
    }

    func showImages() throws {
        section("11. Images: a grid's thumbnails through PHCachingImageManager, then an edit and its revert")
        let manager = PHCachingImageManager()
        let assets = PHAsset.fetchAssets(with: nil).objects(at: IndexSet(integersIn: 0..<40))
        let cell = CGSize(width: 256, height: 256)
        let started = Date()
        let delivered = DispatchGroup()
        for asset in assets {
            delivered.enter()
            let options = PHImageRequestOptions()
            options.deliveryMode = .highQualityFormat
            manager.requestImage(for: asset, targetSize: cell, contentMode: .aspectFill, options: options) { _, _ in delivered.leave() }
        }
        delivered.wait()
        Output.line(String(format: "   40 cell images from the thumbnails made at import: %.0f ms in all", Date().timeIntervalSince(started) * 1000))

        let photo = assets[0]
        let exact = PHImageRequestOptions()
        exact.isSynchronous = true
        exact.resizeMode = .exact
        manager.requestImage(for: photo, targetSize: cell, contentMode: .aspectFill, options: exact) { image, info in
            let degraded = info?[PHImageResultIsDegradedKey] as? Bool ?? false
            Output.line(
                "   an exact 256 x 256 fill of a \(photo.pixelWidth) x \(photo.pixelHeight) photo: \(image.map { "\(Int($0.size.width)) x \(Int($0.size.height))" } ?? "none"), degraded: \(degraded)"
            )
        }

        let input = try contentEditingInput(of: photo)
        let output = PHContentEditingOutput(contentEditingInput: input)
        output.adjustmentData = PHAdjustmentData(formatIdentifier: "org.openphotokit.demo", formatVersion: "1", data: Data("grey".utf8))
        guard let image = input.displaySizeImage, let jpeg = image.jpegData(compressionQuality: 0.9) else { return }
        try jpeg.write(to: output.renderedContentURL)
        try library.performChangesAndWait { PHAssetChangeRequest(for: photo).contentEditingOutput = output }
        let edited = PHAsset.fetchAssets(withLocalIdentifiers: [photo.localIdentifier], options: nil)[0]
        Output.line(
            "   after an edit: hasAdjustments \(edited.hasAdjustments), \(edited.pixelWidth) x \(edited.pixelHeight), by \(edited.adjustmentFormatIdentifier ?? "-")"
        )
        try library.performChangesAndWait { PHAssetChangeRequest(for: edited).revertAssetContentToOriginal() }
        let reverted = PHAsset.fetchAssets(withLocalIdentifiers: [photo.localIdentifier], options: nil)[0]
        Output.line("   after revertAssetContentToOriginal(): hasAdjustments \(reverted.hasAdjustments), the original kept")
    }

    private func contentEditingInput(of asset: PHAsset) throws -> PHContentEditingInput {
        let ready = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var input: PHContentEditingInput?
        asset.requestContentEditingInput(with: nil) { received, _ in
            input = received
            ready.signal()
        }
        ready.wait()
        guard let input else { throw CLIError.library(PHPhotosError(.invalidResource)) }
        return input
    }
}

/// A receipt, as a photo of one would read, drawn by libvips' `vips text`
/// (libvips-tools): what the demo's text search finds.
enum Receipt {
    static let lines = ["Receipt from the plumber", "Kitchen tap repaired", "Total 142 EUR paid by card"]

    static func write(to folder: URL) throws -> URL {
        let work = folder.appendingPathComponent("receipt")
        let url = folder.appendingPathComponent("receipt.jpg")
        defer {
            for suffix in ["-mask.v", "-ink.v"] { try? FileManager.default.removeItem(atPath: work.path + suffix) }
        }
        try vips(["text", work.path + "-mask.v", lines.joined(separator: "\n"), "--font", "DejaVu Sans 30", "--dpi", "72"])
        try vips(["invert", work.path + "-mask.v", work.path + "-ink.v"])
        try vips(["embed", work.path + "-ink.v", url.path + "[Q=90]", "60", "60", "640", "480", "--extend", "white"])
        return url
    }

    private static func vips(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/vips")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ValidationError("the demo draws its receipt with the vips tool, from Debian's libvips-tools: \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ValidationError("vips \(arguments[0]) failed drawing the demo's receipt") }
    }
}
