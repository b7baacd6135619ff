import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

private func identifiers<T>(_ result: PHFetchResult<T>) -> [String] {
    (0..<result.count).map { (result.object(at: $0) as! PHObject).localIdentifier }
}

/// A library with two albums in two folders, and a client limited to some of its assets:
///
///     Trail (folder) / Summit (album: selected[0], others[0])
///     Town (folder)  / Cafe (album: others[1])
///     selected[1] and others[2] are favorites
final class LimitedFixture {
    static let clientID = "com.example.limited"
    let test: TestLibrary
    let selected: [String]
    let others: [String]
    let summit: String, cafe: String, trail: String, town: String
    let client: PHPhotoLibrary

    init() throws {
        test = try TestLibrary()
        let ids = try test.importDays(5)
        selected = [ids[0], ids[3]]
        others = [ids[1], ids[2], ids[4]]
        var made: [String] = []
        let assets = { (ids: [String]) in PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }
        let (selected, others) = (selected, others)
        try test.library.performChangesAndWait {
            let summit = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Summit")
            summit.addAssets(assets([selected[0], others[0]]))
            let cafe = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Cafe")
            cafe.addAssets(assets([others[1]]))
            let trail = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trail")
            trail.addChildCollections([summit.placeholderForCreatedAssetCollection] as NSArray)
            let town = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Town")
            town.addChildCollections([cafe.placeholderForCreatedAssetCollection] as NSArray)
            made = [
                summit.placeholderForCreatedAssetCollection.localIdentifier, cafe.placeholderForCreatedAssetCollection.localIdentifier,
                trail.placeholderForCreatedCollectionList.localIdentifier, town.placeholderForCreatedCollectionList.localIdentifier,
            ]
            for id in [selected[1], others[2]] {
                PHAssetChangeRequest(for: assets([id])[0]).isFavorite = true
            }
        }
        (summit, cafe, trail, town) = (made[0], made[1], made[2], made[3])
        try test.library.setAccess(.limited, forClient: Self.clientID)
        try test.library.addToLimitedSelection(selected, ofClient: Self.clientID)
        client = try test.client(Self.clientID)
    }

    func fetch<T>(_ body: () throws -> T) rethrows -> T {
        try client.withCurrentLibrary(body)
    }

    /// Every identifier a limited client may see now.
    var allowed: Set<String> {
        Set(
            selected + [summit, trail]
                + test.fetch {
                    identifiers(PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil))
                })
    }
}

@Suite struct AuthorizationTests {
    @Test func theOwnerIsAlwaysAuthorized() async throws {
        let test = try TestLibrary()
        #expect(test.library.clientIdentifier == nil)
        test.fetch {
            #expect(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .authorized)
            #expect(PHPhotoLibrary.authorizationStatus(for: .addOnly) == .authorized)
            #expect(PHPhotoLibrary.authorizationStatus() == .authorized)
        }
        let status = await test.library.withCurrentLibrary { await PHPhotoLibrary.requestAuthorization(for: .readWrite) }
        #expect(status == .authorized)
        #expect(try test.library.clientAccess().isEmpty, "asking records nothing for the owner")
    }

    @Test func aClientAsksAndTheOwnerDecides() throws {
        let test = try TestLibrary()
        try test.importDays(2)
        let client = try test.client("org.example.viewer")
        #expect(client.clientIdentifier == "org.example.viewer")
        #expect(client.authorizationStatus(for: .readWrite) == .notDetermined)
        let answered = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var answer: PHAuthorizationStatus?
        client.withCurrentLibrary {
            PHPhotoLibrary.requestAuthorization(for: .readWrite) { status in
                answer = status
                answered.signal()
            }
        }
        #expect(answered.wait(timeout: .now() + 5) == .success)
        #expect(answer == .notDetermined, "no decision yet")
        let request = try #require(try test.library.clientAccess().first)
        #expect(request.clientIdentifier == "org.example.viewer" && request.grant == nil)
        #expect(request.requestedAccessLevel == .readWrite && request.requestDate != nil)
        expectPhotosError(.accessRestricted) { try client.clientAccess() }
        expectPhotosError(.accessRestricted) { try client.setAccess(.readWrite, forClient: "org.example.viewer") }

        let table: [(PHPhotoLibrary.ClientAccessGrant, PHAuthorizationStatus, PHAuthorizationStatus)] = [
            (.readWrite, .authorized, .authorized), (.limited, .limited, .authorized),
            (.addOnly, .denied, .authorized), (.denied, .denied, .denied),
        ]
        for (grant, readWrite, addOnly) in table {
            try test.library.setAccess(grant, forClient: "org.example.viewer")
            #expect(client.authorizationStatus(for: .readWrite) == readWrite, "\(grant)")
            #expect(client.authorizationStatus(for: .addOnly) == addOnly, "\(grant)")
            #expect(client.requestAuthorization(for: .readWrite) == readWrite, "\(grant)")
            client.withCurrentLibrary {
                #expect(PHPhotoLibrary.authorizationStatus() == (readWrite == .limited ? .authorized : readWrite), "legacy, \(grant)")
            }
        }
        try test.library.setAccess(nil, forClient: "org.example.viewer")
        #expect(client.authorizationStatus(for: .readWrite) == .notDetermined)
        try test.library.removeClient("org.example.viewer")
        #expect(try test.library.clientAccess().isEmpty)
    }

