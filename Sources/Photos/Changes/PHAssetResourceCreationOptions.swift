import Foundation

/// How a resource added to a creation request is stored.
open class PHAssetResourceCreationOptions: NSObject, NSCopying, @unchecked Sendable {
    /// The filename to record for the resource; defaults to the file's name.
    open var originalFilename: String?
    /// The resource's type identifier, such as `public.jpeg`; read from the
    /// file when nil.
    open var uniformTypeIdentifier: String?
    /// Move the file into the library instead of copying it. The file is
    /// removed only once the change block has been committed.
    open var shouldMoveFile = false

    /// Options with every default.
    public override init() {}

    /// A copy with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHAssetResourceCreationOptions()
        copy.originalFilename = originalFilename
        copy.uniformTypeIdentifier = uniformTypeIdentifier
        copy.shouldMoveFile = shouldMoveFile
        return copy
    }
}
