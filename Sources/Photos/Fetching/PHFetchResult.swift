import Foundation
import PhotosStore

/// The ordered result of a fetch. Which objects it holds, and their order,
/// are fixed when it is made (`count` is constant and O(1)); the objects
/// themselves are read from the library on demand: a window of 32 around an
/// index read at random (the last 64 windows are kept), or chunks of 1,024
/// while enumerating. A result of a
/// million assets costs its ids (8 MB) plus that cache.
///
/// Like Apple's, it is not a Swift `Sequence`: walk it with
/// `enumerateObjects` or indexes. It is safe to read from any thread.
public final class PHFetchResult<ObjectType: AnyObject>: NSObject, NSCopying, NSFastEnumeration, @unchecked Sendable {
    let contents: FetchedObjects
    /// How to bring the result up to date; nil for results that never
    /// change (transient collections' contents, empty placeholders).
    let tracking: FetchTracking?

    init(contents: FetchedObjects, tracking: FetchTracking? = nil) {
        self.contents = contents
        self.tracking = tracking
    }

    /// The number of objects. Cost: O(1).
    public var count: Int { contents.count }

    /// The object at `index`; traps when the index is out of bounds, as
    /// PhotoKit raises. Cost: a cache hit, or one query for its batch.
    public func object(at index: Int) -> ObjectType {
        precondition(index >= 0 && index < count, "index \(index) beyond bounds \(count == 0 ? "for empty fetch result" : "[0 .. \(count - 1)]")")
        return Self.typed(contents.object(at: index))
    }

    /// The object as the result's element type. Fetches build every object,
    /// deleted ones included, as the class their rows are, so the checked
    /// conversion never fails; if it ever did, it would stop here, naming
    /// both types, rather than hand out an object of the wrong class.
    private static func typed(_ object: PHObject) -> ObjectType {
        guard let typed = object as? ObjectType else {
            preconditionFailure("internal error: a \(type(of: object)) in a PHFetchResult<\(ObjectType.self)>")
        }
        return typed
    }

    /// The object at `idx`; see ``object(at:)``.
    public subscript(idx: Int) -> ObjectType {
        object(at: idx)
    }

    /// The first object, or nil when empty.
    public var firstObject: ObjectType? {
        count == 0 ? nil : object(at: 0)
    }

    /// The last object, or nil when empty.
    public var lastObject: ObjectType? {
        count == 0 ? nil : object(at: count - 1)
    }

    /// Whether an object with the same identifier is in the result. Cost: a
    /// scan of the ids.
    public func contains(_ anObject: ObjectType) -> Bool {
        index(of: anObject) != NSNotFound
    }

    /// The index of the object, or `NSNotFound`. Cost: a scan of the ids.
    public func index(of anObject: ObjectType) -> Int {
        index(of: anObject, in: NSRange(location: 0, length: count))
    }

    /// The index of the object within a range of indexes, or `NSNotFound`.
    public func index(of anObject: ObjectType, in range: NSRange) -> Int {
        guard let object = anObject as? PHObject else { return NSNotFound }
        let lower = max(0, range.location)
        let upper = min(count, range.location + range.length)
        guard lower < upper else { return NSNotFound }
        return contents.position(of: object, in: lower..<upper) ?? NSNotFound
    }

    /// The objects at the indexes, in ascending order of index.
    public func objects(at indexes: IndexSet) -> [ObjectType] {
        indexes.rangeView.flatMap { range in
            precondition(range.upperBound <= count, "index \(range.upperBound - 1) beyond bounds [0 .. \(count - 1)]")
            return contents.objects(in: range).map(Self.typed)
        }
    }

    /// Calls `block` with each object and its index, in order, until it sets
    /// `stop`. Runs synchronously on the calling thread, loading a batch at
    /// a time, the next batch on another thread while `block` goes through
    /// the current one.
    public func enumerateObjects(_ block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void) {
        enumerateObjects(at: IndexSet(integersIn: 0..<count), options: [], using: block)
    }

    /// Enumerates every object, in reverse with `.reverse`. `.concurrent`
    /// is accepted and runs in order on the calling thread.
    public func enumerateObjects(
        options opts: NSEnumerationOptions = [],
        using block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        enumerateObjects(at: IndexSet(integersIn: 0..<count), options: opts, using: block)
    }

    /// Enumerates the objects at the indexes, in reverse with `.reverse`.
    public func enumerateObjects(
        at s: IndexSet, options opts: NSEnumerationOptions = [],
        using block: (ObjectType, Int, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        var stop = ObjCBool(false)
        let ranges = opts.contains(.reverse) ? Array(s.rangeView.reversed()) : Array(s.rangeView)
        for range in ranges {
            precondition(range.upperBound <= count, "index \(range.upperBound - 1) beyond bounds [0 .. \(count - 1)]")
            contents.forEachChunk(in: range, reverse: opts.contains(.reverse)) { start, objects in
                let offsets = opts.contains(.reverse) ? Array(objects.indices.reversed()) : Array(objects.indices)
                for offset in offsets {
                    block(Self.typed(objects[offset]), start + offset, &stop)
                    if stop.boolValue { return false }
                }
                return true
            }
            if stop.boolValue { return }
        }
    }

    /// How many of the objects are assets of the media type. Cost: one query, then cached.
    public func countOfAssets(with mediaType: PHAssetMediaType) -> Int {
        contents.countOfAssets(mediaType: AssetMediaType(mediaType))
    }

    /// Fetch results are immutable, so a copy is the result itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// Every object, for `NSFastEnumeration`. Cost: loads them all.
    public var _fastEnumerationElements: [Any] { allObjects }

    /// The local identifiers of every object, in order. Cost: loads them all.
    var identifiers: [String] {
        contents.objects(in: 0..<count).map(\.localIdentifier)
    }

    /// Every object in order. Cost: loads them all.
    var allObjects: [ObjectType] {
        contents.objects(in: 0..<count).map(Self.typed)
    }

    /// The same contents typed as another (super)class of their objects.
    func viewed<Other>(as type: Other.Type) -> PHFetchResult<Other> {
        PHFetchResult<Other>(contents: contents, tracking: tracking)
    }

    public override var description: String {
        "<PHFetchResult> count=\(count)"
    }
}

/// What any fetch result holds, whatever its element type: lets code that
/// takes an `NSFastEnumeration` reach the rows of a `PHFetchResult<T>`.
protocol FetchedContents {
    var contents: FetchedObjects { get }
}

extension PHFetchResult: FetchedContents {}
