import Photos

/// The catalogue's UUID of an object, from its local identifier
/// (`UUID/L0/001`): what the index is keyed by.
enum LocalIdentifier {
    static func uuid(_ identifier: String) -> String {
        String(identifier.prefix { $0 != "/" })
    }
}

extension PHAsset {
    /// The asset's UUID in the catalogue.
    var uuid: String { LocalIdentifier.uuid(localIdentifier) }
}
