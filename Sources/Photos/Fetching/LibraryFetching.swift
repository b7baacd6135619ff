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

    func fetchAssets(scope: AssetScope, options: PHFetchOptions?, extraFilter: StoreFilter<AssetAttribute>? = nil) -> PHFetchResult<PHAsset> {
        let rules = FetchTranslation<AssetAttribute>.assets
        var filter = Self.translated { () throws(PHPredicateError) in try rules.filter(options?.predicate) }
        if let extraFilter {
            filter = .and([extraFilter, filter])
        }
        let query = AssetQuery(
            scope: scope, filter: filter,
            sort: Self.translated { () throws(PHPredicateError) in try rules.sort(options?.sortDescriptors) },
            limit: max(0, options?.fetchLimit ?? 0),
            includeHiddenAssets: options?.includeHiddenAssets ?? false,
            includeAllBurstAssets: options?.includeAllBurstAssets ?? false,
            sourceTypes: Int(options?.includeAssetSourceTypes.rawValue ?? 0))
        guard let store else { return PHFetchResult(contents: .empty) }
        do {
            return PHFetchResult(contents: FetchedObjects(.rows(self, .assets, try store.assetIDs(query))))
        } catch {
            Diagnostics.report(error, while: "fetching assets")
            return PHFetchResult(contents: .empty)
        }
    }

    func fetchCollections<T: PHCollection>(scope: CollectionScope, options: PHFetchOptions?,
                                           as type: T.Type) -> PHFetchResult<T> {
        let rules = FetchTranslation<CollectionAttribute>.collections(for: type)
        let query = CollectionQuery(
            scope: scope,
            filter: Self.translated { () throws(PHPredicateError) in try rules.filter(options?.predicate) },
            sort: Self.translated { () throws(PHPredicateError) in try rules.sort(options?.sortDescriptors) },
            limit: max(0, options?.fetchLimit ?? 0))
        guard let store else { return PHFetchResult(contents: .empty) }
        do {
            return PHFetchResult(contents: FetchedObjects(.rows(self, .collections, try store.collectionIDs(query))))
        } catch {
            Diagnostics.report(error, while: "fetching collections")
            return PHFetchResult(contents: .empty)
        }
    }

    /// Collections by identifier, stored and computed ones (moments, moment
    /// lists) alike, in the order given unless the options sort them.
    /// `computed` returns the computed collections among the UUIDs that no
    /// stored collection has; when there are none, the fetch is one query.
    func fetchCollections<T: PHCollection>(identifiers: [String], entity: StoreEntity, options: PHFetchOptions?,
                                           computed: (Set<String>) -> [T]) -> PHFetchResult<T> {
        let uuids = identifiers.compactMap { LocalIdentifier($0) }.filter { $0.entity == entity }.map(\.uuid)
        let kind: CollectionKind = entity == .collectionList ? .collectionList : .assetCollection
        let stored = fetchCollections(scope: .uuids(uuids, kind: kind), options: nil, as: T.self).allObjects
        let missing = Set(uuids).subtracting(stored.compactMap { $0.parsedIdentifier?.uuid })
        let extra = missing.isEmpty ? [] : computed(missing)
        guard !extra.isEmpty else {
            return fetchCollections(scope: .uuids(uuids, kind: kind), options: options, as: T.self)
        }
        var byUUID: [String: T] = [:]
        for collection in stored + extra {
            if let uuid = collection.parsedIdentifier?.uuid { byUUID[uuid] = collection }
        }
        var seen = Set<String>()
        let ordered = uuids.compactMap { uuid in seen.insert(uuid).inserted ? byUUID[uuid] : nil }
        return fetchInMemory(ordered, options: options, as: T.self)
    }

    /// Filters and orders collections held in memory with the options'
    /// predicate and sort, with the same semantics as stored ones.
    func fetchInMemory<T: PHCollection>(_ collections: [PHCollection], options: PHFetchOptions?, as type: T.Type) -> PHFetchResult<T> {
        let rules = FetchTranslation<CollectionAttribute>.collections(for: type)
        let filter = Self.translated { () throws(PHPredicateError) in try rules.filter(options?.predicate) }
        let sort = Self.translated { () throws(PHPredicateError) in try rules.sort(options?.sortDescriptors) }
        let limit = max(0, options?.fetchLimit ?? 0)
        guard !collections.isEmpty else { return PHFetchResult(contents: .empty) }
        if case .constant(true) = filter, sort.isEmpty {
            let kept = limit > 0 ? Array(collections.prefix(limit)) : collections
            return PHFetchResult(contents: FetchedObjects(.objects(kept)))
        }
        guard let store else { return PHFetchResult(contents: .empty) }
        do {
            let indexes = try store.filterCollectionRows(collections.map(\.filterableRow), filter: filter, sort: sort, limit: limit)
            return PHFetchResult(contents: FetchedObjects(.objects(indexes.map { collections[$0] })))
        } catch {
            Diagnostics.report(error, while: "filtering collections")
            return PHFetchResult(contents: .empty)
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

extension PHCollection {
    /// The values fetch predicates can test, for collections held in memory.
    var filterableRow: CollectionRow {
        let uuid = parsedIdentifier?.uuid ?? localIdentifier
        switch self {
        case let collection as PHAssetCollection:
            return CollectionRow(uuid: uuid, kind: .assetCollection, title: collection.localizedTitle,
                                 startDate: collection.startDate, endDate: collection.endDate,
                                 assetCount: collection.estimatedAssetCount == NSNotFound ? nil : collection.estimatedAssetCount)
        case let list as PHCollectionList:
            return CollectionRow(uuid: uuid, kind: .collectionList, title: list.localizedTitle,
                                 startDate: list.startDate, endDate: list.endDate, assetCount: nil)
        default:
            return CollectionRow(uuid: uuid, kind: .assetCollection, title: localizedTitle, startDate: nil, endDate: nil, assetCount: nil)
        }
    }
}
