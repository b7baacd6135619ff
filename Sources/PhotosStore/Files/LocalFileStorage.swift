import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A library's files in its own directory (see ``LibraryLayout``): the
/// default storage, and the one every backend can use when all its
/// processes share a file system.
package final class LocalFileStorage: LibraryFileStorage {
    /// The library's directory and the places of its parts in it.
    package let layout: LibraryLayout
    /// The thumbnails and previews under `derivatives/`.
    package let derivatives: DerivativeCache

    package init(layout: LibraryLayout) {
        self.layout = layout
        derivatives = DerivativeCache(root: layout.derivatives)
    }

    /// Opens the local storage; refuses a library whose originals are elsewhere.
    package struct Opener: FileStorageOpener {
        package init() {}

        package func open(layout: LibraryLayout, originals: String?) throws(StoreError) -> any LibraryFileStorage {
            if let originals {
                throw .notALibrary(path: layout.root.path, reason: "its originals are kept at \(originals), which this program cannot reach")
            }
            return LocalFileStorage(layout: layout)
        }
    }

    package func readableURL(forStoredPath path: String) throws(StoreError) -> URL? {
        layout.url(forRelativePath: path)
    }

    package func source(forStoredPath path: String) throws(StoreError) -> StoredFileSource? {
        layout.url(forRelativePath: path).map(StoredFileSource.local)
    }

    package func makeStagingArea() throws(StoreError) -> StagingArea {
        try StagingArea(layout: layout)
    }

    /// Renames each staged file into `originals/`, then flushes the folders
    /// whose entries changed, those it created included (another process
    /// may have created one and not yet synced it).
    package func place(_ files: [(file: StagedFile, path: String)]) throws(StoreError) {
        var placed: [URL] = []
        var folders = Set<URL>()
        do {
            for (file, storedPath) in files {
                guard let destination = layout.url(forRelativePath: storedPath) else {
                    throw StoreError.fileSystem("internal error: \(storedPath) is not a path inside originals/")
                }
                let folder = destination.deletingLastPathComponent()
                if folders.insert(folder).inserted {
                    try DurableFiles.createDirectory(folder)
                }
                guard rename(file.url.path, destination.path) == 0 else {
                    throw StoreError.fileSystem("cannot move \(file.url.path) into the library: \(String(cString: strerror(errno)))")
                }
                placed.append(destination)
            }
            for folder in folders {
                try DurableFiles.synchronize(folder)
                try DurableFiles.synchronize(folder.deletingLastPathComponent())
            }
        } catch {
            for url in placed {
                unlink(url.path)
            }
            if let error = error as? StoreError { throw error }
            if StagingArea.isOutOfSpace(error) { throw .diskFull(path: layout.originals.path) }
            throw .fileSystem("cannot place files in \(layout.originals.path): \(error.localizedDescription)")
        }
    }

    package func remove(_ entry: JournalEntry) {
        switch entry {
        case .file(let path):
            if let url = layout.url(forRelativePath: path) { unlink(url.path) }
        case .renditions(let uuid):
            derivatives.removeRenditions(assetUUID: uuid)
        }
    }

    package func hasAbandonedStaging() -> Bool {
        StagingArea.hasAbandoned(layout: layout)
    }

    package func recoverAbandonedStaging(isReferenced: (JournalEntry) throws -> Bool) rethrows {
        try StagingArea.recoverAbandoned(layout: layout, isReferenced: isReferenced, remove: remove)
    }

    package func presentStoredPaths() -> [String] {
        layout.relativeFilePaths(under: layout.originals)
    }
}