    @Test func malformedClientIdentifiersAreRefused() throws {
        let test = try TestLibrary()
        for bad in ["", "has space", "quote'", String(repeating: "x", count: 256)] {
            expectPhotosError(.accessUserDenied) { try test.client(bad) }
            expectPhotosError(.accessUserDenied) { try test.library.setAccess(.readWrite, forClient: bad) }
        }
    }
}

@Suite struct RestrictedClientTests {
    /// What a client that may not read gets from every read path.
    @available(*, deprecated, message: "moments")
    private func expectNothingReadable(_ client: PHPhotoLibrary, _ test: TestLibrary, ids: [String]) throws {
        let (albums, folders) = test.fetch {
            (
                identifiers(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)),
                identifiers(PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil))
            )
        }
        #expect(!albums.isEmpty && !folders.isEmpty, "the owner sees something")
        client.withCurrentLibrary {
            let counts: [(String, Int)] = [
                ("all assets", PHAsset.fetchAssets(with: nil).count),
                ("images", PHAsset.fetchAssets(with: .image, options: nil).count),
                ("by identifier", PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil).count),
                ("burst", PHAsset.fetchAssets(withBurstIdentifier: "burst", options: nil).count),
                ("smart albums", PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil).count),
                ("albums", PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count),
                ("albums by identifier", PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: albums, options: nil).count),
                ("moments", PHAssetCollection.fetchMoments(with: nil).count),
                ("folders", PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil).count),
                ("folders by identifier", PHCollectionList.fetchCollectionLists(withLocalIdentifiers: folders, options: nil).count),
                ("moment lists", PHCollectionList.fetchMomentLists(with: .momentListYear, options: nil).count),
                ("top level", PHCollectionList.fetchTopLevelUserCollections(with: nil).count),
            ]
            for (fetch, count) in counts {
                #expect(count == 0, "\(fetch)")
            }
        }
        expectPhotosError(.accessUserDenied) { try client.fetchPersistentChanges(since: client.currentChangeToken) }
        let owned = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil)[0] }
        expectPhotosError(.accessUserDenied) {
            try client.performChangesAndWait { PHAssetChangeRequest(for: owned).isFavorite = true }
        }
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil)[0] }.isFavorite == false)
    }

    /// Observers of a client that may not read hear of nothing.
    private func expectNoNotifications(_ client: PHPhotoLibrary, _ test: TestLibrary) throws {
        let observer = RecordingObserver()
        client.register(observer)
        try test.importDays(1)
        #expect(!observer.wait(seconds: 3))
        client.unregisterChangeObserver(observer)
    }

    /// Two photos in an album in a folder.
    private func library() throws -> (TestLibrary, [String]) {
        let test = try TestLibrary()
        let ids = try test.importDays(2)
        try test.library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Album")
            album.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil))
            PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Folder")
                .addChildCollections([album.placeholderForCreatedAssetCollection] as NSArray)
        }
        return (test, ids)
    }

    @available(*, deprecated, message: "moments")
    @Test func undecidedAndDeniedClientsReadNothingAndChangeNothing() throws {
        let (test, ids) = try library()
        let undecided = try test.client("org.example.undecided")
        try expectNothingReadable(undecided, test, ids: ids)
        try test.library.setAccess(.denied, forClient: "org.example.denied")
        let denied = try test.client("org.example.denied")
        try expectNothingReadable(denied, test, ids: ids)
        try expectNoNotifications(denied, test)
    }

    @available(*, deprecated, message: "moments")
    @Test func anAddOnlyClientCreatesAndSeesNothing() throws {
        let (test, ids) = try library()
        try test.library.setAccess(.addOnly, forClient: "org.example.camera")
        let camera = try test.client("org.example.camera")
        var created = ""
        try camera.performChangesAndWait {
            created =
                PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: try! test.jpeg())!
                .placeholderForCreatedAsset!.localIdentifier
        }
        #expect(test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [created], options: nil) }.count == 1, "the owner sees it")
        try expectNothingReadable(camera, test, ids: ids + [created])
        expectPhotosError(.accessUserDenied) {
            try camera.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Not allowed")
            }
        }
        try expectNoNotifications(camera, test)
    }
}

