import Foundation

/// The temporary folder of one editing session: the input's copy of the
/// file to edit and the output's rendered file. The input and its outputs
/// share it; it is removed with what it holds when the last of them is
/// released (after the change block that used the output has stored what
/// it needed), so that edits leave nothing in the temporary directory.
final class EditingFolder: Sendable {
    /// The folder.
    let url: URL

    /// Makes a new folder under the temporary directory's `photos-editing`.
    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("photos-editing", isDirectory: true)
            .appendingPathComponent(UUID().uuidString, isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
