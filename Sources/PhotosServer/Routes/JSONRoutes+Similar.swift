import Foundation
import Photos

/// `/v1/similar`: photos that look alike, in the token's grant, and keeping one of a group.
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
            guard let group = try Self.groups(library, distance: body.distance).first(where: { $0.assetLocalIdentifiers.contains(keep) }) else {
                throw Problem(.notFound, "\(body.keep) looks like no other photo the token sees")
            }
            try library.keepOnly(keep, of: group)
            return group.assetLocalIdentifiers.filter { $0 != keep }
        }
        return .ok(.init(body: .json(.init(kept: body.keep, recentlyDeleted: others.map(ObjectID.urlForm)))))
    }

    /// The groups at `distance` (the library's default when nil); a distance out of range is the client's mistake.
    private static func groups(_ library: PHPhotoLibrary, distance: Int?) throws -> [SimilarPhotoGroup] {
        do {
            return try distance.map { try library.similarPhotoGroups(maximumDistance: $0) } ?? library.similarPhotoGroups()
        } catch let error as PHPhotosError where error.code == .limitExceeded {
            throw Problem.badRequest(error.localizedDescription)
        }
    }
}
