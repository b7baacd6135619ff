import Foundation
import GRDB

/// A file stored for an asset.
package struct ResourceRecord: Sendable, Equatable {
    package var id: Int64
    package var assetID: Int64
    package var type: ResourceType
    /// The file's path relative to the library root.
    package var relativePath: String
    package var originalFilename: String
    package var uniformTypeIdentifier: String
    package var pixelWidth: Int
    package var pixelHeight: Int
    package var fileSize: Int64

    /// The `resource` table's columns, in the order they are read.
    enum Column: Int, ColumnList {
        case id, assetId, type, relativePath, originalFilename, uniformTypeIdentifier, pixelWidth, pixelHeight, fileSize
    }

    static let selection = Column.selection(TableAlias("r", of: "resource"))

    /// Decodes a row selected with `selection`.
    init(row: SQLRow) throws(StoredValueError) {
        typealias C = Column
        id = try row[C.id.rawValue]
        assetID = try row[C.assetId.rawValue]
        type = ResourceType(rawValue: try row[C.type.rawValue]) ?? .photo
        relativePath = try row[C.relativePath.rawValue]
        originalFilename = try row[C.originalFilename.rawValue]
        uniformTypeIdentifier = try row[C.uniformTypeIdentifier.rawValue]
        pixelWidth = try row[C.pixelWidth.rawValue]
        pixelHeight = try row[C.pixelHeight.rawValue]
        fileSize = try row[C.fileSize.rawValue]
    }
}
