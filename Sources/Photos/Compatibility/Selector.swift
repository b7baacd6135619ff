import Foundation

/// The name of a method or property, as Objective-C code asks an object
/// about it (`asset.responds(to: NSSelectorFromString("filename"))`). Linux's
/// Foundation has no selectors; here a selector is its name, which
/// `responds(to:)` on PhotoKit's objects compares with the keys they answer.
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method's or property's name.
    public let name: String

    /// A selector with this name.
    public init(_ name: String) {
        self.name = name
    }

    /// A selector from a string literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The name.
    public var description: String { name }
}

/// The selector with this name.
public func NSSelectorFromString(_ aSelectorName: String) -> Selector {
    Selector(aSelectorName)
}

/// The name of a selector.
public func NSStringFromSelector(_ aSelector: Selector) -> String {
    aSelector.name
}
