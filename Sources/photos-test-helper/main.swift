// Drives a library from a separate process, for the tests of concurrent
// processes. Usage:
//   photos-test-helper albums LIBRARY COUNT PREFIX       one change block per album
//   photos-test-helper assets LIBRARY COUNT IMAGE        one change block per asset
//   photos-test-helper count LIBRARY                     prints the numbers of albums and assets
//   photos-test-helper observe LIBRARY TOTAL             prints "ready", then a line per change
//                                                        received, until the library shows TOTAL
//                                                        assets and albums in all
//   photos-test-helper hike LIBRARY TOKEN                one launch of seed 001's hiking app: reads
//                                                        the archived token (a first launch stores
//                                                        the current one), prints the asset changes
//                                                        since as JSON, stores the last change's token
//   photos-test-helper crash-writer LIBRARY IMAGES N  commits change blocks until killed: block i
//                                                        creates N assets from the JPEGs in IMAGES and
//                                                        the album "block-i" holding them; every third
//                                                        block also deletes the assets of block i-1 and
//                                                        renames its album "emptied-(i-1)". Prints
//                                                        "committed i" after each block.
//   photos-test-helper observe-history LIBRARY TOTAL   observes as "observe" does while reading the
//                                                        history from the state at start, again and
//                                                        again, until it lists TOTAL change blocks;
//                                                        then prints "history COUNT in order|out of order"
//   photos-test-helper index LIBRARY BATCH               indexes the library for search, BATCH assets a
//                                                        transaction, printing "batch" before each and
//                                                        "done" at the end
// PHOTOS_CLIENT_ID, when set, makes the helper a client of the library.
import Foundation
import Photos
import PhotosIndexing

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("photos-test-helper: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: albums|assets|count LIBRARY ...") }
let library: PHPhotoLibrary
do {
    library = try PHPhotoLibrary(url: PHPhotoLibrary.libraryURL(arguments[2]))
} catch {
    fail("cannot open \(arguments[2]): \(error.localizedDescription)")
}

switch arguments[1] {
case "albums" where arguments.count == 5:
    guard let count = Int(arguments[3]) else { fail("COUNT must be a number") }
    for index in 0..<count {
        do {
            try library.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "\(arguments[4])-\(index)")
            }
        } catch {
            fail("change block \(index) failed: \(error.localizedDescription)")
        }
    }
case "assets" where arguments.count == 5:
    guard let count = Int(arguments[3]) else { fail("COUNT must be a number") }
    let image = URL(fileURLWithPath: arguments[4])
    for index in 0..<count {
        do {
            try library.performChangesAndWait {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: image)
            }
        } catch {
            fail("change block \(index) failed: \(error.localizedDescription)")
        }
    }
case "observe" where arguments.count == 4:
    guard let total = Int(arguments[3]) else { fail("TOTAL must be a number") }
    let observer = LineObserver(library: library)
    library.register(observer)
    say("ready")
    guard observer.wait(untilShowing: total, seconds: 30) else { fail("the library never showed \(total) objects") }
case "observe-history" where arguments.count == 4:
    guard let total = Int(arguments[3]) else { fail("TOTAL must be a number") }
    let start = library.currentChangeToken
    let observer = LineObserver(library: library)
    library.register(observer)
    say("ready")
    let deadline = Date().addingTimeInterval(300)
    var tokens: [PHPersistentChangeToken] = []
    while tokens.count < total && Date() < deadline {
        do {
            tokens = try library.fetchPersistentChanges(since: start).map(\.changeToken)
        } catch {
            fail("reading history failed: \(error.localizedDescription)")
        }
        if tokens.count < total { Thread.sleep(forTimeInterval: 0.05) }
    }
    guard observer.wait(untilShowing: total, seconds: 60) else { fail("the library never showed \(total) objects") }
    // A fetch result can show everything before the last notices arrive:
    // details bring it up to the library as it is when asked.
    observer.waitUntilQuiet(seconds: 5)  // longer than the 2-second safety poll for other processes' commits
    say("history \(tokens.count) \(zip(tokens, tokens.dropFirst()).allSatisfy { $0 < $1 } ? "in order" : "out of order")")
case "hike" where arguments.count == 4:
    HikingApp(library: library, tokenFile: URL(fileURLWithPath: arguments[3])).launch()
case "index" where arguments.count == 4:
    guard let batch = Int(arguments[3]) else { fail("BATCH must be a number") }
    do {
        try LibraryIndexer(library: library, holder: nil, now: Date.init, batchLimit: batch).catchUp {
            print("batch")
            fflush(nil)
            return false
        }
        print("done")
    } catch {
        fail("indexing failed: \(error.localizedDescription)")
    }
