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

    static let selection = """
        c.id, c.uuid, c.kind, c.type, c.subtype, c.title, c.parent_id, c.position,
        c.creation_date, c.modification_date, c.asset_count, c.start_date, c.end_date
        """

    init(row: Row) {
        id = row[0]
        uuid = row[1]
        type = CollectionType(kind: CollectionKind(rawValue: row[2]) ?? .assetCollection, storedType: row[3])
        subtype = row[4]
        title = row[5]
        parentID = row[6]
        position = row[7]
        creationDate = Date(timeIntervalSince1970: row[8])
        modificationDate = Date(timeIntervalSince1970: row[9])
        assetCount = row[10]
        startDate = (row[11] as Double?).map(Date.init(timeIntervalSince1970:))
        endDate = (row[12] as Double?).map(Date.init(timeIntervalSince1970:))
    }
}
