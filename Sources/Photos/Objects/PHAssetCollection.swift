import Foundation
import PhotosMedia
import PhotosStore

/// A collection of assets: an album the user made, a smart album the library
/// computes (Favorites, Videos, Recently Deleted...), a moment, or a
/// transient collection that lives only in memory.
open class PHAssetCollection: PHCollection, @unchecked Sendable {
    enum Content: Sendable {
        case stored(CollectionRecord)
        case moment(MomentRecord)
        case transient(assetRowIDs: [Int64], title: String?, startDate: Date?, endDate: Date?)
        /// Deleted since the fetch that named it; the row id it had.
        case deleted(rowID: Int64)
    }

    let content: Content

    init(content: Content, localIdentifier: String, library: PHPhotoLibrary?) {
        self.content = content
        super.init(localIdentifier: localIdentifier, library: library)
    }

    convenience init(record: CollectionRecord, library: PHPhotoLibrary?) {
        self.init(content: .stored(record), localIdentifier: record.identifier.description, library: library)
    }

    convenience init(moment: MomentRecord, library: PHPhotoLibrary?) {
        self.init(
            content: .moment(moment),
            localIdentifier: LocalIdentifier(uuid: moment.uuid, entity: .assetCollection).description,
            library: library)
    }

    /// Always true: asset collections hold assets.
    public override var canContainAssets: Bool { true }

    /// The album's title; for a moment, the city it was taken in (nil
    /// without one, ``localizedLocationNames``).
    public override var localizedTitle: String? {
        switch content {
        case .stored(let record): record.title
        case .transient(_, let title, _, _): title
        case .moment: place?.name
        case .deleted: nil
        }
    }

    /// Album, smart album or moment.
    public var assetCollectionType: PHAssetCollectionType {
        switch content {
        case .stored(let record): PHAssetCollectionType(record.type) ?? .album
        case .moment: .moment
        case .transient, .deleted: .album
        }
    }

    /// Which kind of album or smart album; `.any` for moments.
    public var assetCollectionSubtype: PHAssetCollectionSubtype {
        switch content {
        case .stored(let record): PHAssetCollectionSubtype(rawValue: record.subtype) ?? .any
        case .moment: .any
        case .transient, .deleted: .albumRegular
        }
    }

    /// The number of assets, when it can be known quickly: for albums,
    /// moments and transient collections; `NSNotFound` for smart albums,
    /// whose membership is computed.
    public var estimatedAssetCount: Int {
        switch content {
        case .stored(let record): record.assetCount ?? NSNotFound
        case .moment(let moment): moment.assetCount
        case .transient(let ids, _, _, _): ids.count
        case .deleted: 0
        }
    }

    /// The earliest creation date of the collection's assets.
    public var startDate: Date? {
        switch content {
        case .stored(let record): record.startDate
        case .moment(let moment): moment.startDate
        case .transient(_, _, let start, _): start
        case .deleted: nil
        }
    }

    /// The latest creation date of the collection's assets.
    public var endDate: Date? {
        switch content {
        case .stored(let record): record.endDate
        case .moment(let moment): moment.endDate
        case .transient(_, _, _, let end): end
        case .deleted: nil
        }
    }

    /// The centre of a moment's located assets; nil for other collections.
    public var approximateLocation: CLLocation? {
        guard case .moment(let moment) = content, let latitude = moment.latitude, let longitude = moment.longitude else {
            return nil
        }
        return CLLocation(latitude: latitude, longitude: longitude)
    }

    /// Where a moment was taken, from its city to its country (`["Paris",
    /// "Île-de-France Region", "France"]`), named offline from GeoNames'
    /// cities (``approximateLocation``'s, in English); empty for a moment
    /// without located assets or far from any town, and for other
    /// collections. A moment's ``localizedTitle`` is its city.
    /// Cost: a few microseconds (the first call of a process reads the cities, a few milliseconds).
    public var localizedLocationNames: [String] {
        guard let place else { return [] }
        var names: [String] = []
        for name in [place.name, place.region, place.country] where !name.isEmpty && !names.contains(name) { names.append(name) }
        return names
    }

    /// The place of a moment's centre; nil for other collections.
    private var place: GeoNamesCities.City? {
        guard case .moment(let moment) = content, let latitude = moment.latitude, let longitude = moment.longitude else { return nil }
        return ReverseGeocoder.place(latitude: latitude, longitude: longitude)
    }

    /// Regular albums allow every edit; smart albums, moments and transient
    /// collections allow none.
    public override func canPerform(_ anOperation: PHCollectionEditOperation) -> Bool {
        guard case .stored(let record) = content else { return false }
        return record.type == .album
    }

    override var storedRowID: Int64? {
        switch content {
        case .stored(let record): record.id
        case .deleted(let rowID): rowID
        case .moment, .transient: nil
        }
    }

    open override var description: String {
        "<PHAssetCollection> \(localIdentifier) \(localizedTitle ?? "") "
            + "assetCollectionType=\(assetCollectionType.rawValue)/\(assetCollectionSubtype.rawValue)"
    }
}
