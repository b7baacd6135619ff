import Foundation
import PhotosStore

/// Opens a library's file storage wherever its originals are recorded to
/// be: its own directory, or S3-compatible object storage (`s3://…`), with
/// credentials from the environment (never from a command line):
/// `PHOTOS_S3_ACCESS_KEY_ID` and `PHOTOS_S3_SECRET_ACCESS_KEY` (or AWS's
/// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), or
/// a file named by `PHOTOS_S3_CREDENTIALS_FILE` holding the key id and
/// the secret on two lines.
package struct StorageOpener: FileStorageOpener {
    let environment: [String: String]

    /// An empty variable counts as unset.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment.filter { !$0.value.isEmpty }
    }

    package func open(layout: LibraryLayout, originals: String?) throws(StoreError) -> any LibraryFileStorage {
        guard let originals else { return LocalFileStorage(layout: layout) }
        let location: S3Location
        do {
            location = try S3Location(url: originals)
        } catch {
            throw .notALibrary(path: layout.root.path, reason: "its originals location is not usable: \(error)")
        }
        return ObjectFileStorage(layout: layout, client: S3Client(location: location, credentials: try credentials(for: location)))
    }

    /// The credentials the environment gives; throws saying which variables to set.
    func credentials(for location: S3Location) throws(StoreError) -> StorageCredentials {
        if let path = environment["PHOTOS_S3_CREDENTIALS_FILE"] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw .fileSystem("PHOTOS_S3_CREDENTIALS_FILE names \(path), which cannot be read")
            }
            let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard lines.count >= 2 else {
                throw .fileSystem("\(path) must hold the access key id and the secret access key, one per line")
            }
            return StorageCredentials(accessKeyID: lines[0], secretAccessKey: lines[1], sessionToken: lines.count > 2 ? lines[2] : nil)
        }
        if let key = environment["PHOTOS_S3_ACCESS_KEY_ID"] ?? environment["AWS_ACCESS_KEY_ID"],
            let secret = environment["PHOTOS_S3_SECRET_ACCESS_KEY"] ?? environment["AWS_SECRET_ACCESS_KEY"]
        {
            return StorageCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"])
        }
        throw .accessDenied(
            """
            the library's originals are in object storage (\(location)); set PHOTOS_S3_ACCESS_KEY_ID and \
            PHOTOS_S3_SECRET_ACCESS_KEY, or PHOTOS_S3_CREDENTIALS_FILE, to reach it
            """)
    }
}
