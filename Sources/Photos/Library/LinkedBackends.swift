import PhotosSQLite
import PhotosStore

#if ObjectStorage
import PhotosObjectStorage
#endif
#if PostgreSQL
import PhotosPostgres
#endif

/// The backends this build of `Photos` links: SQLite's always, and as the
/// package's traits choose them, `PostgreSQL` for libraries at `postgres://…`, and
/// `ObjectStorage` for originals at `s3://…`. Without them a library is a
/// directory on disk, and a location only they serve is refused with an
/// error that names it.
enum LinkedBackends {
    /// The backends, SQLite's for library directories first.
    static var databases: [any DatabaseBackend] {
        #if PostgreSQL
        [SQLiteBackend(), PostgresBackend()]
        #else
        [SQLiteBackend()]
        #endif
    }

    /// Opens a library's file storage wherever its originals are recorded to be.
    static var fileStorage: any FileStorageOpener {
        #if ObjectStorage
        StorageOpener()
        #else
        LocalFileStorage.Opener()
        #endif
    }
}
