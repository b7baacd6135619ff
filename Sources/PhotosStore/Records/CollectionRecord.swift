import Foundation
import GRDB

/// A collection row with what is computed from its members.
package struct CollectionRecord: Sendable, Equatable {
    package var id: Int64
    package var uuid: String
    package var type: CollectionType
    /// PhotoKit's subtype raw value (`PHAssetCollectionSubtype` or `PHCollectionListSubtype`).
    package var subtype: Int
    package var title: String?
    package var parentID: Int64?
    package var position: Int
    package var creationDate: Date
    package var modificationDate: Date
    /// The number of visible assets of a regular album; nil for smart albums and folders.
    package var assetCount: Int?
    /// The earliest creation date of a regular album's visible assets.
    package var startDate: Date?
    /// The latest creation date of a regular album's visible assets.
    package var endDate: Date?

    package var kind: CollectionKind { type.kind }
    package var identifier: LocalIdentifier { LocalIdentifier(uuid: uuid, entity: kind.entity) }

    /// The columns read, in order: the `collection` table's, then those
    /// `FetchSQL.collectionSource` computes from the members.
    enum Column: Int, ColumnList {
        case id, uuid, kind, type, subtype, title, parentId, position, creationDate, modificationDate
        case assetCount, startDate, endDate
    }

    static let selection = Column.selection(.collection)

    /// Decodes a row selected with `selection`.
    init(row: any SQLColumnReader) throws(StoredValueError) {
        typealias C = Column
        id = try row[C.id.rawValue]
        uuid = try row[C.uuid.rawValue]
        type = CollectionType(kind: CollectionKind(rawValue: try row[C.kind.rawValue]) ?? .assetCollection, storedType: try row[C.type.rawValue])
        subtype = try row[C.subtype.rawValue]
        title = try row[C.title.rawValue]
        parentID = try row[C.parentId.rawValue]
        position = try row[C.position.rawValue]
        creationDate = Date(timeIntervalSince1970: try row[C.creationDate.rawValue])
        modificationDate = Date(timeIntervalSince1970: try row[C.modificationDate.rawValue])
        assetCount = try row[C.assetCount.rawValue]
        startDate = (try row[C.startDate.rawValue] as Double?).map(Date.init(timeIntervalSince1970:))
        endDate = (try row[C.endDate.rawValue] as Double?).map(Date.init(timeIntervalSince1970:))
    }
}
