import Foundation
import Testing
import Photos

// The seeds' Swift snippets, as written, run against a temporary library.
// Only what the seeds leave undefined (their app's properties) is declared
// here. Seed 000's observation snippets run in ChangeObservationTests.

/// The identifiers of a fetch result, through the public API only.
private func identifiers(of result: PHFetchResult<PHAsset>) -> [String] {
    var identifiers: [String] = []
    result.enumerateObjects { asset, _, _ in identifiers.append(asset.localIdentifier) }
    return identifiers
}

@Suite struct SeedSnippetTests {
    let test: TestLibrary
    let lastLaunchDate = Date(timeIntervalSince1970: 1_600_000_000)

    init() throws {
        test = try TestLibrary()
        let old = try test.jpeg(taken: lastLaunchDate.addingTimeInterval(-86_400))
        let new = try test.jpeg(taken: lastLaunchDate.addingTimeInterval(3_600))
        try test.importImages([old, new])
    }

    /// Seeds 001 and 004, "Tracking photo library changes".
    @Test func discoverAddedAssets() throws {
        test.library.withCurrentLibrary {
            // Discover added assets
            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: "creationDate > %@", lastLaunchDate as CVarArg)
            let insertedAssets = PHAsset.fetchAssets(with: options)
            #expect(insertedAssets.count == 1)
        }
    }

    /// Seeds 001 and 004, "Tracking photo library changes (2)".
    @Test func discoverModifiedAndDeletedAssets() throws {
        let localIdentifiers = identifiers(of: test.fetch { PHAsset.fetchAssets(with: nil) })
        var modified = 0
        var missing = 0
        test.library.withCurrentLibrary {
            let fetchResult = PHAsset.fetchAssets(with: localIdentifiers, options: nil)
            // Discover all modified and deleted assets
            fetchResult.enumerateObjects { asset, idx, stop in
                if asset.modificationDate?.compare(lastLaunchDate) == .orderedDescending {
                    // Asset could have been modified
                    modified += 1
                }
                if !localIdentifiers.contains(asset.localIdentifier) {
                    // Asset could have been deleted
                    missing += 1
                }
            }
        }
        #expect(modified == 2 && missing == 0)
    }

    /// Seeds 001 and 004, "Using inserted identifiers" and "Using updated identifiers".
    @Test func useChangedIdentifiers() throws {
        struct Hike { var startDate: Date; var endDate: Date }
        let hikes = [Hike(startDate: lastLaunchDate, endDate: lastLaunchDate.addingTimeInterval(7_200))]
        let insertedIdentifiers = Set(identifiers(of: test.fetch { PHAsset.fetchAssets(with: nil) }))
        let updatedIdentifiers = insertedIdentifiers
        var hikesWithNewAssets = 0
        var edited = 0
        test.library.withCurrentLibrary {
            let insertedAssets = PHAsset.fetchAssets(with: insertedIdentifiers, options: nil)
            insertedAssets.enumerateObjects { asset, idx, stop in
                for hike in hikes {
                    let dateInterval = NSDateInterval(start: hike.startDate, end: hike.endDate)
                    if dateInterval.contains(asset.creationDate) {
                        // This hike contains a new added asset
                        hikesWithNewAssets += 1
                    }
                }
            }
            let updatedAssets = PHAsset.fetchAssets(with: updatedIdentifiers, options: nil)
            updatedAssets.enumerateObjects { asset, idx, stop in
                if asset.hasAdjustments {
                    // This asset has edits
                    edited += 1
                }
            }
        }
        #expect(hikesWithNewAssets == 1 && edited == 0)
    }

    /// Seeds 001 and 004, "Fetching persistent changes using persistent change
    /// token", "Identifying important changes" and "Handling errors".
    ///
    /// One line departs from the seeds: they write
    /// `if let changeDetails = persistentChange.changeDetails(for: PHObjectType.asset)`,
    /// which compiles against no SDK, Apple's included, because
    /// `changeDetails(for:)` throws and returns a non-optional value; `try?`
    /// is the smallest change that makes it Swift.
    @Test func trackPersistentChanges() throws {
        final class HikingApp {
            var lastStoredToken: PHPersistentChangeToken
            init(token: PHPersistentChangeToken) { lastStoredToken = token }
        }
        let app = HikingApp(token: test.library.currentChangeToken)
        let added = try test.importDays(1)
        var inserted: Set<String> = []
        try test.library.withCurrentLibrary {
            let persistentChanges = try! PHPhotoLibrary.shared().fetchPersistentChanges(since: app.lastStoredToken)
            var lastPersistentChange: PHPersistentChange?
            for persistentChange in persistentChanges {
                if let changeDetails = try? persistentChange.changeDetails(for: PHObjectType.asset) {
                    let updatedIdentifiers = changeDetails.updatedLocalIdentifiers
                    let deletedIdentifiers = changeDetails.deletedLocalIdentifiers
                    let insertedIdentifiers = changeDetails.insertedLocalIdentifiers
                    #expect(updatedIdentifiers.isEmpty && deletedIdentifiers.isEmpty)
                    inserted.formUnion(insertedIdentifiers)
                }
                lastPersistentChange = persistentChange
            }
            // After processing change details
            app.lastStoredToken = try #require(lastPersistentChange).changeToken

            let library = PHPhotoLibrary.shared()
            // Get last stored change token
            let changeToken = app.lastStoredToken
            // Fetch persistent changes
            let nothingNew = try! library.fetchPersistentChanges(since: changeToken)
            for persistentChange in nothingNew {
                // Grab change details and process updates
                Issue.record("nothing changed since the stored token, yet \(persistentChange)")
            }
        }
        #expect(inserted == Set(added))
    }

    /// Seed 001's error handling: an expired token is caught and the tracked
    /// objects refetched.
    @Test func handleHistoryErrors() throws {
        let library = test.library
        let changeToken = library.currentChangeToken
        let trackedIdentifiers = try test.importDays(1)
        try library.purgePersistentChanges(before: Date().addingTimeInterval(60))
        try test.importDays(1)
        let options = PHFetchOptions()
        var refetched = 0
        library.withCurrentLibrary {
            do {
                let persistentChanges = try library.fetchPersistentChanges(since: changeToken)
                Issue.record("the token should have expired, yet \(persistentChanges.underestimatedCount) changes came")
            } catch PHPhotosError.persistentChangeTokenExpired,
                    PHPhotosError.persistentChangeDetailsUnavailable {
                let fetchResult = PHAsset.fetchAssets(with: trackedIdentifiers, options: options)
                // Use fetch result
                refetched = fetchResult.count
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        #expect(refetched == 1)
    }

    /// Seed 002, section 2: fetch options, smart albums, user collections.
    @Test func fetchModelData() throws {
        test.library.withCurrentLibrary {
            let allPhotosOptions = PHFetchOptions()
            allPhotosOptions.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
            let allPhotos = PHAsset.fetchAssets(with: allPhotosOptions)
            let smartAlbums = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .albumRegular, options: nil)
            let topLevelUserCollections = PHCollectionList.fetchTopLevelUserCollections(with: nil)
            #expect(allPhotos.count == 2 && smartAlbums.count == 0 && topLevelUserCollections.count == 0)

            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: "mediaType = %d", PHAssetMediaType.image.rawValue)
            options.wantsIncrementalChangeDetails = true
            options.includeAllBurstAssets = true
            options.includeHiddenAssets = true
            options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
            #expect(PHAsset.fetchAssets(with: options).count == 2)
            let albums = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumAllHidden, options: nil)
            let collection: PHCollection = albums[0]
            #expect(collection.localizedTitle == "Hidden")
        }
    }

    /// Seed 002, section 3: toggle a favorite, and create an asset in an album.
    @Test func changeAssetsAndAlbums() throws {
        let asset = test.fetch { PHAsset.fetchAssets(with: nil) }[0]
        func toggleFavorite(for asset: PHAsset) throws {
            try test.library.performChangesAndWait {
                let request = PHAssetChangeRequest(for: asset)
                request.isFavorite = !asset.isFavorite
            }
        }
        try toggleFavorite(for: asset)
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil) }[0].isFavorite)

        try test.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Album")
        }
        let assetCollection = test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }[0]
        let image = UIImage(data: try Data(contentsOf: try test.jpeg()))!
        try test.library.performChangesAndWait {
            let assetChangeRequest = PHAssetChangeRequest.creationRequestForAsset(from: image)
            let assetCollectionChangeRequest = PHAssetCollectionChangeRequest(for: assetCollection)
            assetCollectionChangeRequest?.addAssets([assetChangeRequest.placeholderForCreatedAsset!] as NSArray)
        }
        #expect(PHAsset.fetchAssets(in: assetCollection, options: nil).count == 1)
    }

    /// Seed 003, Listing 1: create an asset and add it to an album.
    @Test func addAssetToAnAlbum() async throws {
        try test.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Listing 1")
        }
        let album = test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }[0]
        let image = UIImage(data: try Data(contentsOf: try test.jpeg()))!
        let library = test.library
        let done: Bool = await withCheckedContinuation { continuation in
            func addAsset(image: UIImage, to album: PHAssetCollection) {
                library.performChanges({
                    // Request creating an asset from the image.
                    let creationRequest = PHAssetChangeRequest.creationRequestForAsset(from: image)
                    // Request editing the album.
                    guard let addAssetRequest = PHAssetCollectionChangeRequest(for: album)
                        else { return }
                    // Get a placeholder for the new asset and add it to the album editing request.
                    addAssetRequest.addAssets([creationRequest.placeholderForCreatedAsset!] as NSArray)
                }, completionHandler: { success, error in
                    if !success { NSLog("error creating asset: \(String(describing: error))") }
                    continuation.resume(returning: success)
                })
            }
            addAsset(image: image, to: album)
        }
        #expect(done)
        #expect(PHAsset.fetchAssets(in: album, options: nil).count == 1)
        try test.library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest(for: album)
            request?.addAssets([PHAsset.fetchAssets(in: album, options: nil)[0]] as NSFastEnumeration)
        }
    }
}
