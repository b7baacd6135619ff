import Foundation
import PhotosMedia
import PhotosStore

/// A collection of collections: a folder of albums and folders, a moment
/// list, or a transient list that lives only in memory.
open class PHCollectionList: PHCollection, @unchecked Sendable {
    enum Content: Sendable {
        case stored(CollectionRecord)
        case momentList(MomentListRecord)
        case transient(collections: [PHCollection], title: String?)
        /// Deleted since the fetch that named it; the row id it had.
        case deleted(rowID: Int64)
        /// The library's root folder: its top-level albums and folders.
        case root
    }

    let content: Content

    init(content: Content, localIdentifier: String, library: PHPhotoLibrary?) {
        self.content = content
        super.init(localIdentifier: localIdentifier, library: library)
    }

    convenience init(record: CollectionRecord, library: PHPhotoLibrary?) {
        self.init(content: .stored(record), localIdentifier: record.identifier.description, library: library)
    }

    convenience init(momentList: MomentListRecord, library: PHPhotoLibrary?) {
        self.init(
            content: .momentList(momentList),
            localIdentifier: LocalIdentifier(uuid: momentList.uuid, entity: .collectionList).description,
            library: library)
    }

    /// The library's root folder, whose children are its top-level albums
    /// and folders: one per library, never stored, named by the library's
    /// own UUID (which no object of it has). Nil for a library not open.
    static func rootFolder(of library: PHPhotoLibrary) -> PHCollectionList? {
        guard let store = library.store else { return nil }
        return PHCollectionList(
            content: .root, localIdentifier: LocalIdentifier(uuid: store.libraryUUID, entity: .collectionList).description, library: library)
    }

    /// Whether this is the library's root folder.
    var isRootFolder: Bool {
        if case .root = content { return true }
        return false
    }

    /// Always true: collection lists hold collections.
    public override var canContainCollections: Bool { true }

    /// The folder's title, or the year of a year moment list.
    public override var localizedTitle: String? {
        switch content {
        case .stored(let record): record.title
        case .momentList(let list): list.title
        case .transient(_, let title): title
        case .deleted, .root: nil
        }
    }

    /// Folder or moment list.
    public var collectionListType: PHCollectionListType {
        switch content {
        case .stored(let record): PHCollectionListType(record.type) ?? .folder
        case .momentList: .momentList
        case .transient, .deleted, .root: .folder
        }
    }

    /// Which kind of folder or moment list.
    public var collectionListSubtype: PHCollectionListSubtype {
        switch content {
        case .stored(let record): PHCollectionListSubtype(rawValue: record.subtype) ?? .regularFolder
        case .momentList(let list): PHCollectionListSubtype(rawValue: list.subtype) ?? .momentListYear
        case .transient, .deleted: .regularFolder
        case .root: .rootFolder
        }
    }

    /// The start of a moment list; nil for folders.
    public var startDate: Date? {
        if case .momentList(let list) = content { return list.startDate }
        return nil
    }

    /// The end of a moment list; nil for folders.
    public var endDate: Date? {
        if case .momentList(let list) = content { return list.endDate }
        return nil
    }

    /// The cities a moment list's moments were taken in, each once, in the
    /// moments' order (each moment's ``PHAssetCollection/localizedTitle``);
    /// empty for other lists. Cost: a read of the library's moments (kept
    /// until the library changes) and a few microseconds per moment.
    public var localizedLocationNames: [String] {
        guard case .momentList(let list) = content else { return [] }
        let members = Set(list.momentUUIDs)
        var cities: [String] = []
        for moment in (library ?? PHPhotoLibrary.current).moments where members.contains(moment.uuid) {
            guard let latitude = moment.latitude, let longitude = moment.longitude,
                let city = ReverseGeocoder.place(latitude: latitude, longitude: longitude)?.name, !cities.contains(city)
            else { continue }
            cities.append(city)
        }
        return cities
    }

    /// Folders allow every edit; moment lists and transient lists allow none.
    public override func canPerform(_ anOperation: PHCollectionEditOperation) -> Bool {
        switch content {
        case .stored(let record): return record.type == .folder
        // The root folder takes, makes and orders the top level; it is never renamed or deleted.
        case .root: return [.addContent, .createContent, .rearrangeContent].contains(anOperation)
        case .momentList, .transient, .deleted: return false
        }
    }

    override var storedRowID: Int64? {
        switch content {
        case .stored(let record): record.id
        case .deleted(let rowID): rowID
        case .momentList, .transient, .root: nil
        }
    }

    open override var description: String {
        "<PHCollectionList> \(localIdentifier) \(localizedTitle ?? "") "
            + "collectionListType=\(collectionListType.rawValue)/\(collectionListSubtype.rawValue)"
    }
}