case "crash-writer" where arguments.count == 5:
    guard let perBlock = Int(arguments[4]) else { fail("N must be a number") }
    let images = ((try? FileManager.default.contentsOfDirectory(atPath: arguments[3])) ?? []).sorted()
        .map { URL(fileURLWithPath: arguments[3]).appendingPathComponent($0) }
    guard !images.isEmpty else { fail("no images in \(arguments[3])") }
    var block = library.withCurrentLibrary { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count }
    while true {
        let previous = library.withCurrentLibrary { () -> (PHAssetCollection, [PHAsset])? in
            guard block % 3 == 2 else { return nil }
            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: "title == %@", "block-\(block - 1)")
            guard let album = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options).firstObject else { return nil }
            let members = PHAsset.fetchAssets(in: album, options: nil)
            return (album, members.objects(at: IndexSet(integersIn: 0..<members.count)))
        }
        do {
            try library.performChangesAndWait {
                let placeholders = (0..<perBlock).map { index in
                    PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: images[(block * perBlock + index) % images.count])!
                        .placeholderForCreatedAsset!
                }
                let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "block-\(block)")
                album.addAssets(placeholders as NSArray)
                if let (emptied, members) = previous {
                    PHAssetChangeRequest.deleteAssets(members as NSArray)
                    PHAssetCollectionChangeRequest(for: emptied)?.title = "emptied-\(block - 1)"
                }
            }
        } catch {
            fail("change block \(block) failed: \(error.localizedDescription)")
        }
        say("committed \(block)")
        block += 1
    }
case "count":
    library.withCurrentLibrary {
        let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count
        print(albums, PHAsset.fetchAssets(with: nil).count)
    }
default:
    fail("unknown command \(arguments[1])")
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Prints each change it receives: the change blocks it covers, when it
/// arrived (uptime in nanoseconds, comparable across processes), and what it
/// did to all assets and to the albums.
final class LineObserver: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
    private var assets: PHFetchResult<PHAsset>
    private var albums: PHFetchResult<PHAssetCollection>
    private let arrived = DispatchSemaphore(value: 0)

    init(library: PHPhotoLibrary) {
        (assets, albums) = library.withCurrentLibrary {
            (PHAsset.fetchAssets(with: nil), PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil))
        }
    }

    func photoLibraryDidChange(_ change: PHChange) {
        var line = "\(change) at \(DispatchTime.now().uptimeNanoseconds)"
        if let details = change.changeDetails(for: assets) {
            line += " assets +\(details.insertedIndexes?.count ?? -1) -\(details.removedIndexes?.count ?? -1) ~\(details.changedIndexes?.count ?? -1)"
            assets = details.fetchResultAfterChanges
        }
        if let details = change.changeDetails(for: albums) {
            line += " albums +\(details.insertedIndexes?.count ?? -1) -\(details.removedIndexes?.count ?? -1)"
            albums = details.fetchResultAfterChanges
        }
        say(line)
        arrived.signal()
    }

    /// Waits until no change has arrived for `seconds`.
    func waitUntilQuiet(seconds: Double) {
        while arrived.wait(timeout: .now() + seconds) == .success {}
    }

    /// Waits until the fetch results it follows show `total` objects.
    func wait(untilShowing total: Int, seconds: Double) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while assets.count + albums.count < total {
            guard arrived.wait(timeout: deadline) == .success else { return false }
        }
        return true
    }
}

/// Seed 001's hiking app, one launch at a time: what changed since the
/// stored token, processed, then the last change's token stored.
struct HikingApp {
    let library: PHPhotoLibrary
    let tokenFile: URL

    struct Report: Encodable {
        /// "bootstrapped", "changes", or "refetch" after an expired token or unavailable details.
        var outcome: String
        var changes: [[String: [String]]] = []
        var error: String?
    }

    func launch() {
        guard let data = try? Data(contentsOf: tokenFile) else {
            store(library.currentChangeToken)
            report(Report(outcome: "bootstrapped"))
            return
        }
        do {
            guard let lastStoredToken = try NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: data) else {
                fail("the token file holds no token")
            }
            var result = Report(outcome: "changes")
            var lastPersistentChange: PHPersistentChange?
            let persistentChanges = try library.fetchPersistentChanges(since: lastStoredToken)
            for persistentChange in persistentChanges {
                let changeDetails = try persistentChange.changeDetails(for: PHObjectType.asset)
                result.changes.append([
                    "inserted": changeDetails.insertedLocalIdentifiers.sorted(),
                    "updated": changeDetails.updatedLocalIdentifiers.sorted(),
                    "deleted": changeDetails.deletedLocalIdentifiers.sorted(),
                ])
                lastPersistentChange = persistentChange
            }
            // Processing: the inserted assets are fetched in one request, as the seed advises.
            let inserted = result.changes.flatMap { $0["inserted"] ?? [] }
            _ = library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: inserted, options: nil).count }
            if let lastPersistentChange {
                store(lastPersistentChange.changeToken)
            }
            report(result)
        } catch PHPhotosError.persistentChangeTokenExpired, PHPhotosError.persistentChangeDetailsUnavailable {
            store(library.currentChangeToken)
            report(Report(outcome: "refetch"))
        } catch {
            report(Report(outcome: "error", error: "\((error as NSError).domain) \((error as NSError).code): \(error.localizedDescription)"))
        }
    }

    private func store(_ token: PHPersistentChangeToken) {
        do {
            let data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
            try data.write(to: tokenFile, options: .atomic)
        } catch {
            fail("cannot store the token: \(error.localizedDescription)")
        }
    }

    private func report(_ report: Report) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        say(String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self))
    }
}
