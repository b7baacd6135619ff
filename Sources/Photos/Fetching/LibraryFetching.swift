import Foundation
import PhotosStore

/// Runs fetches against one library: options become an engine query, the
/// query becomes ids, the ids a lazily loaded fetch result.
extension PHPhotoLibrary {
    /// Translates fetch options, trapping on what PhotoKit raises for:
    /// unsupported keys and malformed predicates.
    private static func translated<T>(_ translate: () throws(PHPredicateError) -> T) -> T {
        do {
            return try translate()
        } catch {
            fatalError("Unsupported predicate or sort descriptor in fetch options: \(error)")
        }
    }

    /// The engine query fetch options make for assets in `scope`.
    static func assetQuery(
        scope: AssetScope, options: PHFetchOptions?,
        extraFilter: StoreFilter<AssetAttribute>? = nil
    ) throws(PHPredicateError) -> AssetQuery {
        let rules = FetchTranslation<AssetAttribute>.assets
        var filter = try rules.filter(options?.predicate)
        if let extraFilter {
            filter = .and([extraFilter, filter])
        }
        return AssetQuery(
            scope: scope, filter: filter,
            sort: try rules.sort(options?.sortDescriptors),
            limit: max(0, options?.fetchLimit ?? 0),
            includeHiddenAssets: options?.includeHiddenAssets ?? scope.includesHiddenAssetsByDefault,
            includeAllBurstAssets: options?.includeAllBurstAssets ?? false,
            sourceTypes: AssetSourceTypes(options?.includeAssetSourceTypes ?? []))
    }

    func fetchAssets(scope: AssetScope, options: PHFetchOptions?, extraFilter: StoreFilter<AssetAttribute>? = nil) -> PHFetchResult<PHAsset> {
        let query = Self.translated { () throws(PHPredicateError) in try Self.assetQuery(scope: scope, options: options, extraFilter: extraFilter) }
        guard let store else { return PHFetchResult(contents: .empty) }
        do {
            let snapshot = try store.fetchAssets(query)
            var tracked = true
            if case .rowIDs = scope { tracked = false }  // transient collections never change
            return PHFetchResult(
                contents: FetchedObjects(
                    .rows(self, .assets, snapshot.ids), query: tracked ? query : nil,
                    prefetchesExtendedMetadata: options?.prefetchAssetExtendedMetadata ?? false),
                tracking: tracked
                    ? FetchTracking(
                        library: self, origin: .assets(query),
                        changeBlock: snapshot.changeBlock, options: options) : nil)
        } catch {
            Diagnostics.report(error, while: "fetching assets")
            return PHFetchResult(contents: .empty)
        }
    }

    func fetchCollections<T: PHCollection>(
        scope: CollectionScope, options: PHFetchOptions?,
        as type: T.Type
    ) -> PHFetchResult<T> {
        let rules = FetchTranslation<CollectionAttribute>.collections(for: type)
        let query = CollectionQuery(
            scope: scope,
            filter: Self.translated { () throws(PHPredicateError) in try rules.filter(options?.predicate) },
            sort: Self.translated { () throws(PHPredicateError) in try rules.sort(options?.sortDescriptors) },
            limit: max(0, options?.fetchLimit ?? 0))
        guard let store else { return PHFetchResult(contents: .empty) }
        do {
            let snapshot = try store.fetchCollections(query)
            return PHFetchResult(
                contents: FetchedObjects(.rows(self, .collections(of: T.self), snapshot.ids)),
                tracking: FetchTracking(
                    library: self, origin: .collections(query),
                    changeBlock: snapshot.changeBlock, options: options))
        } catch {
            Diagnostics.report(error, while: "fetching collections")
            return PHFetchResult(contents: .empty)
        }
    }

    /// Collections by identifier, stored and computed ones (moments, moment
    /// lists) alike, in the order given unless the options sort them. A
    /// bare UUID names a collection of `entity` too.
    /// `computed` returns the computed collections among the UUIDs that no
    /// stored collection has; when there are none, the fetch is one query.
    func fetchCollections<T: PHCollection>(
        identifiers: [String], entity: StoreEntity, options: PHFetchOptions?,
        computed: @escaping @Sendable (Set<String>) -> [T]
    ) -> PHFetchResult<T> {
        let uuids = identifiers.compactMap { LocalIdentifier($0, fetching: entity) }.filter { $0.entity == entity }.map(\.uuid)
        let kind: CollectionKind = entity == .collectionList ? .collectionList : .assetCollection
        let stored = fetchCollections(scope: .uuids(uuids, kind: kind), options: nil, as: T.self).allObjects
        let missing = Set(uuids).subtracting(stored.compactMap { $0.parsedIdentifier?.uuid })
        guard !missing.isEmpty, !computed(missing).isEmpty else {
            return fetchCollections(scope: .uuids(uuids, kind: kind), options: options, as: T.self)
        }
        return fetchComputed(options: options, as: T.self) { [self] in
            let stored = fetchCollections(scope: .uuids(uuids, kind: kind), options: nil, as: T.self).allObjects
            let missing = Set(uuids).subtracting(stored.compactMap { $0.parsedIdentifier?.uuid })
            var byUUID: [String: T] = [:]
            for collection in stored + computed(missing) {
                if let uuid = collection.parsedIdentifier?.uuid { byUUID[uuid] = collection }
            }
            var seen = Set<String>()
            return uuids.compactMap { uuid in seen.insert(uuid).inserted ? byUUID[uuid] : nil }
        }
    }

