import PhotosStore

extension PHObjectType {
    /// The whole local identifier of the object of this type that `text`
    /// names: a local identifier of this type as it is, or a bare UUID (in
    /// either case) completed with this type's suffix (`/L0/001` for assets).
    /// Nil for anything else, an identifier of another type included. The one
    /// place outside the engine that knows the suffixes: URLs, scripts and the
    /// command line carry bare UUIDs. Cost: one pass over the text.
    package func localIdentifier(_ text: String) -> String? {
        guard let identifier = LocalIdentifier(text, fetching: entity), identifier.entity == entity else { return nil }
        return identifier.description
    }

    /// The type of object a whole local identifier names; nil when `localIdentifier` is not one.
    package init?(localIdentifier: String) {
        guard let identifier = LocalIdentifier(localIdentifier) else { return nil }
        self.init(rawValue: identifier.entity.rawValue)
    }

    /// The engine's name for the same kind; both use PhotoKit's raw values.
    private var entity: StoreEntity {
        switch self {
        case .asset: .asset
        case .assetCollection: .assetCollection
        case .collectionList: .collectionList
        }
    }
}
