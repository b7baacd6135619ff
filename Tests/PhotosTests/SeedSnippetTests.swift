import Foundation
import Photos
import Testing

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
            options.predicate = NSPredicate(format: "creationDate > %@", lastLaunchDate as any CVarArg)
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
        struct Hike {
            var startDate: Date
            var endDate: Date
        }
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
                PHPhotosError.persistentChangeDetailsUnavailable
            {
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
                library.performChanges(
                    {
                        // Request creating an asset from the image.
                        let creationRequest = PHAssetChangeRequest.creationRequestForAsset(from: image)
                        // Request editing the album.
                        guard let addAssetRequest = PHAssetCollectionChangeRequest(for: album)
                        else { return }
                        // Get a placeholder for the new asset and add it to the album editing request.
                        addAssetRequest.addAssets([creationRequest.placeholderForCreatedAsset!] as NSArray)
                    },
                    completionHandler: { success, error in
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
            request?.addAssets([PHAsset.fetchAssets(in: album, options: nil)[0]] as any NSFastEnumeration)
        }
    }

    /// Seed 002, section 4.2: a 160×160 cell image, the original, and a full-screen image.
    @Test func requestImages() throws {
        let photo = try test.importAsset(try test.jpeg(width: 1600, height: 1200))
        let manager = PHImageManager.default()
        final class Cell: @unchecked Sendable {
            var images: [UIImage] = []
            func setImage(_ image: UIImage) { images.append(image) }
        }
        let cell = Cell()
        let results = ImageResults()
        let record = results.handler()
        manager.requestImage(
            for: photo,
            targetSize: CGSize(width: 160, height: 160),
            contentMode: .aspectFill,
            options: nil,
            resultHandler: { result, info in
                if let result {
                    cell.setImage(result)
                }
                record(result, info)
            })
        #expect(results.wait(for: 1))
        // Opportunistic by default: a degraded image may come first; the last one is final.
        while results.all.last?.info[PHImageResultIsDegradedKey] as? Bool == true {
            #expect(results.wait(for: 1))
        }
        let final = try #require(cell.images.last)
        #expect(min(final.size.width, final.size.height) >= 160, "fast resizing may give more, never less")

        // Download the original.
        let options = PHImageRequestOptions()
        options.deliveryMode = .highQualityFormat
        options.resizeMode = .exact
        options.progressHandler = { progress, _, _, _ in #expect(progress >= 0 && progress <= 1) }
        options.isSynchronous = true
        var targetSize = PHImageManagerMaximumSize
        var contentMode = PHImageContentMode.default
        var delivered: [UIImage?] = []
        manager.requestImage(for: photo, targetSize: targetSize, contentMode: contentMode, options: options) { image, _ in
            delivered.append(image)
        }
        #expect(delivered.count == 1 && delivered[0]?.size == CGSize(width: 1600, height: 1200))

        // Full screen (`UIScreen.main.bounds.size` in the seed).
        targetSize = CGSize(width: 390, height: 844)
        contentMode = .aspectFit
        delivered = []
        manager.requestImage(for: photo, targetSize: targetSize, contentMode: contentMode, options: options) { image, info in
            #expect(info?[PHImageResultIsDegradedKey] as? Bool == false, "synchronous: one high-quality result")
            delivered.append(image)
        }
        #expect(delivered.count == 1 && delivered[0]?.size.width == 390)
        #expect((292...293).contains(delivered[0]?.size.height ?? 0))
    }

    /// Seed 002, section 4.3: a video at its best quality (our file-URL form of `requestAVAsset`).
    @Test func requestVideo() throws {
        let video = try test.importAsset(try test.video(seconds: 1), video: true)
        let manager = PHImageManager.default()
        let options = PHVideoRequestOptions()
        options.deliveryMode = .highQualityFormat
        options.isNetworkAccessAllowed = true
        options.progressHandler = { progress, error, stop, info in
            DispatchQueue.main.async { _ = (progress, error) }
        }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var delivered: URL?
        manager.requestVideoFileURL(forVideo: video, options: options) { url, info in
            delivered = url
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(delivered.map { FileManager.default.fileExists(atPath: $0.path) } == true)
    }

    /// Seed 002, section 5: a grid that caches around its visible window as it scrolls,
    /// with the preheat-rectangle difference from Apple's sample.
    @Test func cacheAroundTheVisibleWindow() throws {
        var assets: [PHAsset] = []
        for row in 0..<12 {
            assets.append(try test.importAsset(try test.jpeg(width: 400, height: 300 + row)))
        }
        let imageManager = PHCachingImageManager()
        let targetSize = CGSize(width: 100, height: 100)
        let rowHeight: CGFloat = 100
        func gridAssets(in rect: CGRect) -> [PHAsset] {
            let first = max(0, Int(rect.minY / rowHeight))
            let last = min(assets.count, Int((rect.maxY / rowHeight).rounded(.up)))
            return first < last ? Array(assets[first..<last]) : []
        }
        func computeDifferenceBetweenRect(
            _ oldRect: CGRect, andRect newRect: CGRect,
            removedHandler: (CGRect) -> Void, addedHandler: (CGRect) -> Void
        ) {
            if newRect.intersects(oldRect) {
                let oldMaxY = oldRect.maxY
                let oldMinY = oldRect.minY
                let newMaxY = newRect.maxY
                let newMinY = newRect.minY
                if newMaxY > oldMaxY {
                    addedHandler(CGRect(x: newRect.origin.x, y: oldMaxY, width: newRect.size.width, height: newMaxY - oldMaxY))
                }
                if oldMinY > newMinY {
                    addedHandler(CGRect(x: newRect.origin.x, y: newMinY, width: newRect.size.width, height: oldMinY - newMinY))
                }
                if newMaxY < oldMaxY {
                    removedHandler(CGRect(x: newRect.origin.x, y: newMaxY, width: newRect.size.width, height: oldMaxY - newMaxY))
                }
                if oldMinY < newMinY {
                    removedHandler(CGRect(x: newRect.origin.x, y: oldMinY, width: newRect.size.width, height: newMinY - oldMinY))
                }
            } else {
                addedHandler(newRect)
                removedHandler(oldRect)
            }
        }

        var previousPreheatRect = CGRect.zero
        for top in stride(from: CGFloat(0), through: 800, by: 200) {
            let preheatRect = CGRect(x: 0, y: max(0, top - 200), width: 300, height: 600)
            var addedAssets: [PHAsset] = []
            var removedAssets: [PHAsset] = []
            computeDifferenceBetweenRect(
                previousPreheatRect, andRect: preheatRect,
                removedHandler: { removedAssets += gridAssets(in: $0) },
                addedHandler: { addedAssets += gridAssets(in: $0) })
            imageManager.startCachingImages(for: addedAssets, targetSize: targetSize, contentMode: .aspectFill, options: nil)
            imageManager.stopCachingImages(for: removedAssets, targetSize: targetSize, contentMode: .aspectFill, options: nil)
            previousPreheatRect = preheatRect

            // The visible rows ask the caching manager for their thumbnails.
            for asset in gridAssets(in: CGRect(x: 0, y: top, width: 300, height: 200)) {
                final class GridCell: @unchecked Sendable {
                    var representedAssetIdentifier: String!
                    var thumbnailImage: UIImage?
                }
                let cell = GridCell()
                cell.representedAssetIdentifier = asset.localIdentifier
                let results = ImageResults()
                let record = results.handler()
                imageManager.requestImage(
                    for: asset, targetSize: targetSize, contentMode: .aspectFill, options: nil,
                    resultHandler: { image, info in
                        // Set the cell's thumbnail image if it's still showing the same asset.
                        if cell.representedAssetIdentifier == asset.localIdentifier {
                            cell.thumbnailImage = image
                        }
                        record(image, info)
                    })
                #expect(results.wait(for: 1))
                #expect(cell.thumbnailImage != nil)
            }
        }
        imageManager.stopCachingImagesForAllAssets()
    }
}
