import Foundation

/// Where the files a change set brings go in the library, decided before the
/// commit so that they can be journalled and moved into place first.
package struct FilePlacement: Sendable {
    /// For each new asset, in order, its resources' paths relative to the library root.
    let newAssets: [[String]]
    /// For each asset whose content is edited, the paths of its rendering and adjustment data.
    let contentEdits: [String: [String]]
    /// Every staged file and its path.
    let files: [(file: StagedFile, path: String)]

    init(_ set: ChangeSet, layout: LibraryLayout) {
        var files: [(file: StagedFile, path: String)] = []
        newAssets = set.newAssets.map { asset in
            asset.resources.enumerated().map { index, resource in
                let path = layout.originalRelativePath(
                    assetUUID: asset.record.uuid, index: index,
                    pathExtension: resource.file.url.pathExtension)
                files.append((resource.file, path))
                return path
            }
        }
        var contentEdits: [String: [String]] = [:]
        for edit in set.assetEdits {
            guard case .adjust(let adjusted) = edit.content else { continue }
            contentEdits[edit.uuid] = adjusted.resources.map { resource in
                let path = layout.editRelativePath(assetUUID: edit.uuid, pathExtension: resource.file.url.pathExtension)
                files.append((resource.file, path))
                return path
            }
        }
        self.contentEdits = contentEdits
        self.files = files
    }
}
