import Foundation

/// Where an indexer stands in a library's history (`indexer_state`).
package struct IndexerStateRecord: Sendable, Hashable {
    /// The indexer's name (`metadata`, …).
    package var name: String
    /// Where it stands: nowhere yet, in a whole pass, or following history.
    package var position: IndexPosition
    /// The process holding its lease, and until when; nil when none.
    package var holder: String?
    package var leaseUntil: Date?
    /// How many assets it has indexed, over its life.
    package var indexed: Int64
    package var updatedAt: Date

    package init(name: String, position: IndexPosition, holder: String?, leaseUntil: Date?, indexed: Int64, updatedAt: Date) {
        self.name = name
        self.position = position
        self.holder = holder
        self.leaseUntil = leaseUntil
        self.indexed = indexed
        self.updatedAt = updatedAt
    }
}

/// Where an indexer stands. Tokens are a `PHPersistentChangeToken`'s coded
/// form, opaque to the engine.
package enum IndexPosition: Sendable, Hashable {
    /// It has indexed nothing yet, or was asked to index everything again:
    /// it starts a whole pass.
    case unstarted
    /// A whole pass over the library begun at the state `token` names; it
    /// has indexed every asset whose identifier sorts up to `after` (none
    /// yet when nil). Changes after `token` are followed once it ends.
    case pass(token: Data, after: String?)
    /// Every change through the state `token` names is indexed.
    case following(token: Data)
}

/// A place as the index keeps it (`asset_place`).
package struct IndexedPlace: Sendable, Hashable {
    package var city: String
    package var region: String
    package var country: String
    package var countryCode: String

    package init(city: String, region: String, country: String, countryCode: String) {
        self.city = city
        self.region = region
        self.country = country
        self.countryCode = countryCode
    }
}

/// What an indexer found in one asset: the searchable words of the
/// columns it owns, and, for the indexer that owns places, its place.
package struct IndexedAsset: Sendable, Hashable {
    /// The asset's UUID.
    package var uuid: String
    /// The `asset_search` columns it writes (``SearchIndex/columns``), each
    /// already folded and split by ``SearchWords``.
    package var searchText: [String: String]
    /// Whether it writes the asset's place, and the place (nil: none).
    package var writesPlace: Bool
    package var place: IndexedPlace?

    package init(uuid: String, searchText: [String: String], writesPlace: Bool = false, place: IndexedPlace? = nil) {
        self.uuid = uuid
        self.searchText = searchText
        self.writesPlace = writesPlace
        self.place = place
    }
}

/// One batch of an indexer's work, written in one transaction with the
/// position it reaches: a crash loses the batch or keeps all of it, never
/// half, and the indexer resumes from the last batch written.
package struct IndexBatch: Sendable {
    /// The indexer and the lease holder writing.
    package var indexer: String
    package var holder: String
    package var assets: [IndexedAsset]
    /// UUIDs of assets deleted from the library, whose entries go.
    package var removed: [String]
    /// Where the indexer stands once the batch is written.
    package var position: IndexPosition
    /// Whether a whole pass ends with it: entries of assets no longer in the library go too.
    package var endsPass: Bool
    /// When it is written, and how long the lease lasts from then.
    package var now: Date
    package var lease: TimeInterval

    package init(
        indexer: String, holder: String, assets: [IndexedAsset], removed: [String], position: IndexPosition, endsPass: Bool, now: Date,
        lease: TimeInterval
    ) {
        self.indexer = indexer
        self.holder = holder
        self.assets = assets
        self.removed = removed
        self.position = position
        self.endsPass = endsPass
        self.now = now
        self.lease = lease
    }
}

/// How much of the library the index covers, for `photos index status`.
package struct IndexCoverage: Sendable, Hashable {
    /// Assets outside Recently Deleted.
    package var assets: Int64
    /// Those with an `asset_search` row.
    package var searchable: Int64
    /// Those with a place.
    package var located: Int64

    package init(assets: Int64, searchable: Int64, located: Int64) {
        self.assets = assets
        self.searchable = searchable
        self.located = located
    }
}

/// One place the library's photos were taken, with how many of those the
/// reader sees were taken there and the newest added of them.
package struct PlaceSummary: Sendable, Hashable {
    package var place: IndexedPlace
    package var assetCount: Int
    /// The UUID of the asset added last there: the place's cover.
    package var coverUUID: String

    package init(place: IndexedPlace, assetCount: Int, coverUUID: String) {
        self.place = place
        self.assetCount = assetCount
        self.coverUUID = coverUUID
    }
}
