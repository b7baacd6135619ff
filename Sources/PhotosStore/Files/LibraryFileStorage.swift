import Foundation

/// Where a library's files live, behind one interface, so that storage
/// other than a local directory can hold them. Three kinds of file:
/// - stored files, the originals and edits that resource rows name by a
///   stored path (`originals/X/NAME`, see ``LibraryLayout/url(forRelativePath:)``);
/// - derivatives, the cache of thumbnails, previews and posters, which this
///   process may remake at any time (``DerivativeCache``);
/// - staging areas, where a change block's files wait with the block's
///   journal until its commit decides their fate (``StagingArea``).
///
/// What a storage must guarantee, for a backend's commit to keep its promise:
/// - A stored path is data read from the database. A storage acts only on
///   paths of the shape the library writes and ignores any other, so a
///   forged row can make it read or delete nothing else.
/// - ``place(_:)`` is durable when it returns (the files survive a power
///   cut), and all-or-nothing: when it throws, none of the files is placed.
///   A backend calls it before its database commits, after journalling the
///   paths, so no committed row ever names a missing file.
/// - ``remove(_:)`` deletes files only, and a missing file is no error:
///   recovery may repeat a removal a crash interrupted.
/// - Staging is local and locked by its live owner, so that recovery can
///   tell an abandoned area from one in use.
package protocol LibraryFileStorage: AnyObject, Sendable {
    /// The thumbnails, previews and posters kept for this process.
    var derivatives: DerivativeCache { get }

    /// A local file with a stored file's bytes, for reading; nil when `path`
    /// is not a path the library writes. Throws when the bytes cannot be
    /// fetched (`notFound` for a file the storage does not have). Cost: none
    /// for a local directory; a download, the first time, for remote storage.
    func readableURL(forStoredPath path: String) throws(StoreError) -> URL?

    /// A stored file for reading in ranges without fetching it whole; nil
    /// when `path` is not a path the library writes. Throws as
    /// ``readableURL(forStoredPath:)`` does. Cost: none for a local
    /// directory or a cached copy; one size request for remote storage.
    func source(forStoredPath path: String) throws(StoreError) -> StoredFileSource?

    /// A new, locked staging area for one change block's files.
    /// Cost: a folder and a lock file.
    func makeStagingArea() throws(StoreError) -> StagingArea

    /// Moves staged files to their stored paths, durably; when it throws,
    /// none of them is left placed. Cost: a rename and the syncs of the
    /// folders whose entries changed.
    func place(_ files: [(file: StagedFile, path: String)]) throws(StoreError)

    /// Deletes what a journal entry names: a stored file, or every
    /// derivative of an asset. Missing files are not an error.
    func remove(_ entry: JournalEntry)

    /// Whether processes that died mid-change left staging areas behind.
    /// Cost: a listing of the staging areas and a lock attempt on each.
    func hasAbandonedStaging() -> Bool

    /// Finishes what dead processes left in staging: each journalled file
    /// or derivative `isReferenced` says the database does not name is
    /// deleted, then the area.
    func recoverAbandonedStaging(isReferenced: (JournalEntry) throws -> Bool) rethrows

    /// The stored path of every stored file present, whether or not a row
    /// names it: what the integrity check compares with the database.
    /// Cost: a walk of every stored file.
    func presentStoredPaths() -> [String]
}
