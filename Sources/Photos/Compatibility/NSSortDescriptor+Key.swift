import Foundation

// swift-corelibs-foundation declares NSSortDescriptor(key:ascending:) and
// `key` unavailable (it has no key-value coding). These take their place for
// PhotoKit fetches. The key rides in the comparator, which a probe reads back.

/// Receives a sort descriptor's key from its comparator.
private final class SortKeyProbe: NSObject {
    var key: String?
}

extension NSSortDescriptor {
    /// Creates a sort descriptor for a key, such as `creationDate`. Cost: none.
    public convenience init(key: String?, ascending: Bool) {
        self.init(keyPath: \NSObject.self, ascending: ascending) { lhs, _ in
            if let probe = lhs as? SortKeyProbe {
                probe.key = key
            }
            return .orderedSame
        }
    }

    /// The key the descriptor sorts by, when it was made with
    /// ``init(key:ascending:)``; nil otherwise.
    public var key: String? {
        // Only descriptors made above use the identity key path; probing one
        // made with another key path would apply it to the probe and trap.
        guard keyPath == \NSObject.self as AnyKeyPath else { return nil }
        let probe = SortKeyProbe()
        _ = compare(probe, to: probe)
        return probe.key
    }
}
