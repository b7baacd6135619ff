import Foundation
import Hummingbird
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
struct ShareRoutes {
    let libraries: LibraryPool
    let revocation: Revocation

    struct Share: Encodable {
        let id: String
        let label: String
        let created: Date
        let expires: Date?
        let hasPassword: Bool

        init(_ token: PHPhotoLibrary.AccessToken) {
            id = token.id
            label = token.label
            created = token.creationDate
            expires = token.expirationDate
            hasPassword = token.hasPassword
        }
    }

    private struct Shares: Encodable {
        let shares: [Share]
    }

    private struct NewShare: Decodable {
        let album: String
        let expires: Date?
        let password: String?
    }

    private struct Created: Encodable {
        let share: Share
        /// The bearer string, shown this once.
        let token: String
        /// Where the gallery opens it, relative to the server.
        let path: String
    }

    func add(to group: RouterGroup<ServerContext>) {
        group.get("shares") { request, context -> Response in
            let library = try owner(context)
            let shares = try await blocking { try library.accessTokens().filter(\.isShareLink).map(Share.init) }
            return try context.json(Shares(shares: shares), from: request, headers: [.cacheControl: "no-store"])
        }
        group.post("shares") { request, context -> Response in
            let library = try owner(context)
            let body = try await StrictJSONRequestDecoder(limit: 4096).decode(NewShare.self, from: request, context: context)
            if let expires = body.expires, expires <= Date() { throw Problem.badRequest("expires must be in the future") }
            let album = try await CollectionLookup.assetCollection(body.album, in: library)
            guard album.assetCollectionType == .album else { throw Problem.badRequest("only an album the user made can be shared") }
            let issued = try await blocking {
                try library.withCurrentLibrary { try library.createShareLink(for: album, expirationDate: body.expires, password: body.password) }
            }
            return try context.json(
                Created(share: Share(issued.token), token: issued.bearer, path: "/#share=\(issued.bearer)"), from: request,
                status: .created, headers: [.cacheControl: "no-store"])
        }
        group.delete("shares/:id") { request, context -> Response in
            let library = try owner(context)
            let id = context.parameters.get("id") ?? ""
            try await blocking {
                guard try library.accessTokens().contains(where: { $0.id == id && $0.isShareLink }) else {
                    throw Problem.notFound("there is no share link \(id)")
                }
                try library.revokeAccessToken(id: id)
            }
            revocation.revoked(tokenID: id)
            return Response(status: .noContent)
        }
    }

    /// The owner's library; share links are the owner's to manage.
    private func owner(_ context: ServerContext) throws -> PHPhotoLibrary {
        let principal = try context.requirePrincipal()
        guard principal.isOwner else { throw Problem(.forbidden, "share links are managed with the owner's tokens") }
        return libraries.owner
    }
}
