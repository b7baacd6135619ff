import Foundation

/// What an update changed about an object, as a history entry records it.
///
/// The stored names are persisted (a comma-separated list in
/// `change_entry.attributes`) and read back by every later version, so a
/// name is never changed or removed; a golden test pins them. They are not
/// the enum's raw values: the standard library hashes an enum backed by
/// `String` by its text, which every lookup in a set of attributes (each
/// update read from history, each change an observer sorts) would pay; a
/// plain enum hashes its case.
package enum ChangedAttribute: Sendable, Hashable, CaseIterable, Comparable {
    /// An asset's favorite flag.
    case favorite
    /// An asset's hidden flag.
    case hidden
    /// An asset's creation date.
    case creationDate
    /// An asset's location.
    case location
    /// An asset went to Recently Deleted.
    case trashed
    /// An asset came back from Recently Deleted.
    case restored
    /// An asset's content: an edit rendered, or reverted to the original.
    case content
    /// A collection's title.
    case title
    /// A collection's ordered members (assets of an album, children of a folder).
    case members
    /// A collection moved to another folder or to the top level.
    case parent
    /// A top-level collection moved among the others (the top level has no object of its own).
    case position
    /// An album's visible assets' count or date range, after its members were hidden, trashed or re-dated.
    case summary
    /// What a client may see changed: its grant, or an asset entering or leaving its selection.
    case access
    /// An asset's rating.
    case rating
    /// An asset's caption.
    case caption
    /// An asset's keywords.
    case keywords
    /// Whether a Live Photo plays its motion or shows as a still.
    case livePhotoPlayback
    /// An asset's burst: look-alikes stacked (``AssetStack``).
    case burst

    /// The name a stored list of attributes writes for this case.
    package var storedName: String {
        switch self {
        case .favorite: "favorite"
        case .hidden: "hidden"
        case .creationDate: "creationDate"
        case .location: "location"
        case .trashed: "trashed"
        case .restored: "restored"
        case .content: "content"
        case .rating: "rating"
        case .caption: "caption"
        case .keywords: "keywords"
        case .livePhotoPlayback: "livePhotoPlayback"
        case .burst: "burst"
        case .title: "title"
        case .members: "members"
        case .parent: "parent"
        case .position: "position"
        case .summary: "summary"
        case .access: "access"
        }
    }

    /// The case a stored name names; nil for a name this version does not know.
    package init?(storedName: some StringProtocol) {
        guard let attribute = Self.allCases.first(where: { $0.storedName == storedName }) else { return nil }
        self = attribute
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.storedName < rhs.storedName }

    /// The stored form of a set of attributes: their raw values, sorted and comma-separated.
    package static func storedList(_ attributes: Set<ChangedAttribute>) -> String {
        attributes.map(\.storedName).sorted().joined(separator: ",")
    }

    /// The attributes of a stored list. A value this version does not know
    /// (none exists: libraries from newer versions are refused) is skipped.
    package static func attributes(storedList: String) -> Set<ChangedAttribute> {
        guard !storedList.isEmpty else { return [] }
        return Set(storedList.split(separator: ",").compactMap { ChangedAttribute(storedName: $0) })
    }
}