    /// Filters and orders a fixed list of collections (a transient list's
    /// members) with the options' predicate and sort, with the same
    /// semantics as stored ones. Such a result never changes.
    func fetchInMemory<T: PHCollection>(_ collections: [PHCollection], options: PHFetchOptions?, as type: T.Type) -> PHFetchResult<T> {
        let (filter, sort, limit) = Self.inMemoryRules(options, for: type)
        return PHFetchResult(contents: FetchedObjects(.objects(filterInMemory(collections, filter: filter, sort: sort, limit: limit))))
    }

    /// Filters and orders collections the library computes (moments, moment
    /// lists); the result follows changes by computing them again.
    func fetchComputed<T: PHCollection>(
        options: PHFetchOptions?, as type: T.Type,
        _ compute: @escaping @Sendable () -> [PHCollection]
    ) -> PHFetchResult<T> {
        let (filter, sort, limit) = Self.inMemoryRules(options, for: type)
        let changeBlock = (try? store?.lastChangeBlock()) ?? 0
        let origin = FetchTracking.Origin.computed { [self] in
            filterInMemory(compute(), filter: filter, sort: sort, limit: limit)
        }
        return PHFetchResult(
            contents: FetchedObjects(.objects(filterInMemory(compute(), filter: filter, sort: sort, limit: limit))),
            tracking: FetchTracking(library: self, origin: origin, changeBlock: changeBlock, options: options))
    }

    private static func inMemoryRules(
        _ options: PHFetchOptions?, for type: PHCollection.Type
    )
        -> (StoreFilter<CollectionAttribute>, [StoreSort<CollectionAttribute>], Int)
    {
        let rules = FetchTranslation<CollectionAttribute>.collections(for: type)
        return (
            translated { () throws(PHPredicateError) in try rules.filter(options?.predicate) },
            translated { () throws(PHPredicateError) in try rules.sort(options?.sortDescriptors) },
            max(0, options?.fetchLimit ?? 0)
        )
    }

    /// The collections the filter keeps, in the sort's order, up to the limit.
    private func filterInMemory(
        _ collections: [PHCollection], filter: StoreFilter<CollectionAttribute>,
        sort: [StoreSort<CollectionAttribute>], limit: Int
    ) -> [PHObject] {
        guard !collections.isEmpty else { return [] }
        if case .constant(true) = filter, sort.isEmpty {
            return limit > 0 ? Array(collections.prefix(limit)) : collections
        }
        guard let store else { return [] }
        do {
            return try store.filterCollectionRows(collections.map(\.filterableRow), filter: filter, sort: sort, limit: limit)
                .map { collections[$0] }
        } catch {
            Diagnostics.report(error, while: "filtering collections")
            return []
        }
    }

    /// The object with this identifier as it is now; nil when it is gone (or,
    /// for an asset, in Recently Deleted).
    func currentObject(_ identifier: LocalIdentifier) -> PHObject? {
        switch identifier.entity {
        case .asset:
            return fetchAssets(scope: .uuids([identifier.uuid]), options: nil).firstObject
        case .assetCollection:
            return fetchCollections(scope: .uuids([identifier.uuid], kind: .assetCollection), options: nil, as: PHAssetCollection.self).firstObject
        case .collectionList:
            return fetchCollections(scope: .uuids([identifier.uuid], kind: .collectionList), options: nil, as: PHCollectionList.self).firstObject
        }
    }

    /// The library's moments, or none when it cannot be read.
    var moments: [MomentRecord] {
        guard let store else { return [] }
        do {
            return try store.moments()
        } catch {
            Diagnostics.report(error, while: "computing moments")
            return []
        }
    }

    /// The library's moment lists of a subtype (cluster or year).
    func momentLists(subtype: PHCollectionListSubtype) -> [MomentListRecord] {
        guard let store else { return [] }
        let subtypes: [PHCollectionListSubtype] = subtype == .any ? [.momentListCluster, .momentListYear] : [subtype]
        do {
            return try subtypes.flatMap { subtype throws(StoreError) in try store.momentLists(subtype: subtype.rawValue) }
        } catch {
            Diagnostics.report(error, while: "computing moment lists")
            return []
        }
    }
}

extension AssetScope {
    /// Whether a fetch without options includes hidden assets: those by
    /// identifier do, as PhotoKit's header says; the others leave them out.
    var includesHiddenAssetsByDefault: Bool {
        if case .uuids = self { return true }
        return false
    }
}

extension PHCollection {
    /// The values fetch predicates can test, for collections held in memory.
    var filterableRow: CollectionRow {
        let uuid = parsedIdentifier?.uuid ?? localIdentifier
        switch self {
        case let collection as PHAssetCollection:
            return CollectionRow(
                uuid: uuid, kind: .assetCollection, title: collection.localizedTitle,
                startDate: collection.startDate, endDate: collection.endDate,
                assetCount: collection.estimatedAssetCount == NSNotFound ? nil : collection.estimatedAssetCount)
        case let list as PHCollectionList:
            return CollectionRow(
                uuid: uuid, kind: .collectionList, title: list.localizedTitle,
                startDate: list.startDate, endDate: list.endDate, assetCount: nil)
        default:
            return CollectionRow(uuid: uuid, kind: .assetCollection, title: localizedTitle, startDate: nil, endDate: nil, assetCount: nil)
        }
    }
}