@Suite struct LimitedAccessTests {
    @available(*, deprecated, message: "moments")
    @Test func everyFetchShowsOnlyTheSelection() throws {
        let fixture = try LimitedFixture()
        let (selected, others) = (fixture.selected, fixture.others)
        fixture.fetch {
            #expect(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .limited)
            #expect(identifiers(PHAsset.fetchAssets(with: nil)) == selected)
            #expect(identifiers(PHAsset.fetchAssets(with: .image, options: nil)) == selected)
            #expect(identifiers(PHAsset.fetchAssets(withLocalIdentifiers: selected + others, options: nil)) == selected)
            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: "isFavorite == YES")
            #expect(identifiers(PHAsset.fetchAssets(with: options)) == [selected[1]])

            let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
            #expect(identifiers(albums) == [fixture.summit])
            let summit = albums[0]
            #expect(summit.estimatedAssetCount == 1, "counts only what the client sees")
            #expect(identifiers(PHAsset.fetchAssets(in: summit, options: nil)) == [selected[0]])
            #expect(identifiers(PHAsset.fetchKeyAssets(in: summit, options: nil)!) == [selected[0]])
            #expect(
                identifiers(PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [fixture.summit, fixture.cafe], options: nil))
                    == [fixture.summit])
            let first = PHAsset.fetchAssets(withLocalIdentifiers: [selected[0]], options: nil)[0]
            #expect(identifiers(PHAssetCollection.fetchAssetCollectionsContaining(first, with: .album, options: nil)) == [fixture.summit])

            let favorites = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumFavorites, options: nil)[0]
            #expect(identifiers(PHAsset.fetchAssets(in: favorites, options: nil)) == [selected[1]])

            #expect(identifiers(PHCollectionList.fetchTopLevelUserCollections(with: nil)) == [fixture.trail])
            #expect(
                identifiers(PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [fixture.trail, fixture.town], options: nil))
                    == [fixture.trail])
            let trail = PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [fixture.trail], options: nil)[0]
            #expect(identifiers(PHCollection.fetchCollections(in: trail, options: nil)) == [fixture.summit])
            #expect(identifiers(PHCollectionList.fetchCollectionListsContaining(summit, options: nil)) == [fixture.trail])

            let moments = PHAssetCollection.fetchMoments(with: nil)
            let momentAssets = (0..<moments.count).flatMap { identifiers(PHAsset.fetchAssets(in: moments[$0], options: nil)) }
            #expect(momentAssets == selected)
            for subtype: PHCollectionListSubtype in [.momentListCluster, .momentListYear] {
                let lists = PHCollectionList.fetchMomentLists(with: subtype, options: nil)
                let inLists = (0..<lists.count).flatMap { index in
                    let moments = PHAssetCollection.fetchMoments(inMomentList: lists[index], options: nil)
                    return (0..<moments.count).flatMap { identifiers(PHAsset.fetchAssets(in: moments[$0], options: nil)) }
                }
                #expect(inLists == selected)
            }
        }
    }

    @Test func changesReachOnlyTheSelection() throws {
        let fixture = try LimitedFixture()
        let (test, client, selected, others) = (fixture.test, fixture.client, fixture.selected, fixture.others)
        let owned = { (id: String) in test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil)[0] } }

        // An object of the owner's cannot smuggle an unselected asset into the client's change block.
        expectPhotosError(.identifierNotFound) {
            try client.performChangesAndWait { PHAssetChangeRequest(for: owned(others[0])).isFavorite = true }
        }
        #expect(owned(others[0]).isFavorite == false)

        let visible = fixture.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [selected[0]], options: nil)[0] }
        var created: [String] = []
        try client.performChangesAndWait {
            PHAssetChangeRequest(for: visible).isFavorite = true
            let photo = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: try! test.jpeg())!
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Mine")
            album.addAssets([photo.placeholderForCreatedAsset!] as NSArray)
            created = [photo.placeholderForCreatedAsset!.localIdentifier, album.placeholderForCreatedAssetCollection.localIdentifier]
        }
        #expect(owned(selected[0]).isFavorite)
        #expect(try test.library.limitedSelection(ofClient: LimitedFixture.clientID).contains(created[0]), "what it creates joins its selection")
        fixture.fetch {
            #expect(identifiers(PHAsset.fetchAssets(with: nil)).contains(created[0]))
            #expect(identifiers(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)).contains(created[1]))
        }
        // Summit holds a photo the client cannot see: the client may not change it.
        expectPhotosError(.accessUserDenied) {
            try client.performChangesAndWait {
                let summit = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [fixture.summit], options: nil)[0]
                PHAssetCollectionChangeRequest(for: summit)!.removeAssets(at: IndexSet(integer: 0))
            }
        }
        let summitMembers = test.fetch {
            identifiers(
                PHAsset.fetchAssets(
                    in: PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [fixture.summit], options: nil)[0],
                    options: nil))
        }
        #expect(summitMembers == [selected[0], others[0]])
        // In its own album, indexes count only what it sees.
        let mine = fixture.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [created[1]], options: nil)[0] }
        try client.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: mine)!.insertAssets(
                PHAsset.fetchAssets(withLocalIdentifiers: [selected[0]], options: nil),
                at: IndexSet(integer: 0))
        }
        try test.library.performChangesAndWait {
            let theirs = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [created[1]], options: nil)[0]
            PHAssetCollectionChangeRequest(for: theirs)!.insertAssets(
                PHAsset.fetchAssets(withLocalIdentifiers: [others[2]], options: nil),
                at: IndexSet(integer: 0))
        }
        try client.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: mine)!.removeAssets(at: IndexSet(integer: 0))
        }
        let mineMembers = test.fetch {
            identifiers(
                PHAsset.fetchAssets(
                    in: PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [created[1]], options: nil)[0],
                    options: nil))
        }
        #expect(mineMembers == [others[2], created[0]], "the client removed the first photo it sees, not the owner's before it")
    }

    /// A fetch result names its assets by row id in a change block of its
    /// own library, and by UUID in another's; either way the grant decides.
    @Test func aClientDeletesOnlyWhatItsGrantStillCovers() throws {
        let fixture = try LimitedFixture()
        let (test, client, selected) = (fixture.test, fixture.client, fixture.selected)
        let all = { test.fetch { identifiers(PHAsset.fetchAssets(with: nil)) } }
        let everything = test.fetch { PHAsset.fetchAssets(with: nil) }
        expectPhotosError(.identifierNotFound, "the owner's fetch result holds photos the client cannot see") {
            try client.performChangesAndWait { PHAssetChangeRequest.deleteAssets(everything) }
        }
        #expect(all().count == 5)

        let mine = fixture.fetch { PHAsset.fetchAssets(with: nil) }
        try test.library.removeFromLimitedSelection([selected[1]], ofClient: LimitedFixture.clientID)
        expectPhotosError(.identifierNotFound, "fetched before the owner took a photo out of the selection") {
            try client.performChangesAndWait { PHAssetChangeRequest.deleteAssets(mine) }
        }
        #expect(all().count == 5)

        let stillMine = fixture.fetch { PHAsset.fetchAssets(with: nil) }
        try client.performChangesAndWait { PHAssetChangeRequest.deleteAssets(stillMine) }
        #expect(Set(all()) == Set(fixture.others + [selected[1]]))
        try client.performChangesAndWait { PHAssetChangeRequest.restoreDeletedAssets(stillMine) }
        #expect(all().count == 5)
    }

    @Test func aLimitedClientLearnsOnlyWhatConcernsItsSelection() throws {
        let fixture = try LimitedFixture()
        let (test, client, selected) = (fixture.test, fixture.client, fixture.selected)
        let (ownerBefore, seenBefore) = (try test.library.persistentChangeHistory(), try client.persistentChangeHistory())
        let other = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.others[1]], options: nil)[0] }
        for round in 0..<3 {
            try test.library.performChangesAndWait { PHAssetChangeRequest(for: other).isFavorite = round % 2 == 0 }
        }
        #expect(try test.library.persistentChangeHistory().changeCount == ownerBefore.changeCount + 3)
        #expect(try client.persistentChangeHistory() == seenBefore, "change blocks about others' photos are not counted for it")
        let own = fixture.fetch { PHAsset.fetchAssets(with: nil).allObjects }
        let ownBytes = own.flatMap { PHAssetResource.assetResources(for: $0) }.compactMap { $0.value(forKey: "fileSize") as? Int64 }
        #expect(try client.storedBytes() == ownBytes.reduce(0, +) && own.count == selected.count)
        #expect(try client.storedBytes() < test.library.storedBytes())

        // Its tokens name states without the library's numbering of change blocks.
        let token = client.currentChangeToken
        let ownerToken = test.library.currentChangeToken
        #expect(token.point.isOpaque && !ownerToken.point.isOpaque)
        #expect(token.point.changeBlock != ownerToken.point.changeBlock)
        let encoded = String(decoding: try JSONEncoder().encode(token), as: UTF8.self)
        #expect(!encoded.contains("\"changeBlock\":\(ownerToken.point.changeBlock),"), Comment(rawValue: encoded))
        let archived = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: archived))
        #expect(restored == token)
        let visible = fixture.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [selected[0]], options: nil)[0] }
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: visible).isFavorite = true }
        let changes = Array(try client.fetchPersistentChanges(since: restored))
        #expect(changes.count == 1)
        for change in changes {
            #expect(try change.changeDetails(for: .asset).updatedLocalIdentifiers == [selected[0]])
            let number = test.library.currentChangeToken.point.changeBlock
            #expect(change.changeToken.point.isOpaque && !change.description.contains("change block \(number)"))
        }
        // What is wrong with a token is said without numbers.
        try test.library.purgePersistentChanges(before: Date().addingTimeInterval(60))
        let expired = expectPhotosError(.persistentChangeTokenExpired) { try client.fetchPersistentChanges(since: token) }
        #expect(expired.map { $0.localizedDescription.rangeOfCharacter(from: .decimalDigits) == nil } == true, "\(String(describing: expired))")
    }

    @Test func aLimitedClientCannotProbeTheNumberingWithTokens() throws {
        let fixture = try LimitedFixture()
        let (test, client) = (fixture.test, fixture.client)
        let token = client.currentChangeToken
        // The owner changes a photo the client cannot see: the client's token does not move.
        let other = test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.others[0]], options: nil)[0] }
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: other).isFavorite = true }
        #expect(client.currentChangeToken == token)
        // Tokens it makes up, or the owner's, all get one answer, without numbers.
        var forged = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(token)) as! [String: Any]
        forged["transaction"] = ((forged["transaction"] as? NSNumber)?.int64Value ?? 0) ^ 1
        let owner = test.library.currentChangeToken
        var messages: Set<String> = []
        var candidates = [owner, try Self.resealed(forged), PHPersistentChangeToken(textRepresentation: "e30")!]
        for guess in Int64(2)...64 {
            forged["transaction"] =
                (try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(token)) as? [String: Any])["transaction"]
                as? NSNumber)!.int64Value ^ guess
            candidates.append(try Self.resealed(forged))
        }
        for candidate in candidates {
            let error = expectPhotosError(.persistentChangeTokenExpired) { try client.fetchPersistentChanges(since: candidate) }
            let message = error?.localizedDescription ?? ""
            #expect(message.rangeOfCharacter(from: .decimalDigits) == nil, "\(message)")
            messages.insert(message)
        }
        #expect(messages.count == 1, "the owner's token, a damaged one and every forged one get the same answer")
    }

    /// A token from decoded fields, with its checksum made again: what a client could forge.
    private static func resealed(_ fields: [String: Any]) throws -> PHPersistentChangeToken {
        let library = fields["library"] as! String
        let changeBlock = (fields["transaction"] as! NSNumber).int64Value
        let stamp = (fields["stamp"] as! NSNumber).int64Value
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array("\(library)|\(changeBlock)|\(stamp)|opaque".utf8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var sealed = fields
        sealed["transaction"] = changeBlock
        sealed["check"] = Int64(bitPattern: hash)
        return try JSONDecoder().decode(PHPersistentChangeToken.self, from: try JSONSerialization.data(withJSONObject: sealed))
    }

    @Test func aClientThatMayNotReadLearnsNothingOfTheLibrary() throws {
        let fixture = try LimitedFixture()
        try fixture.test.library.setAccess(.addOnly, forClient: LimitedFixture.clientID)
        expectPhotosError(.accessUserDenied) { try fixture.client.persistentChangeHistory() }
        expectPhotosError(.accessUserDenied) { try fixture.client.storedBytes() }
        #expect(fixture.client.currentChangeToken.point.isOpaque)
    }

    @Test func aClientChangesOnlyCollectionsItMadeOrWhollyWithinItsGrant() throws {
        let fixture = try LimitedFixture()
        let (test, client, selected) = (fixture.test, fixture.client, fixture.selected)
        var onlySelected = ""
        try test.library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Best")
            album.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: [selected[1]], options: nil))
            onlySelected = album.placeholderForCreatedAssetCollection.localIdentifier
        }
        let summit = fixture.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [fixture.summit], options: nil)[0] }
        let trail = fixture.fetch { PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [fixture.trail], options: nil)[0] }
        let refused: [(String, () -> Void)] = [
            ("rename an album holding others' photos", { PHAssetCollectionChangeRequest(for: summit)!.title = "Mine now" }),
            ("delete it", { PHAssetCollectionChangeRequest.deleteAssetCollections([summit] as NSArray) }),
            ("rename the folder above it", { PHCollectionListChangeRequest(for: trail)!.title = "Mine now" }),
            ("delete the folder, and the album with it", { PHCollectionListChangeRequest.deleteCollectionLists([trail] as NSArray) }),
            ("move the album out of its folder", { PHCollectionListChangeRequest(for: trail)!.removeChildCollections([summit] as NSArray) }),
        ]
        for (attempt, change) in refused {
            let error = expectPhotosError(.accessUserDenied, "\(attempt)") { try client.performChangesAndWait(change) }
            #expect(error?.localizedDescription.contains("outside the client's limited selection") == true, "\(attempt)")
        }
        // Its own folder may not swallow the owner's album either: the album's place would change.
        var folder = ""
        try client.performChangesAndWait {
            folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Mine").placeholderForCreatedCollectionList.localIdentifier
        }
        let own = fixture.fetch { PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [folder], options: nil)[0] }
        expectPhotosError(.accessUserDenied) {
            try client.performChangesAndWait { PHCollectionListChangeRequest(for: own)!.addChildCollections([summit] as NSArray) }
        }
        test.fetch {
            let albums = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [fixture.summit], options: nil)
            #expect(albums.count == 1 && albums[0].localizedTitle == "Summit")
            #expect(
                identifiers(
                    PHCollection.fetchCollections(
                        in: PHCollectionList.fetchCollectionLists(
                            withLocalIdentifiers: [fixture.trail], options: nil)[0], options: nil)) == [fixture.summit])
        }
        // An album holding only what the client may see, and what it made, it may change.
        let best = fixture.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [onlySelected], options: nil)[0] }
        try client.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: best)!.title = "Favourites"
            PHCollectionListChangeRequest(for: own)!.title = "Ours"
            PHCollectionListChangeRequest(for: own)!.addChildCollections([best] as NSArray)
        }
        try client.performChangesAndWait { PHCollectionListChangeRequest.deleteCollectionLists([own] as NSArray) }
        #expect(test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [onlySelected], options: nil).count } == 0)
    }

    @Test func refusalsNameNothingTheClientCannotSeeAndFoldersLeftAreChecked() throws {
        let fixture = try LimitedFixture()
        let (test, client, selected) = (fixture.test, fixture.client, fixture.selected)
        var ids: [String] = []
        try test.library.performChangesAndWait {
            let mine = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Only selected")
            mine.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: [selected[1]], options: nil))
            let trail = PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [fixture.trail], options: nil)[0]
            let hidden = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [fixture.cafe], options: nil)[0]
            PHCollectionListChangeRequest(for: trail)!.addChildCollections([mine.placeholderForCreatedAssetCollection, hidden] as NSArray)
            ids = [mine.placeholderForCreatedAssetCollection.localIdentifier]
        }
        // Trail now holds Cafe, which the client cannot see: refusing to delete Trail must not name it.
        let trail = fixture.fetch { PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [fixture.trail], options: nil)[0] }
        let error = expectPhotosError(.accessUserDenied) {
            try client.performChangesAndWait { PHCollectionListChangeRequest.deleteCollectionLists([trail] as NSArray) }
        }
        #expect(error?.localizedDescription.contains(fixture.cafe) == false, "\(String(describing: error))")
        // An album wholly within its grant may not be taken out of Trail into the client's own folder: Trail would change.
        var own = ""
        try client.performChangesAndWait {
            own = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Mine").placeholderForCreatedCollectionList.localIdentifier
        }
        let mine = fixture.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: ids, options: nil)[0] }
        let folder = fixture.fetch { PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [own], options: nil)[0] }
        expectPhotosError(.accessUserDenied) {
            try client.performChangesAndWait { PHCollectionListChangeRequest(for: folder)!.addChildCollections([mine] as NSArray) }
        }
    }

    @Test func observersSeeOnlyTheSelection() throws {
        let fixture = try LimitedFixture()
        let (test, client, selected, others) = (fixture.test, fixture.client, fixture.selected, fixture.others)
        let assets = fixture.fetch { PHAsset.fetchAssets(with: nil) }
        let albums = fixture.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }
        let observer = RecordingObserver()
        client.register(observer)
        defer { client.unregisterChangeObserver(observer) }
        let owned = { (id: String) in test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil)[0] } }

        try test.library.performChangesAndWait { PHAssetChangeRequest(for: owned(others[0])).isFavorite = true }
        #expect(observer.wait())
        let unseen = observer.received.last!
        #expect(unseen.changeDetails(for: assets) == nil)
        #expect(unseen.changeDetails(for: albums) == nil)

        try test.library.performChangesAndWait { PHAssetChangeRequest(for: owned(selected[1])).isHidden = true }
        #expect(observer.wait())
        let hidden = try #require(observer.received.last!.changeDetails(for: assets))
        #expect(identifiers(hidden.fetchResultAfterChanges) == [selected[0]])

        try test.library.addToLimitedSelection([others[1]], ofClient: LimitedFixture.clientID)
        #expect(observer.wait())
        let grown = try #require(observer.received.last!.changeDetails(for: hidden.fetchResultAfterChanges))
        #expect(grown.hasIncrementalChanges && grown.insertedIndexes == IndexSet(integer: 1))
        #expect(identifiers(grown.fetchResultAfterChanges) == [selected[0], others[1]])
        let albumDetails = try #require(observer.received.last!.changeDetails(for: albums))
        #expect(Set(identifiers(albumDetails.fetchResultAfterChanges)) == [fixture.summit, fixture.cafe])

        // Full access arrives as a change to reload.
        try test.library.setAccess(.readWrite, forClient: LimitedFixture.clientID)
        #expect(observer.wait())
        let full = try #require(observer.received.last!.changeDetails(for: grown.fetchResultAfterChanges))
        #expect(!full.hasIncrementalChanges)
        #expect(full.fetchResultAfterChanges.count == 4, "every visible asset; one is hidden")
    }

    @Test func historyShowsOnlyTheSelection() throws {
        let fixture = try LimitedFixture()
        let (test, client) = (fixture.test, fixture.client)
        let token = client.currentChangeToken
        let owned = { (id: String) in test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil)[0] } }
        try test.library.performChangesAndWait {
            for id in fixture.selected + fixture.others { PHAssetChangeRequest(for: owned(id)).isFavorite.toggle() }
        }
        try test.library.performChangesAndWait { PHAssetChangeRequest(for: owned(fixture.others[0])).isHidden = true }
        try test.library.performChangesAndWait {
            let cafe = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [fixture.cafe], options: nil)[0]
            PHAssetCollectionChangeRequest(for: cafe)!.title = "Renamed"
        }
        let changes = try client.fetchPersistentChanges(since: token).map { $0 }
        #expect(
            changes.count == 1,
            """
            the favorites; not Summit's summary when its unseen member was hidden (its summary as the client \
            sees it did not change), nor the rename
            """)
        var seen = Set<String>()
        for change in changes {
            for type: PHObjectType in [.asset, .assetCollection, .collectionList] {
                let details = try change.changeDetails(for: type)
                seen.formUnion(details.insertedLocalIdentifiers)
                seen.formUnion(details.updatedLocalIdentifiers)
                seen.formUnion(details.deletedLocalIdentifiers)
            }
        }
        #expect(seen.isSubset(of: fixture.allowed) && seen.isSuperset(of: fixture.selected))

        // A change of grant cannot be told object by object. (With read-write access the client
        // also gets the hiding and the rename it could not see: its token named the last block about
        // its selection.)
        let beforeGrant = client.currentChangeToken
        let ownerBeforeGrant = test.library.currentChangeToken
        try test.library.setAccess(.readWrite, forClient: LimitedFixture.clientID)
        let grant = try client.fetchPersistentChanges(since: beforeGrant).map { $0 }
        #expect(grant.count == 3)
        expectPhotosError(.persistentChangeDetailsUnavailable) { try grant.last!.changeDetails(for: .asset) }
        #expect(
            try test.library.fetchPersistentChanges(since: ownerBeforeGrant).map { $0 }.isEmpty,
            "another client's access is not the owner's history")
    }
}

