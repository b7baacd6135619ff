import Foundation
import PhotosStore

/// The owner's side of client access: who asked, what each client may do,
/// and what a limited client may see. The `photos access` command is built
/// on it. Only the owner (a library opened without a client identifier)
/// may use it; a client gets `PHPhotosError.accessRestricted`.
///
/// Every change applies at once, in every process: the client's fetch
/// results, observers and persistent history follow it. A change of grant
/// reaches a client's observers as a change that is not incremental, and
/// its persistent history as a change whose details are unavailable; a
/// change of selection as assets inserted or deleted.
extension PHPhotoLibrary {
    /// What the owner allows a client to do.
    public enum ClientAccessGrant: Sendable, Hashable, CaseIterable {
        /// Read and change the whole library.
        case readWrite
        /// Read and change only the selected assets, the albums holding
        /// them and the folders above those, and what the client creates.
        case limited
        /// Create assets and nothing else.
        case addOnly
        /// Nothing.
        case denied
        /// Read one album and nothing else: a share link's grant, which
        /// ``createShareLink(for:label:expirationDate:password:)`` gives
        /// with the album; ``setAccess(_:forClient:)`` cannot.
        case sharedAlbum
    }

    /// A client as the owner sees it.
    public struct ClientAccess: Sendable, Hashable {
        /// The client's identifier (its `PHOTOS_CLIENT_ID`).
        public var clientIdentifier: String
        /// The owner's decision; nil while there is none.
        public var grant: ClientAccessGrant?
        /// What the client last asked for, if it asked.
        public var requestedAccessLevel: PHAccessLevel?
        /// When it last asked.
        public var requestDate: Date?
        /// When the owner last decided.
        public var decisionDate: Date?
        /// How many assets the client's selection holds.
        public var selectedAssetCount: Int
        /// The local identifier of the album a shared-album client reads.
        public var sharedAlbum: String?
    }

    /// Every client that asked for access or was given a grant, by
    /// identifier. Cost: one query.
    public func clientAccess() throws -> [ClientAccess] {
        try withStore { store throws(StoreError) in
            try store.clientAccessRecords().map { record in
                ClientAccess(
                    clientIdentifier: record.client, grant: record.grant.map(ClientAccessGrant.init),
                    requestedAccessLevel: record.requestedLevel.map(PHAccessLevel.init),
                    requestDate: record.requestedAt, decisionDate: record.decidedAt,
                    selectedAssetCount: record.selectedAssetCount,
                    sharedAlbum: record.sharedAlbum.map { LocalIdentifier(uuid: $0, entity: .assetCollection).description })
            }
        }
    }

    /// Grants `client` an access, or with nil withdraws the decision so the
    /// client is not determined again. A limited client's selection is kept
    /// when it is given another grant, for when it is limited again.
    /// `.sharedAlbum` needs its album: it throws `changeNotSupported`.
    public func setAccess(_ grant: ClientAccessGrant?, forClient client: String) throws {
        try commitAccessChange(.setGrant(grant?.stored, client: client))
    }

    /// Forgets a client: its grant, its request and its selection.
    public func removeClient(_ client: String) throws {
        try commitAccessChange(.removeClient(client))
    }

    /// The local identifiers of the assets a client's selection holds,
    /// oldest asset first.
    public func limitedSelection(ofClient client: String) throws -> [String] {
        try withStore { store throws(StoreError) in try store.selectedAssets(of: client).map(\.description) }
    }

    /// Adds assets to a client's selection. An identifier of no asset
    /// throws `identifierNotFound` and nothing changes.
    public func addToLimitedSelection(_ localIdentifiers: [String], ofClient client: String) throws {
        let uuids = try assetUUIDs(localIdentifiers)
        try commitAccessChange(.changeSelection(client: client, adding: uuids, removing: []))
    }

    /// Removes assets from a client's selection; identifiers it does not hold are ignored.
    public func removeFromLimitedSelection(_ localIdentifiers: [String], ofClient client: String) throws {
        let uuids = try assetUUIDs(localIdentifiers)
        try commitAccessChange(.changeSelection(client: client, adding: [], removing: uuids))
    }

    private func assetUUIDs(_ localIdentifiers: [String]) throws(PHPhotosError) -> [String] {
        try localIdentifiers.map { text throws(PHPhotosError) in
            guard let identifier = LocalIdentifier(text), identifier.entity == .asset else {
                throw PHPhotosError(.identifierNotFound, "\(text) is not an asset's local identifier", identifiers: [text])
            }
            return identifier.uuid
        }
    }

    /// Grants `client` the reading of one user album, as it is at each read
    /// (``ClientAccessGrant/sharedAlbum``). Throws `identifierNotFound` for
    /// a collection that is not a user album of this library.
    func shareAlbum(_ album: PHAssetCollection, withClient client: String) throws {
        guard album.canPerform(.addContent), let identifier = album.parsedIdentifier else {
            throw PHPhotosError(.changeNotSupported, "only an album the user made can be shared")
        }
        try commitAccessChange(.shareAlbum(identifier.uuid, client: client))
    }

    /// Commits an access change as a change set and tells this process's
    /// observers about the change block, if it changed anything.
    private func commitAccessChange(_ change: AccessChange) throws {
        let result = try withStore { store throws(StoreError) in try store.beginCommit().commit(ChangeSet(accessChanges: [change])) }
        if let result {
            changeObservers.committed(through: result.changeBlock)
        }
    }
}

extension PHPhotoLibrary.ClientAccessGrant {
    init(_ grant: AccessGrant) {
        switch grant {
        case .readWrite: self = .readWrite
        case .limited: self = .limited
        case .addOnly: self = .addOnly
        case .denied: self = .denied
        case .sharedAlbum: self = .sharedAlbum
        }
    }

    var stored: AccessGrant {
        switch self {
        case .readWrite: .readWrite
        case .limited: .limited
        case .addOnly: .addOnly
        case .denied: .denied
        case .sharedAlbum: .sharedAlbum
        }
    }
}
