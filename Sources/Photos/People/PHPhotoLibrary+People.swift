import Foundation
import PhotosStore

extension PHPhotoLibrary {
    /// How many assets an unnamed person must be in to be listed by
    /// ``people(includingHidden:minimumAssetCount:)`` by default: a face seen
    /// once or twice is usually a passer-by.
    public static let defaultMinimumAssetsPerPerson = 3

    /// The people whose faces the reader sees in at least
    /// `minimumAssetCount` assets, and every named one they see a face of;
    /// hidden people only when `includingHidden`. Named people first, then
    /// those in the most assets. People appear as the library's indexer
    /// reaches photos (`IndexKind.faces`). An OpenPhotoKit addition.
    ///
    /// - Complexity: one query over the faces in the assets the reader sees.
    public func people(
        includingHidden: Bool = false, minimumAssetCount: Int = PHPhotoLibrary.defaultMinimumAssetsPerPerson
    ) throws
        -> [RecognizedPerson]
    {
        try peopleStore { store throws(StoreError) in
            try store.people(includingHidden: includingHidden, minimumAssetCount: max(1, minimumAssetCount)).map(RecognizedPerson.init)
        }
    }

    /// The person with `localIdentifier`, counted as the reader sees them.
    /// Throws `identifierNotFound` when there is none, or the reader sees
    /// none of their faces.
    public func person(withLocalIdentifier localIdentifier: String) throws -> RecognizedPerson {
        try peopleStore { store throws(StoreError) in RecognizedPerson(try store.person(localIdentifier)) }
    }

    /// The faces of the person with `localIdentifier` that the reader sees,
    /// largest first. Cost: one query.
    public func faces(ofPersonWithLocalIdentifier localIdentifier: String) throws -> [RecognizedFace] {
        try peopleStore { store throws(StoreError) in try store.faces(ofPerson: localIdentifier, inAsset: nil).map(RecognizedFace.init) }
    }

    /// The faces found in `asset`, largest first; none while the indexer
    /// has not reached it, or for an asset the reader does not see.
    public func faces(in asset: PHAsset) throws -> [RecognizedFace] {
        try peopleStore { store throws(StoreError) in try store.faces(ofPerson: nil, inAsset: asset.record.uuid).map(RecognizedFace.init) }
    }

    /// Names the person (nil or blank: no name); their photos are found by
    /// searching it (`person:anna`). Throws `limitExceeded` for a name over
    /// 200 characters or with control characters, `identifierNotFound`
    /// for no such person, and `accessUserDenied` for a reader without
    /// access to the whole library. Cost: a transaction rewriting the
    /// search words of their photos.
    public func setName(_ name: String?, ofPersonWithLocalIdentifier localIdentifier: String) throws {
        try peopleStore { store throws(StoreError) in try store.setPersonName(name, of: localIdentifier) }
    }

    /// Hides the person from ``people(includingHidden:minimumAssetCount:)``
    /// and their name from search, or shows them again. Their faces still
    /// join them, so that a hidden person stays hidden.
    public func setHidden(_ hidden: Bool, ofPersonWithLocalIdentifier localIdentifier: String) throws {
        try peopleStore { store throws(StoreError) in try store.setPersonHidden(hidden, of: localIdentifier) }
    }

    /// Merges the people `localIdentifiers` into the person `target`: their
    /// faces become `target`'s, who keeps their name or, having none, takes
    /// the first of the others'. The others' identifiers are gone afterwards.
    public func mergePeople(withLocalIdentifiers localIdentifiers: [String], into target: String) throws {
        try peopleStore { store throws(StoreError) in try store.mergePeople(localIdentifiers, into: target) }
    }

    /// Moves the faces `localIdentifiers` to the person `target`, or, when
    /// nil, to a new person (splitting them from whoever they were with),
    /// and returns that person's identifier. Moved faces stay where they
    /// were put when their photos are indexed again unchanged.
    @discardableResult
    public func moveFaces(withLocalIdentifiers localIdentifiers: [String], toPersonWithLocalIdentifier target: String?) throws -> String {
        try peopleStore { store throws(StoreError) in try store.moveFaces(localIdentifiers, toPerson: target, now: Date()) }
    }

    private func peopleStore<T>(_ body: (any PhotoStore) throws(StoreError) -> T) throws -> T {
        guard let store else { throw unavailabilityReason ?? PHPhotosError(.internalError, "the library is not open") }
        do {
            return try body(store)
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }
}

extension PHAsset {
    /// The assets holding a face of the person with `localIdentifier`, in
    /// the library's order unless `options` sorts them; the options'
    /// predicate, limit, hidden and burst settings and the reader's grant
    /// apply as in every fetch. Empty for an unknown person. An
    /// OpenPhotoKit addition (see ``RecognizedPerson``).
    public class func fetchAssets(showingPersonWithLocalIdentifier localIdentifier: String, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        PHPhotoLibrary.current.fetchAssets(scope: .person(uuid: localIdentifier), options: options)
    }
}
