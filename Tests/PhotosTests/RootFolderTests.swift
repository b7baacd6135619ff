import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// `PHCollectionListSubtype.rootFolder`: one folder per library holding the
/// top-level albums and folders, which cannot be renamed or deleted.
@Suite struct RootFolderTests {
    @Test func theRootFolderHoldsTheTopLevel() throws {
        let test = try TestLibrary()
        var folderID = ""
        try test.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
            folderID = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Years").placeholderForCreatedCollectionList.localIdentifier
        }
        let roots = test.fetch { PHCollectionList.fetchCollectionLists(with: .folder, subtype: .rootFolder, options: nil) }
        #expect(roots.count == 1)
        let root = roots[0]
        #expect(root.collectionListType == .folder && root.collectionListSubtype == .rootFolder)
        #expect(!root.canPerform(.rename) && !root.canPerform(.delete) && root.canPerform(.addContent))
        let top = test.fetch { PHCollection.fetchTopLevelUserCollections(with: nil) }
        let children = test.fetch { PHCollection.fetchCollections(in: root, options: nil) }
        #expect(children.objects(at: IndexSet(0..<children.count)).map(\.localIdentifier) == top.objects(at: IndexSet(0..<top.count)).map(\.localIdentifier))
        #expect(children.count == 2)
        // The same one however it is asked for, and by its identifier.
        #expect(
            test.fetch { PHCollectionList.fetchCollectionLists(with: .folder, subtype: .rootFolder, options: nil) }[0].localIdentifier == root.localIdentifier)
        #expect(test.fetch { PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [root.localIdentifier, folderID], options: nil) }.count == 2)
        #expect(
            test.fetch { PHCollectionList.fetchCollectionLists(with: .folder, subtype: .regularFolder, options: nil) }.count == 1, "not a folder of the user's")
        // Its change request orders the top level.
        let trip = test.fetch { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil)[0] }
        try test.library.performChangesAndWait {
            let request = PHCollectionListChangeRequest(for: root, childCollections: children)
            request?.moveChildCollections(at: IndexSet(integer: 1), to: 0)
        }
        let reordered = test.fetch { PHCollection.fetchCollections(in: root, options: nil) }
        #expect(reordered[0].localIdentifier == children[1].localIdentifier)
        #expect(trip.localIdentifier != root.localIdentifier)
    }

    @Test func eachLibraryHasItsOwn() throws {
        let (first, second) = (try TestLibrary(), try TestLibrary())
        let roots = [first, second].map { test in
            test.fetch { PHCollectionList.fetchCollectionLists(with: .folder, subtype: .rootFolder, options: nil)[0].localIdentifier }
        }
        #expect(roots[0] != roots[1])
    }
}
