import Foundation

/// A value in a stored column's own representation: dates are seconds since
/// 1970, booleans 0 and 1.
package enum StoreValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// A column or computed value a filter or sort can name.
package protocol StoreAttribute: Sendable, Hashable {
    /// The SQL expression for the attribute, given the alias of the row's
    /// table; for a list (``isList``), the column holding it as a JSON array.
    func sql(alias: TableAlias) -> String
    /// Whether the attribute holds a list of texts per row (an asset's
    /// keywords), which only ``StoreFilter/anyElement(_:_:_:_:)`` compares.
    var isList: Bool { get }
}

extension StoreAttribute {
    package var isList: Bool { false }
}

/// How two values compare. String comparisons honour `TextOptions`.
package enum StoreComparison: Sendable, Hashable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    case contains, beginsWith, endsWith
    /// NSPredicate's LIKE: `*` matches any run of characters, `?` one character.
    case like
}

/// NSPredicate's `[c]` and `[d]` string options.
package struct TextOptions: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    package static let caseInsensitive = TextOptions(rawValue: 1)
    package static let diacriticInsensitive = TextOptions(rawValue: 2)
}

/// One side of a comparison.
package indirect enum StoreOperand<Attribute: StoreAttribute>: Sendable, Hashable {
    case attribute(Attribute)
    case value(StoreValue)
    /// Bitwise AND of two integer operands, as in `(mediaSubtypes & 4) != 0`.
    case bitwiseAnd(StoreOperand, StoreOperand)
}

/// A condition on rows, evaluated by SQLite with SQL's three-valued logic:
/// a comparison with NULL is unknown, and unknown rows are left out.
package indirect enum StoreFilter<Attribute: StoreAttribute>: Sendable, Hashable {
    case constant(Bool)
    case compare(StoreOperand<Attribute>, StoreComparison, StoreOperand<Attribute>, TextOptions)
    /// The operand equals one of the values.
    case oneOf(StoreOperand<Attribute>, [StoreValue])
    /// Some element of a list attribute compares with the value: NSPredicate's
    /// `ANY keywords == 'x'`. A row whose list is empty never matches.
    case anyElement(Attribute, StoreComparison, StoreValue, TextOptions)
    case and([StoreFilter])
    case or([StoreFilter])
    case not(StoreFilter)

    /// Matches every row.
    package static var all: StoreFilter { .constant(true) }
}

/// One ordering key.
package struct StoreSort<Attribute: StoreAttribute>: Sendable, Hashable {
    package var attribute: Attribute
    package var ascending: Bool

    package init(_ attribute: Attribute, ascending: Bool) {
        self.attribute = attribute
        self.ascending = ascending
    }
}

/// What asset fetches can filter and sort on.
package enum AssetAttribute: String, StoreAttribute, CaseIterable {
    case rowID
    /// The UUID part of the local identifier (indexed).
    case uuid
    case localIdentifier
    case creationDate, modificationDate, addedDate
    case mediaType, mediaSubtypes, duration, pixelWidth, pixelHeight
    case isFavorite, isHidden, burstIdentifier, playbackStyle
    case rating, caption
    /// A list: the keywords, as a JSON array.
    case keywords
    /// Where the asset was taken, in degrees; null when it is not located.
    case latitude, longitude

    package var isList: Bool { self == .keywords }

    package func sql(alias a: TableAlias) -> String {
        switch self {
        case .rowID: "\(a["id"])"
        case .uuid: "\(a["uuid"])"
        case .localIdentifier: "(\(a["uuid"]) || '\(StoreEntity.asset.identifierSuffix)')"
        case .creationDate: "\(a["creation_date"])"
        case .modificationDate: "\(a["modification_date"])"
        case .addedDate: "\(a["added_date"])"
        case .mediaType: "\(a["media_type"])"
        case .mediaSubtypes: "\(a["media_subtypes"])"
        case .duration: "\(a["duration"])"
        case .pixelWidth: "\(a["pixel_width"])"
        case .pixelHeight: "\(a["pixel_height"])"
        case .isFavorite: "\(a["is_favorite"])"
        case .isHidden: "\(a["is_hidden"])"
        case .burstIdentifier: "\(a["burst_identifier"])"
        case .playbackStyle: "\(a["playback_style"])"
        case .rating: "\(a["rating"])"
        case .caption: "\(a["caption"])"
        case .keywords: "\(a["keywords"])"
        case .latitude: "\(a["latitude"])"
        case .longitude: "\(a["longitude"])"
        }
    }
}

/// What collection fetches can filter and sort on.
package enum CollectionAttribute: String, StoreAttribute, CaseIterable {
    case rowID
    /// The UUID part of the local identifier (indexed).
    case uuid
    case localIdentifier
    case title, startDate, endDate, estimatedAssetCount

    package func sql(alias c: TableAlias) -> String {
        switch self {
        case .rowID: "\(c["id"])"
        case .uuid: "\(c["uuid"])"
        case .localIdentifier:
            "(\(c["uuid"]) || CASE \(c["kind"]) WHEN 1 THEN '\(StoreEntity.assetCollection.identifierSuffix)' ELSE '\(StoreEntity.collectionList.identifierSuffix)' END)"
        case .title: "\(c["title"])"
        case .startDate: "\(c["start_date"])"
        case .endDate: "\(c["end_date"])"
        case .estimatedAssetCount: "\(c["asset_count"])"
        }
    }
}
