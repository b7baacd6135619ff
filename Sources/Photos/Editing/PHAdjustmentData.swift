import Foundation

/// What an editor needs to reopen its edit of an asset: its own format
/// identifier and version, and its data (the parameters of the edit).
/// Stored with the asset next to the rendered result.
open class PHAdjustmentData: NSObject, @unchecked Sendable {
    /// Identifies the editor's format, as a reverse-DNS name.
    public let formatIdentifier: String
    /// The version of that format.
    public let formatVersion: String
    /// The editor's own description of the edit.
    public let data: Data

    /// Adjustment data in an editor's format.
    public init(formatIdentifier: String, formatVersion: String, data: Data) {
        self.formatIdentifier = formatIdentifier
        self.formatVersion = formatVersion
        self.data = data
    }

    /// The property list the library stores it as.
    var propertyList: Data {
        let object: [String: Any] = ["formatIdentifier": formatIdentifier, "formatVersion": formatVersion, "data": data]
        return (try? PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)) ?? Data()
    }

    /// Reads what `propertyList` wrote; nil when the file is not that.
    convenience init?(propertyList: Data) {
        guard let object = try? PropertyListSerialization.propertyList(from: propertyList, format: nil) as? [String: Any],
            let identifier = object["formatIdentifier"] as? String, let version = object["formatVersion"] as? String,
            let data = object["data"] as? Data
        else { return nil }
        self.init(formatIdentifier: identifier, formatVersion: version, data: data)
    }

    public override var description: String {
        "<PHAdjustmentData> \(formatIdentifier) \(formatVersion), \(data.count) bytes"
    }
}
