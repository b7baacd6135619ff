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
        let others = try await withGroup(of: body.keep, distance: body.distance) { library, keep, group in
            try library.keepOnly(keep, of: group)
            return group.assetLocalIdentifiers.filter { $0 != keep }
        }
        return .ok(.init(body: .json(.init(kept: body.keep, recentlyDeleted: others.map(ObjectID.urlForm)))))
    }

    func stackSimilar(_ input: Operations.StackSimilar.Input) async throws -> Operations.StackSimilar.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("the body must be JSON") }
        let (group, burst) = try await withGroup(of: body.keep, distance: body.distance) { library, keep, group in
            try library.stack(group, keeping: keep)
            let kept = library.withCurrentLibrary { PHAsset.fetchAssets(withLocalIdentifiers: [keep], options: nil).firstObject }
            return (group, kept?.burstIdentifier ?? "")
        }
        return .ok(.init(body: .json(.init(kept: body.keep, stacked: group.assetLocalIdentifiers.map(ObjectID.urlForm), burst: burst))))
    }

    func dismissSimilar(_ input: Operations.DismissSimilar.Input) async throws -> Operations.DismissSimilar.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("the body must be JSON") }
        let group = try await withGroup(of: body.asset, distance: body.distance) { library, _, group in
            try library.dismissSimilarPhotoGroup(group)
            return group
        }
        return .ok(.init(body: .json(.init(assets: group.assetLocalIdentifiers.map(ObjectID.urlForm)))))
    }

    /// Runs `body` off the event loop with the token's library, the asset
    /// the client's `id` names and the group holding it at `distance`; 404
    /// when `id` names no asset, or one in no group the token sees.
    private func withGroup<T: Sendable>(
        of id: String, distance: Int?, _ body: @escaping @Sendable (PHPhotoLibrary, String, SimilarPhotoGroup) throws -> T
    ) async throws -> T {
        guard let asset = ObjectID.localIdentifier(id, of: .asset) else { throw Problem(.notFound, "no asset \(id)") }
        let (library, _) = try await library()
        return try await blocking {
            guard let group = try Self.groups(library, distance: distance).first(where: { $0.assetLocalIdentifiers.contains(asset) }) else {
                throw Problem(.notFound, "\(id) looks like no other photo the token sees")
            }
            return try body(library, asset, group)
        }
    }

    /// The groups at `distance` (the library's default when nil); a distance out of range is the client's mistake.
    private static func groups(_ library: PHPhotoLibrary, distance: Int?) throws -> [SimilarPhotoGroup] {
        try clientMistakes { try distance.map { try library.similarPhotoGroups(maximumDistance: $0) } ?? library.similarPhotoGroups() }
    }
}
