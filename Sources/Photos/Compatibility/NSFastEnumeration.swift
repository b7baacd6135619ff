import Foundation

/// A collection whose elements PhotoKit APIs can walk, such as the assets
/// passed to `PHAssetCollectionChangeRequest.addAssets(_:)`.
///
/// Apple's Foundation declares this protocol for Objective-C collections;
/// swift-corelibs-foundation does not, so `Photos` does. `NSArray`, `NSSet`,
/// `NSOrderedSet`, Swift arrays and sets, and `PHFetchResult` conform, so
/// `addAssets([placeholder] as NSArray)` and `as NSFastEnumeration` compile.
public protocol NSFastEnumeration {
    /// The elements in enumeration order. Cost: a copy of the element references.
    var _fastEnumerationElements: [Any] { get }
}

/// Walks any `NSFastEnumeration`, as Apple's overlay allows with `for ... in`.
public struct NSFastEnumerationIterator: IteratorProtocol {
    private var elements: IndexingIterator<[Any]>

    /// Starts an iteration over the enumeration's elements.
    public init(_ enumerable: any NSFastEnumeration) {
        elements = enumerable._fastEnumerationElements.makeIterator()
    }

    /// The next element, or nil after the last one.
    public mutating func next() -> Any? {
        elements.next()
    }
}

extension NSArray: NSFastEnumeration {
    /// The elements, in order.
    public var _fastEnumerationElements: [Any] { (0..<count).map { object(at: $0) } }
}

extension NSSet: NSFastEnumeration {
    /// The elements, in order.
    public var _fastEnumerationElements: [Any] { allObjects }
}

extension NSOrderedSet: NSFastEnumeration {
    /// The elements, in order.
    public var _fastEnumerationElements: [Any] { array }
}

extension Array: NSFastEnumeration {
    /// The elements, in order.
    public var _fastEnumerationElements: [Any] { map { $0 as Any } }
}

extension Set: NSFastEnumeration {
    /// The elements, in order.
    public var _fastEnumerationElements: [Any] { map { $0 as Any } }
}
