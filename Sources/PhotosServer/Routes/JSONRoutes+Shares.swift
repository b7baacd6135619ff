import Foundation
import Photos

/// `/v1/shares`: the owner's share links. A share link is a read-only
/// token of a new client whose grant is the album itself, as it is at each
/// read (`createShareLink`): its photos that are neither hidden nor
/// deleted, and the album, nothing else; the engine applies it to
/// everything the link reaches, like any client's grant. A link may have a
/// password, which its holder gives when signing in. The gallery opens a
/// link as `/#share=<token>`: the fragment never reaches a server's logs.
/// Revoking one ends it at once on every path of this server: its proofs,
/// its browser sessions and its event streams.
extension JSONRoutes {
    func listShares(_ input: Operations.ListShares.Input) async throws -> Operations.ListShares.Output {
        let library = try ownerLibrary()
        let shares = try await blocking { try library.accessTokens().filter(\.isShareLink).map(Self.share) }
        return .ok(.init(headers: .init(cacheControl: "no-store"), body: .json(.init(shares: shares))))
    }

    func createShare(_ input: Operations.CreateShare.Input) async throws -> Operations.CreateShare.Output {
        let library = try ownerLibrary()
        let body =
            switch input.body {
            case .json(let body): body
            }
        if let expires = body.expires, expires <= Date() { throw Problem.badRequest("expires must be in the future") }
        let album = try await CollectionLookup.assetCollection(body.album, in: library)
        guard album.assetCollectionType == .album else { throw Problem.badRequest("only an album the user made can be shared") }
        let issued = try await blocking {
            try library.withCurrentLibrary { try library.createShareLink(for: album, expirationDate: body.expires, password: body.password) }
        }
        return .created(
            .init(
                headers: .init(cacheControl: "no-store"),
                body: .json(.init(share: Self.share(issued.token), token: issued.bearer, path: "/#share=\(issued.bearer)"))))
    }

    func revokeShare(_ input: Operations.RevokeShare.Input) async throws -> Operations.RevokeShare.Output {
        let library = try ownerLibrary()
        let id = input.path.id
        try await blocking {
            guard try library.accessTokens().contains(where: { $0.id == id && $0.isShareLink }) else {
                throw Problem.notFound("there is no share link \(id)")
            }
            try library.revokeAccessToken(id: id)
        }
        revocation.revoked(tokenID: id)
        return .noContent(.init())
    }

    /// The owner's library; share links are the owner's to manage.
    private func ownerLibrary() throws -> PHPhotoLibrary {
        let principal = try principal()
        guard principal.isOwner else { throw Problem(.forbidden, "share links are managed with the owner's tokens") }
        return libraries.owner
    }

    private static func share(_ token: PHPhotoLibrary.AccessToken) -> Components.Schemas.Share {
        .init(id: token.id, label: token.label, created: token.creationDate, expires: token.expirationDate, hasPassword: token.hasPassword)
    }
}
