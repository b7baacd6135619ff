import Foundation

extension NSDateInterval {
    /// Whether the interval contains the date; false when there is no date.
    ///
    /// `PHAsset.creationDate` is optional, and Apple's WWDC22 sample passes it
    /// straight to `contains(_:)`; this overload lets that code compile.
    public func contains(_ date: Date?) -> Bool {
        guard let date else { return false }
        return contains(date as Date)
    }
}
