import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// `performChangesAndWait(ifUnchangedSince:_:)`: a change block that commits
/// only if the library is still in the state its token names, decided in
/// the commit's own transaction on every backend.
@Suite struct ConditionalChangeTests {
    @Test func aBlockCommitsOnlyFromTheCurrentState() throws {
        let test = try TestLibrary()
        let asset = try test.importDays(1)[0]
        let token = test.library.currentChangeToken
        let other = try PHPhotoLibrary(url: test.library.url)
        try favorite(asset, in: other)
        #expect(throws: PHPhotoLibrary.StateChangedError.self) {
            try test.library.performChangesAndWait(ifUnchangedSince: token) {
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Stale")
            }
        }
        #expect(test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }.count == 0)
        try test.library.performChangesAndWait(ifUnchangedSince: test.library.currentChangeToken) {
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Fresh")
        }
        #expect(test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }.count == 1)
    }

    /// Two writers holding one token, each from its own library instance
    /// (connection): exactly one commits, every round.
    @Test func ofTwoWritersHoldingOneTokenOneCommits() async throws {
        let test = try TestLibrary()
        let assets = try test.importDays(2)
        let writers = try [test.library, PHPhotoLibrary(url: test.library.url)]
        for round in 0..<20 {
            let token = test.library.currentChangeToken
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for (writer, asset) in zip(writers, assets) {
                    group.addTask {
                        do {
                            try writer.performChangesAndWait(ifUnchangedSince: token) {
                                let fetched = writer.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [asset], options: nil) }
                                PHAssetChangeRequest(for: fetched[0]).isFavorite = round % 2 == 0
                            }
                            return true
                        } catch {
                            #expect(error is PHPhotoLibrary.StateChangedError, "\(error)")
                            return false
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1, "round \(round): \(outcomes)")
        }
    }

    /// A limited client's state moves only with what it may see; a token
    /// it did not get (altered, or the owner's) is refused as expired.
    @Test func aLimitedClientsStateIsWhatItSees() throws {
        let test = try TestLibrary()
        let (mine, theirs) = try {
            let ids = try test.importDays(2)
            return (ids[0], ids[1])
        }()
        try test.library.setAccess(.limited, forClient: "org.example.editor")
        try test.library.addToLimitedSelection([mine], ofClient: "org.example.editor")
        let client = try test.client("org.example.editor")
        let token = client.currentChangeToken
        try favorite(theirs, in: test.library)
        try client.performChangesAndWait(ifUnchangedSince: token) {
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Mine")
        }
        #expect(throws: PHPhotoLibrary.StateChangedError.self) {
            try client.performChangesAndWait(ifUnchangedSince: token) {
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Again")
            }
        }
        for foreign in [test.library.currentChangeToken, PHPersistentChangeToken(textRepresentation: "e30")!] {
            let error = #expect(throws: PHPhotosError.self) {
                try client.performChangesAndWait(ifUnchangedSince: foreign) {
                    PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Forged")
                }
            }
            #expect(error?.code == .persistentChangeTokenExpired)
        }
        #expect(client.withCurrentLibrary { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }.count == 1)
    }

    private func favorite(_ identifier: String, in library: PHPhotoLibrary) throws {
        let asset = library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil) }[0]
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite.toggle() }
    }
}
