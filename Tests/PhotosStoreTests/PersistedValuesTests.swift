import Foundation
import Testing

@testable import PhotosStore

/// Golden values: what the engine writes into a library and reads back in
/// every later version. A change here breaks libraries already written.
@Suite struct PersistedValuesTests {
    @Test func changedAttributesKeepTheirStoredNames() {
        #expect(
            ChangedAttribute.allCases.map(\.storedName) == [
                "favorite", "hidden", "creationDate", "location", "trashed", "restored", "content",
                "title", "members", "parent", "position", "summary", "access", "rating", "caption", "keywords", "livePhotoPlayback", "burst",
            ])
    }

    @Test func aSetOfChangedAttributesIsStoredSortedAndReadBack() {
        #expect(ChangedAttribute.storedList([.trashed, .members, .access]) == "access,members,trashed")
        #expect(ChangedAttribute.storedList([]) == "")
        for attributes in [Set<ChangedAttribute>(), [.content], Set(ChangedAttribute.allCases)] {
            #expect(ChangedAttribute.attributes(storedList: ChangedAttribute.storedList(attributes)) == attributes)
        }
    }

    @Test func objectChangeKindsKeepTheirStoredNumbers() {
        #expect([ObjectChange.Kind.inserted, .updated, .deleted].map(\.rawValue) == [1, 2, 3])
    }

    @Test func entitiesKeepTheirStoredNumbers() {
        #expect(StoreEntity.allCases.map(\.rawValue) == [1, 2, 3])
    }

    @Test func grantsKeepTheirStoredNumbers() {
        #expect(AccessGrant.allCases.map(\.rawValue) == [1, 2, 3, 4, 5])
    }
}
