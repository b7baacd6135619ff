import Foundation

/// Fetch options written as text, an OpenPhotoKit addition for tools and
/// servers that take them from people: a predicate in PhotoKit's format
/// language and sort keys such as `creationDate:desc,pixelWidth`.
extension PHFetchOptions {
    /// Options filtering by `predicateFormat` and sorting by `sortKeys`
    /// (comma-separated `key`, `key:asc` or `key:desc`), checked against
    /// the keys PhotoKit supports for `objectClass`. Throws an error with
    /// the position of the problem; nil arguments leave the defaults.
    public convenience init(predicateFormat: String?, sortKeys: String?, for objectClass: PHObject.Type) throws(PHPredicateError) {
        self.init()
        if let predicateFormat {
            predicate = try NSPredicate(validatingFormat: predicateFormat, argumentArray: nil)
        }
        if let sortKeys {
            sortDescriptors = try Self.sortDescriptors(sortKeys)
        }
        try validate(for: objectClass)
    }

    private static func sortDescriptors(_ text: String) throws(PHPredicateError) -> [NSSortDescriptor] {
        var descriptors: [NSSortDescriptor] = []
        var offset = 0
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            defer { offset += item.count + 1 }
            let parts = item.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else {
                throw PHPredicateError(reason: "a sort key is missing, such as creationDate:desc", format: text, position: offset)
            }
            var ascending = true
            if parts.count == 2 {
                switch parts[1].trimmingCharacters(in: .whitespaces).lowercased() {
                case "asc", "ascending": ascending = true
                case "desc", "descending": ascending = false
                default:
                    throw PHPredicateError(
                        reason: "the order after ':' must be asc or desc", format: text,
                        position: offset + parts[0].count + 1)
                }
            }
            descriptors.append(NSSortDescriptor(key: key, ascending: ascending))
        }
        return descriptors
    }
}
