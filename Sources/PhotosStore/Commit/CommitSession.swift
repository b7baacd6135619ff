import Foundation
import Synchronization

/// One change block on its way into the library, as the public layer sees
/// it: the block stages its files and its new assets' derivatives here, then
/// commits its change set once. The staging area, its journal, the placing
/// of files and the hand-off of derivatives to the cache stay inside the
/// engine; the caller only ever holds ``StagedFile`` handles.
///
/// Staging is safe from several threads at once (a block prepares its new
/// assets in parallel). A session that is not committed, or whose commit
/// fails, leaves nothing behind: ``discard()`` (or the end of its life)
/// deletes what it staged.
package final class CommitSession: Sendable {
    private let store: any PhotoStore
    /// Created on the first file staged: most blocks stage none.
    private let area = Mutex<StagingArea?>(nil)

    init(store: any PhotoStore) {
        self.store = store
    }

    deinit {
        discard()
    }

    /// Copies a file into the block's staging area, or hard-links it when
    /// `move` is set and the file system allows; the source is then deleted
    /// once the block commits. Cost: a copy, or a link, and a sync.
    package func stage(fileAt source: URL, move: Bool, pathExtension: String? = nil) throws(StoreError) -> StagedFile {
        try stagingArea().stage(fileAt: source, move: move, pathExtension: pathExtension)
    }

    /// Writes bytes into the block's staging area as a file. Cost: a write and a sync.
    package func stage(data: Data, pathExtension: String) throws(StoreError) -> StagedFile {
        try stagingArea().stage(data: data, pathExtension: pathExtension)
    }

    /// Keeps a derivative of an asset this block creates (content version
    /// 0) until the block commits, when it joins the cache; returns where it
    /// waits, for making smaller ones from it. Cost: one write, not synced.
    @discardableResult
    package func stageDerivative(_ jpeg: Data, ofNewAsset assetUUID: String, kind: DerivativeCache.Kind) throws(StoreError) -> URL {
        try store.files.derivatives.stage(jpeg, assetUUID: assetUUID, version: 0, kind: kind, in: try stagingArea().derivatives)
    }

    /// Commits the change set with the files staged so far (see
    /// ``PhotoStore/commit(_:in:)``), then moves the new assets'
    /// derivatives into the cache and drops those of content the block
    /// replaced. Nil when the set found nothing to do. The session is
    /// finished afterwards, whether the commit succeeded or not.
    package func commit(_ changeSet: ChangeSet) throws(StoreError) -> CommitResult? {
        defer { discard() }
        guard let result = try store.commit(changeSet, in: self) else { return nil }
        let derivatives = store.files.derivatives
        if let staged = stagedArea {
            derivatives.adopt(from: staged.derivatives, excluding: Set(result.duplicates.keys))
        }
        for edit in changeSet.assetEdits where edit.content != nil {
            derivatives.removeRenditions(assetUUID: edit.uuid)
        }
        return result
    }

    /// Deletes whatever the session staged. Safe to call twice.
    package func discard() {
        area.withLock { area in
            area?.discard()
            area = nil
        }
    }

    /// The staging area, if anything was staged.
    var stagedArea: StagingArea? {
        area.withLock { $0 }
    }

    /// The staging area, made now if nothing was staged yet: the commit
    /// journals in it the files it places or removes.
    func stagingArea() throws(StoreError) -> StagingArea {
        try area.withLock { (area) throws(StoreError) -> StagingArea in
            if let area { return area }
            let made = try store.files.makeStagingArea()
            area = made
            return made
        }
    }
}

extension PhotoStore {
    /// Begins a change block: a session to stage its files in and commit it
    /// through. Cost: nothing until a file is staged.
    package func beginCommit() -> CommitSession {
        CommitSession(store: self)
    }
}
