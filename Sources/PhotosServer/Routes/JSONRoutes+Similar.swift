import Foundation
import Photos

/// `/v1/similar`: photos that look alike, in the token's grant; keeping one of a group, stacking it, or dismissing it.
extension JSONRoutes {
    func listSimilarGroups(_ input: Operations.ListSimilarGroups.Input) async throws -> Operations.ListSimilarGroups.Output {
        let (library, _) = try await library()
        let groups = try await blocking { try Self.groups(library, distance: input.query.distance) }
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: groups.map { group in
                            .init(assets: group.assetLocalIdentifiers.map(ObjectID.urlForm), suggested: ObjectID.urlForm(group.suggestedLocalIdentifier))
                        }))))
    }

    func keepSimilar(_ input: Operations.KeepSimilar.Input) async throws -> Operations.KeepSimilar.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("the body must be JSON") }
        guard let keep = ObjectID.localIdentifier(body.keep, of: .asset) else { throw Problem(.notFound, "no asset \(body.keep)") }
        let (library, _) = try await library()
        let others = try await blocking {
            let group = try Self.group(of: keep, named: body.keep, in: library, distance: body.distance)
            try library.keepOnly(keep, of: group)
            return group.assetLocalIdentifiers.filter { $0 != keep }
        }
        return .ok(.init(body: .json(.init(kept: body.keep, recentlyDeleted: others.map(ObjectID.urlForm)))))
    }

    func stackSimilar(_ input: Operations.StackSimilar.Input) async throws -> Operations.StackSimilar.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("the body must be JSON") }
        guard let keep = ObjectID.localIdentifier(body.keep, of: .asset) else { throw Problem(.notFound, "no asset \(body.keep)") }
        let (library, _) = try await library()
        let (group, burst) = try await blocking {
            let group = try Self.group(of: keep, named: body.keep, in: library, distance: body.distance)
            try library.stack(group, keeping: keep)
            let kept = library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [keep], options: nil).firstObject }
            return (group, kept?.burstIdentifier ?? "")
        }
        return .ok(.init(body: .json(.init(kept: body.keep, stacked: group.assetLocalIdentifiers.map(ObjectID.urlForm), burst: burst))))
    }

    func dismissSimilar(_ input: Operations.DismissSimilar.Input) async throws -> Operations.DismissSimilar.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("the body must be JSON") }
        guard let asset = ObjectID.localIdentifier(body.asset, of: .asset) else { throw Problem(.notFound, "no asset \(body.asset)") }
        let (library, _) = try await library()
        let group = try await blocking {
            let group = try Self.group(of: asset, named: body.asset, in: library, distance: body.distance)
            try library.dismissSimilarPhotoGroup(group)
            return group
        }
        return .ok(.init(body: .json(.init(assets: group.assetLocalIdentifiers.map(ObjectID.urlForm)))))
    }

    /// The group holding `localIdentifier` (the client's `id`); 404 when it is in none the token sees.
    private static func group(of localIdentifier: String, named id: String, in library: PHPhotoLibrary, distance: Int?) throws -> SimilarPhotoGroup {
        guard let group = try groups(library, distance: distance).first(where: { $0.assetLocalIdentifiers.contains(localIdentifier) }) else {
            throw Problem(.notFound, "\(id) looks like no other photo the token sees")
        }
        return group
    }

    /// The groups at `distance` (the library's default when nil); a distance out of range is the client's mistake.
    private static func groups(_ library: PHPhotoLibrary, distance: Int?) throws -> [SimilarPhotoGroup] {
        try clientMistakes { try distance.map { try library.similarPhotoGroups(maximumDistance: $0) } ?? library.similarPhotoGroups() }
    }
}
