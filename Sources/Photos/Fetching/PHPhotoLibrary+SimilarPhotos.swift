import Foundation
import PhotosStore

/// Photos that look alike: shots of a burst, a photo saved again, a copy
/// made smaller, a screenshot of a screenshot. An OpenPhotoKit addition:
/// Apple's Photos shows duplicates in an album of its own, with no API.
public struct SimilarPhotoGroup: Sendable, Hashable {
    /// The assets that look alike, the one suggested to keep first: a
    /// favorite before others, then the most pixels, then the edited, then
    /// the oldest.
    public let assetLocalIdentifiers: [String]

    /// The asset suggested to keep: the first.
    public var suggestedLocalIdentifier: String { assetLocalIdentifiers[0] }
}

extension PHPhotoLibrary {
    /// The largest ``similarPhotoGroups(maximumDistance:includingDismissed:)`` accepts: past
    /// it, photos that merely share a layout would group.
    public static let maximumSimilarityDistance = 16
    /// The distance ``similarPhotoGroups(maximumDistance:includingDismissed:)`` groups at when
    /// none is given: resaves, rescaled copies and burst neighbours, not
    /// photos that only share a subject.
    public static let defaultSimilarityDistance = 6

    /// The groups of photos that look alike among those the reader sees (as
    /// a default fetch shows them): each asset's perceptual hash, which the
    /// library's indexer keeps (`IndexKind.similarity`), within
    /// `maximumDistance` bits of another's (of 64), by default
    /// ``defaultSimilarityDistance``. Assets the indexer has not reached are in no group.
    ///
    /// Photos someone said are not look-alikes
    /// (``dismissSimilarPhotoGroup(_:)``) are not grouped with one another
    /// unless `includingDismissed`; a new photo like one of them still
    /// brings them back for review.
    ///
    /// - Throws: `PHPhotosError.limitExceeded` for a distance outside
    ///   0...``maximumSimilarityDistance``.
    /// - Complexity: one read of every hash, then grouping in memory, which
    ///   compares only hashes that share one of `maximumDistance + 1` pieces;
    ///   one fetch of the grouped assets.
    public func similarPhotoGroups(
        maximumDistance: Int = PHPhotoLibrary.defaultSimilarityDistance, includingDismissed: Bool = false
    ) throws -> [SimilarPhotoGroup] {
        guard (0...Self.maximumSimilarityDistance).contains(maximumDistance) else {
            throw PHPhotosError(.limitExceeded, "a similarity distance is from 0 to \(Self.maximumSimilarityDistance) bits, not \(maximumDistance)")
        }
        guard let store else { throw unavailabilityReason ?? PHPhotosError(.internalError, "the library is not open") }
        let hashes: [AssetHash]
        do {
            hashes = try store.perceptualHashes()
        } catch {
            throw PHPhotosError(storeError: error)
        }
        let grouped = SimilarHashes.groups(
            hashes.map(\.hash), maximumDistance: maximumDistance, apart: includingDismissed ? nil : { hashes[$0].isDismissed(with: hashes[$1]) })
        guard !grouped.isEmpty else { return [] }
        let options = PHFetchOptions()
        options.includeHiddenAssets = false
        let assets = withCurrentLibrary {
            let result = PHAsset.fetchAssets(withLocalIdentifiers: grouped.flatMap { $0.map { hashes[$0].uuid } }, options: options)
            return result.objects(at: IndexSet(integersIn: 0..<result.count))
        }
        let byUUID = Dictionary(assets.map { ($0.record.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        return grouped.compactMap { members in
            let found = members.compactMap { byUUID[hashes[$0].uuid] }.sorted(by: Self.keepsBefore)
            return found.count > 1 ? SimilarPhotoGroup(assetLocalIdentifiers: found.map(\.localIdentifier)) : nil
        }
    }

    /// Keeps one asset of a group and moves the others to Recently Deleted,
    /// in one change block, so that it can be undone from there. Throws
    /// `identifierNotFound` when `localIdentifier` is not in the group; an
    /// asset of the group deleted meanwhile is left out. Cost: one fetch and
    /// one change block.
    public func keepOnly(_ localIdentifier: String, of group: SimilarPhotoGroup) throws {
        guard group.assetLocalIdentifiers.contains(localIdentifier) else {
            throw PHPhotosError(.identifierNotFound, "\(localIdentifier) is not in the group", identifiers: [localIdentifier])
        }
        let others = group.assetLocalIdentifiers.filter { $0 != localIdentifier }
        let assets = withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: others, options: nil) }
        guard assets.count > 0 else { return }
        try performChangesAndWait { PHAssetChangeRequest.deleteAssets(assets) }
    }

    /// Makes a group one stack, as a camera makes a burst, in one change
    /// block: `localIdentifier` represents it and is shown, the others leave
    /// the library's views (``PHAsset/burstIdentifier`` names them all;
    /// ``PHAsset/fetchAssets(withBurstIdentifier:options:)`` with
    /// ``PHFetchOptions/includeAllBurstAssets`` shows them). A
    /// photo that was in a burst brings that burst's other shots along.
    /// Nothing is deleted. Needs the whole library (`accessUserDenied`
    /// otherwise); `identifierNotFound` when `localIdentifier` is not in the
    /// group or a member is gone. Cost: one change block.
    public func stack(_ group: SimilarPhotoGroup, keeping localIdentifier: String) throws {
        guard group.assetLocalIdentifiers.contains(localIdentifier), let kept = LocalIdentifier(localIdentifier, fetching: .asset) else {
            throw PHPhotosError(.identifierNotFound, "\(localIdentifier) is not in the group", identifiers: [localIdentifier])
        }
        var changes = ChangeSet()
        changes.stacks = [AssetStack(kept: kept.uuid, members: try Self.uuids(of: group))]
        let store = try requireStore()
        do {
            try changeQueue.sync {
                guard let result = try store.beginCommit().commit(changes) else { return }
                changeObservers.committed(through: result.changeBlock)
            }
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }

    /// Remembers that the group's photos are not look-alikes:
    /// ``similarPhotoGroups(maximumDistance:includingDismissed:)`` no longer
    /// groups them with one another. Nothing in the photos changes. Needs
    /// the whole library (`accessUserDenied` otherwise). Cost: one write.
    public func dismissSimilarPhotoGroup(_ group: SimilarPhotoGroup) throws {
        let uuids = try Self.uuids(of: group)
        let store = try requireStore()
        do {
            try store.dismissLookAlikes(uuids)
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }

    /// The UUIDs of a group's assets; `identifierNotFound` for text that names no asset.
    private static func uuids(of group: SimilarPhotoGroup) throws -> [String] {
        try group.assetLocalIdentifiers.map { identifier in
            guard let parsed = LocalIdentifier(identifier, fetching: .asset) else {
                throw PHPhotosError(.identifierNotFound, "\(identifier) names no asset", identifiers: [identifier])
            }
            return parsed.uuid
        }
    }

    /// Whether `a` is a better one to keep than `b`.
    private static func keepsBefore(_ a: PHAsset, _ b: PHAsset) -> Bool {
        if a.isFavorite != b.isFavorite { return a.isFavorite }
        let (pixelsA, pixelsB) = (a.pixelWidth * a.pixelHeight, b.pixelWidth * b.pixelHeight)
        if pixelsA != pixelsB { return pixelsA > pixelsB }
        if a.hasAdjustments != b.hasAdjustments { return a.hasAdjustments }
        let (dateA, dateB) = (a.creationDate ?? .distantFuture, b.creationDate ?? .distantFuture)
        if dateA != dateB { return dateA < dateB }
        return a.localIdentifier < b.localIdentifier
    }
}