/// Random libraries and selections: a limited client's fetch is the owner's
/// fetch with the unselected assets taken out, in the same order, for every
/// shape of fetch.
@Suite struct LimitedAccessPropertyTests {
    @Test(arguments: 0..<12) func limitedFetchesAreOwnerFetchesFiltered(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let test = try TestLibrary()
        let start = Date(timeIntervalSince1970: 1_500_000_000)
        let records = (0..<40).map { _ in
            TestLibrary.record(
                created: start.addingTimeInterval(Double(Int.random(in: 0..<2_000_000, using: &random))),
                mediaType: random.chance(0.2) ? 2 : 1, favorite: random.chance(0.3), hidden: random.chance(0.1))
        }
        let ids = try test.insert(records)
        var albums: [String] = []
        try test.library.performChangesAndWait {
            for index in 0..<4 {
                let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Album \(index)")
                album.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: ids.filter { _ in random.chance(0.25) }, options: nil))
                albums.append(album.placeholderForCreatedAssetCollection.localIdentifier)
            }
        }
        let selection = Set(ids.filter { _ in random.chance(0.3) })
        try test.library.setAccess(.limited, forClient: "org.example.random")
        try test.library.addToLimitedSelection(Array(selection), ofClient: "org.example.random")
        let client = try test.client("org.example.random")
        let context = "seed \(seed)"

        let descending = PHFetchOptions()
        descending.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
        let favoriteVideos = PHFetchOptions()
        favoriteVideos.predicate = NSPredicate(format: "isFavorite == YES OR mediaType == %d", PHAssetMediaType.video.rawValue)
        favoriteVideos.includeHiddenAssets = true
        let shuffled = ids.shuffled(using: &random)
        let fetches: [(String, () -> PHFetchResult<PHAsset>)] = [
            ("all", { PHAsset.fetchAssets(with: nil) }),
            ("descending", { PHAsset.fetchAssets(with: descending) }),
            ("favorites or videos", { PHAsset.fetchAssets(with: favoriteVideos) }),
            ("videos", { PHAsset.fetchAssets(with: .video, options: nil) }),
            ("by identifier", { PHAsset.fetchAssets(withLocalIdentifiers: shuffled, options: nil) }),
        ]
        for (name, fetch) in fetches {
            let owner = identifiers(test.fetch(fetch)).filter(selection.contains)
            #expect(identifiers(client.withCurrentLibrary(fetch)) == owner, "\(name), \(context)")
        }

        // An album shows when it holds a selected asset, hidden or not, with only those.
        let withHidden = PHFetchOptions()
        withHidden.includeHiddenAssets = true
        let album = { (id: String) in PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [id], options: nil).firstObject }
        let shown = albums.filter { id in
            !selection.isDisjoint(with: identifiers(test.fetch { PHAsset.fetchAssets(in: album(id)!, options: withHidden) }))
        }
        let clientAlbums = client.withCurrentLibrary {
            identifiers(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil))
        }
        #expect(clientAlbums == shown, "\(context)")
        for id in shown {
            let owner = identifiers(test.fetch { PHAsset.fetchAssets(in: album(id)!, options: nil) }).filter(selection.contains)
            let seen = client.withCurrentLibrary { identifiers(PHAsset.fetchAssets(in: album(id)!, options: nil)) }
            #expect(seen == owner, "album, \(context)")
        }
    }
}
