import Foundation
import PhotosStore

/// The base of PhotoKit's model objects: an immutable snapshot identified by
/// its local identifier. Two objects are equal when their identifiers are,
/// whichever fetch (or change block) made them.
open class PHObject: NSObject, NSCopying, @unchecked Sendable {
    /// Identifies the object persistently in this library, as `UUID/L0/001`
    /// for assets, `UUID/L0/040` for asset collections and `UUID/L0/020` for
    /// collection lists.
    public let localIdentifier: String

    /// The library the object was read from; nil for placeholders of objects
    /// not created yet and for transient objects.
    let library: PHPhotoLibrary?

    init(localIdentifier: String, library: PHPhotoLibrary?) {
        self.localIdentifier = localIdentifier
        self.library = library
    }

    /// Objects are immutable, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// True when `object` is a `PHObject` with the same local identifier.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PHObject else { return false }
        return other.localIdentifier == localIdentifier
    }

    open override var hash: Int { localIdentifier.hashValue }

    open override var description: String {
        "<\(type(of: self))> \(localIdentifier)"
    }

    /// The identifier parsed, when it has the shape of one.
    var parsedIdentifier: LocalIdentifier? { LocalIdentifier(localIdentifier) }

    // MARK: - Key-value coding

    /// The value of a property by its Objective-C name: every documented
    /// property, and the private keys real clients read (see
    /// `KeyValueCoding`). An unknown key calls ``value(forUndefinedKey:)``,
    /// which traps as Apple's raises. Cost: a property read; `filename`'s
    /// relatives and a resource's keys read the asset's resources.
    open func value(forKey key: String) -> Any? {
        KeyValueCoding.lookup(key, on: self).value { value(forUndefinedKey: key) }
    }

    /// Called for a key the object does not have: traps, naming the class
    /// and the key, as Apple's `valueForUndefinedKey:` raises
    /// `NSUnknownKeyException`. Subclasses may answer instead.
    open func value(forUndefinedKey key: String) -> Any? {
        KeyValueCoding.undefinedKey(key, of: self)
    }

    /// Whether the object answers the method or property key `aSelector`
    /// names: the guard clients put before ``value(forKey:)``.
    open func responds(to aSelector: Selector?) -> Bool {
        aSelector.map { KeyValueCoding.lookup($0.name, on: self).isFound } ?? false
    }
}

extension PHObject: CVarArg {
    /// Lets objects be `%@` arguments of `NSPredicate(format:)`, which reads
    /// them by type; C formatters receive an NSString of the description.
    public var _cVarArgEncoding: [Int] { describedEncoding(self) }
}

/// Stands for an object a change block creates: usable inside the block
/// (to add a new asset to an album) and after it (its `localIdentifier`
/// fetches the created object, which compares equal to it).
open class PHObjectPlaceholder: PHObject, @unchecked Sendable {}
