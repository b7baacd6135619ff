import Foundation
import GRDB

/// What the process reading or writing may see and change, resolved from its
/// client's grant inside each transaction, so that a grant the owner changes
/// applies at once and a query never runs without its filter.
///
/// Every statement that reads objects takes its conditions from here: asset
/// and collection fetches, loading rows by id, refreshes, moments and
/// history. The owner, and clients granted read-write access, get no
/// condition at all, so full access costs nothing.
package enum AccessScope: Sendable, Equatable {
    /// The owner, or a client with read-write access.
    case full
    /// A client limited to its selection.
    case limited(client: String)
    /// A client that reads one album and nothing else (a share link's):
    /// `album` is its UUID.
    case sharedAlbum(client: String, album: String)
    /// A client that may create assets and read nothing.
    case addOnly(client: String)
    /// A client that was denied access, or whose request the owner has not answered.
    case none(client: String, grant: AccessGrant?)

    /// The owner's scope (`client` nil), known without a query; nil for a
    /// client, whose grant must be read (see ``resolve(_:client:)``).
    static func withoutQuery(client: String?) -> AccessScope? {
        client == nil ? .full : nil
    }

    /// The scope of `client` (nil: the owner) as the database says now.
    static func resolve(_ db: any SQLConnection, client: String?) throws -> AccessScope {
        guard let client else { return .full }
        let row = try db.fetchOne(SQLRow.self, sql: "SELECT access, shared_album FROM client_access WHERE client = ?", arguments: [client])
        switch try row.flatMap({ try ($0[0] as Int?).flatMap(AccessGrant.init(rawValue:)) }) {
        case .readWrite: return .full
        case .limited: return .limited(client: client)
        case .sharedAlbum:
            // A shared album's grant always names its album; without one it reads nothing.
            guard let album: String = try row?[1] else { return .none(client: client, grant: .denied) }
            return .sharedAlbum(client: client, album: album)
        case .addOnly: return .addOnly(client: client)
        case .denied: return .none(client: client, grant: .denied)
        case nil: return .none(client: client, grant: nil)
        }
    }

    /// The grant the owner gave `client`; nil while undecided.
    static func grant(of client: String, _ db: any SQLConnection) throws -> AccessGrant? {
        try db.fetchOne(Int.self, sql: "SELECT access FROM client_access WHERE client = ?", arguments: [client])
            .flatMap(AccessGrant.init(rawValue:))
    }

    /// Whether the scope sees the moments the library computes from its
    /// assets: a shared album's client sees its album and nothing else.
    var seesMoments: Bool {
        if case .sharedAlbum = self { return false }
        return true
    }

    /// Why reading is refused; nil when the scope may read.
    var readDenial: StoreError? {
        switch self {
        case .full, .limited, .sharedAlbum: nil
        case .addOnly(let client): .accessDenied("client \(client) has add-only access: it can create assets but not read the library")
        case .none(let client, let grant): .accessDenied(Self.refusal(client: client, grant: grant))
        }
    }

    /// Why a change set is refused outright; nil when it may be checked object by object.
    func writeDenial(_ set: ChangeSet) -> StoreError? {
        switch self {
        case .full, .limited:
            return nil
        case .sharedAlbum(let client, _):
            return .accessDenied("client \(client) reads one shared album and changes nothing")
        case .addOnly(let client):
            let onlyCreates =
                set.assetEdits.isEmpty && set.trashedAssets.isEmpty && set.restoredAssets.isEmpty
                && set.newCollections.isEmpty && set.collectionEdits.isEmpty && set.deletedCollections.isEmpty
                && set.purge == nil && set.accessChanges.isEmpty
            return onlyCreates ? nil : .accessDenied("client \(client) has add-only access: it can create assets, nothing else")
        case .none(let client, let grant):
            return .accessDenied(Self.refusal(client: client, grant: grant))
        }
    }

    private static func refusal(client: String, grant: AccessGrant?) -> String {
        grant == .denied
            ? "the library's owner denied client \(client) access to the library"
            : "client \(client) has no access to the library yet: it must request authorization, and the owner grant it (PHPhotoLibrary.setAccess(_:forClient:))"
    }

    // MARK: - SQL
    //
    // Conditions are `SQLFragment` values: the client identifier travels as a
    // statement argument beside the text that uses it, never inside it.

    /// The condition an asset row (`alias`) must meet to be seen; nil when all are.
    func assetCondition(_ alias: TableAlias) -> SQLFragment? {
        switch self {
        case .full: nil
        case .limited(let client): "\(sql: alias["id"]) IN (\(Self.selectedAssetIDs(client)))"
        case .sharedAlbum(_, let album):
            """
            (\(sql: alias["id"]) IN (\(Self.memberIDs(album))) AND \(sql: ShownAssets.inAlbum(alias)))
            """
        case .addOnly, .none: "FALSE"
        }
    }

    /// The condition a collection row (`alias`) must meet to be seen; nil when
    /// all are. A limited client sees the smart albums (filtered to its
    /// assets), the albums holding a selected asset, the collections it
    /// created, and the folders above any of those.
    func collectionCondition(_ alias: TableAlias) -> SQLFragment? {
        switch self {
        case .full: nil
        case .limited(let client):
            "(\(sql: CollectionType.smartAlbum.condition(alias)) OR \(sql: alias["id"]) IN (\(Self.shownCollectionIDs(client))))"
        case .sharedAlbum(_, let album): "\(sql: alias["uuid"]) = \(album)"
        case .addOnly, .none: "FALSE"
        }
    }

    /// The condition a collection row (`alias`) meets when this limited
    /// client created it; nil for other scopes.
    func createdCollectionCondition(_ alias: TableAlias) -> SQLFragment? {
        guard case .limited(let client) = self else { return nil }
        return "\(sql: alias["uuid"]) IN (SELECT uuid FROM client_selection WHERE client = \(client) AND entity <> \(sql: Self.asset))"
    }

    /// The condition a deleted object's UUID (`column`) must meet to be
    /// told; nil when all are. A limited client hears of what its selection
    /// held, which outlives deletions.
    func deletedObjectCondition(_ column: String) -> SQLFragment? {
        switch self {
        case .full: nil
        case .limited(let client): "\(sql: column) IN (SELECT uuid FROM client_selection WHERE client = \(client))"
        case .sharedAlbum(_, let album): "\(sql: column) = \(album)"
        case .addOnly, .none: "FALSE"
        }
    }

    /// The condition a history entry (`alias` of `change_entry`) must meet to
    /// be read; entries about another client's access are never read.
    func entryCondition(_ alias: TableAlias, client: String?) -> SQLFragment {
        let own: SQLFragment = client.map { "(\(sql: alias["client"]) IS NULL OR \(sql: alias["client"]) = \($0))" } ?? "\(sql: alias["client"]) IS NULL"
        if case .sharedAlbum(let client, let album) = self {
            // The album's own entries, and those of the assets in it now (in
            // whatever state: one hidden or deleted since is told as changed,
            // and the client finds it gone).
            let visibleAsset: (TableAlias) -> SQLFragment = { "\(sql: $0["row_id"]) IN (\(Self.memberIDs(album)))" }
            return """
                (\(sql: alias["client"]) = \(client) OR \(sql: alias["client"]) IS NULL AND (
                    \(sql: alias["entity"]) = \(sql: Self.asset) AND \(visibleAsset(alias))
                    OR \(sql: alias["entity"]) <> \(sql: Self.asset) AND \(sql: alias["uuid"]) = \(album)
                       AND \(Self.summaryIsSeen(alias, visibleAsset: visibleAsset))))
                """
        }
        guard case .limited(let client) = self else { return own }
        let visibleAsset: (TableAlias) -> SQLFragment = {
            "\(sql: $0["uuid"]) IN (SELECT uuid FROM client_selection WHERE client = \(client) AND entity = \(sql: Self.asset))"
        }
        return """
            (\(sql: alias["client"]) IS NOT NULL AND \(own) OR \(sql: alias["client"]) IS NULL AND (
                \(sql: alias["entity"]) = \(sql: Self.asset) AND \(visibleAsset(alias))
                OR \(sql: alias["entity"]) <> \(sql: Self.asset) AND (
                    \(sql: alias["uuid"]) IN (SELECT uuid FROM client_selection WHERE client = \(client) AND entity <> \(sql: Self.asset))
                    OR EXISTS (SELECT 1 FROM \(sql: Self.collectionOfEntry.source) WHERE \(sql: Self.collectionOfEntry["id"]) = \(sql: alias["row_id"]) AND \(collectionCondition(Self.collectionOfEntry)!)))
                   AND \(Self.summaryIsSeen(alias, visibleAsset: visibleAsset))))
            """
    }

    /// The condition a collection entry (`alias`) meets unless all it says
    /// is that the album's summary (the count and dates of its visible
    /// assets) changed because one of its assets was hidden, deleted or
    /// re-dated: then it is seen only when such an asset, whose own entry
    /// the block holds, is one the reader sees (`visibleAsset`, of an entry
    /// alias). Otherwise a reader would hear of changes to what it cannot
    /// see, through the album it can.
    private static func summaryIsSeen(_ alias: TableAlias, visibleAsset: (TableAlias) -> SQLFragment) -> SQLFragment {
        """
        (\(sql: alias["attributes"]) <> \(ChangedAttribute.summary.storedName) OR EXISTS (
            SELECT 1 FROM \(sql: summarisedAsset.source) WHERE \(sql: summarisedAsset["transaction_id"]) = \(sql: alias["transaction_id"])
              AND \(sql: summarisedAsset["entity"]) = \(sql: Self.asset) AND \(sql: summarisedAsset["client"]) IS NULL AND \(visibleAsset(Self.summarisedAsset))))
        """
    }

    /// The collection a collection entry is about, in a subquery beside the entry's own alias.
    private static let collectionOfEntry = TableAlias("ec", of: "collection")
    /// The asset entries of a block that explain its album's summary change.
    private static let summarisedAsset = TableAlias("se", of: "change_entry")

    /// The asset entity's stored number, as SQL text.
    private static let asset = String(StoreEntity.asset.rawValue)

    private static func selectedAssetIDs(_ client: String) -> SQLFragment {
        """
        SELECT sa.id FROM client_selection s JOIN asset sa ON sa.uuid = s.uuid \
        WHERE s.client = \(client) AND s.entity = \(sql: asset)
        """
    }

    /// The row ids of the assets in the album with this UUID.
    private static func memberIDs(_ album: String) -> SQLFragment {
        "SELECT sm.asset_id FROM collection_asset sm JOIN collection sc ON sc.id = sm.collection_id WHERE sc.uuid = \(album)"
    }

    private static func shownCollectionIDs(_ client: String) -> SQLFragment {
        """
        WITH RECURSIVE shown(id) AS (
            SELECT sm.collection_id FROM collection_asset sm WHERE sm.asset_id IN (\(selectedAssetIDs(client)))
            UNION SELECT sc.id FROM client_selection s JOIN collection sc ON sc.uuid = s.uuid
                WHERE s.client = \(client) AND s.entity <> \(sql: asset)
            UNION SELECT sp.parent_id FROM collection sp JOIN shown ON sp.id = shown.id WHERE sp.parent_id IS NOT NULL)
        SELECT id FROM shown
        """
    }
}

extension Optional where Wrapped == SQLFragment {
    /// ` AND condition`, or nothing when there is no condition.
    var andClause: SQLFragment { map { condition -> SQLFragment in " AND \(condition)" } ?? "" }
    /// ` WHERE condition`, or nothing when there is no condition.
    var whereClause: SQLFragment { map { condition -> SQLFragment in " WHERE \(condition)" } ?? "" }
}
