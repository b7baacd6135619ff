/// Which assets each view of a library shows, written once for every
/// query, trigger, view and check that needs the rule, on either database.
///
/// Each rule is a condition on the asset row a ``TableAlias`` names
/// (``TableAlias/asset`` for `a.trashed_date`, a trigger's `NEW` row), or
/// on the bare columns (``TableAlias/bare``, a statement over `asset` alone). The rules nest: what the timeline
/// counts is what a default fetch shows, from the user's library; that is
/// what an album shows, less a burst's hidden members; that is every asset
/// outside Recently Deleted, less the hidden ones.
package enum ShownAssets {
    /// Outside Recently Deleted: the assets an import's duplicate check compares with.
    package static func notDeleted(_ alias: TableAlias) -> String {
        "\(alias["trashed_date"]) IS NULL"
    }

    /// What an album shows and counts: not deleted and not hidden.
    package static func inAlbum(_ alias: TableAlias) -> String {
        "\(notDeleted(alias)) AND \(alias["is_hidden"]) = 0"
    }

    /// What a fetch with default options shows of the assets its source
    /// holds: also none of a burst's members but its representative.
    package static func inDefaultFetch(_ alias: TableAlias) -> String {
        "\(inAlbum(alias)) AND \(alias["burst_member_hidden"]) = 0"
    }

    /// What the library's timeline and its month counts show: a default
    /// fetch's assets that come from the user's library (not shared or
    /// cloud-shared ones).
    package static func inTimeline(_ alias: TableAlias) -> String {
        "\(inDefaultFetch(alias)) AND \(alias["source_type"]) = \(AssetSourceTypes.userLibrary.rawValue)"
    }
}
