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

    static let selection = """
        r.id, r.asset_id, r.type, r.relative_path, r.original_filename, r.uniform_type_identifier,
        r.pixel_width, r.pixel_height, r.file_size
        """

    init(row: Row) {
        id = row[0]
        assetID = row[1]
        type = ResourceType(rawValue: row[2]) ?? .photo
        relativePath = row[3]
        originalFilename = row[4]
        uniformTypeIdentifier = row[5]
        pixelWidth = row[6]
        pixelHeight = row[7]
        fileSize = row[8]
    }
}
