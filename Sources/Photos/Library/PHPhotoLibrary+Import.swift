import Foundation
import PhotosMedia
import PhotosStore
import Synchronization

/// Importing folders of camera files: an OpenPhotoKit addition that the
/// `photos` command builds on. PhotoKit's creation requests take one asset at
/// a time and fail a whole change block on one bad file; an import reads
/// every file first, reports each file it refuses, recognises duplicates and
/// Live Photos, and creates the rest in change blocks of `batchSize`.
extension PHPhotoLibrary {
    /// How an import treats what it finds.
    public struct ImportOptions: Sendable {
        /// What to do with a file whose content the library already holds.
        public enum DuplicatePolicy: Sendable {
            /// Leave it out, and report the asset that has it.
            case skip
            /// Import it again as a new asset.
            case keep
        }

        /// Default: skip duplicates.
        public var duplicates: DuplicatePolicy
        /// Pair a photo and a video that carry the same content identifier
        /// (as Apple's cameras write for a Live Photo) into one Live Photo asset.
        public var pairsLivePhotos: Bool
        /// Make a camera raw file and the JPEG or HEIC beside it with the same
        /// name one photo, the raw its `alternatePhoto` resource, as Apple does.
        public var pairsRAWWithJPEG: Bool
        /// Assets per change block. Each block stores all of its assets or none.
        public var batchSize: Int
        /// Read the sidecars beside the files: Google Takeout's JSON (its
        /// time and place, where the person changed them or the file has
        /// none; favorites; archived as hidden) and XMP sidecars (time and
        /// place where the file has none), and make each Takeout album
        /// folder an album of its photos, copies found elsewhere included.
        public var readsSidecars: Bool

        /// Told how far the import is, as files are read and before each
        /// change block: the files read so far and the files accounted for
        /// (imported, duplicates, failed). Returning false stops the import
        /// before the next file read or change block; what was committed
        /// stays, and the files not reached are in
        /// ``ImportResult/notAttempted``. Called from any thread.
        public var progress: (@Sendable (_ read: Int, _ accountedFor: Int) -> Bool)?

        /// Options with the defaults: skip duplicates, pair Live Photos and
        /// RAW+JPEG, 50 assets per block, read sidecars, no progress.
        public init(
            duplicates: DuplicatePolicy = .skip, pairsLivePhotos: Bool = true, pairsRAWWithJPEG: Bool = true, batchSize: Int = 50,
            readsSidecars: Bool = true, progress: (@Sendable (_ read: Int, _ accountedFor: Int) -> Bool)? = nil
        ) {
            self.duplicates = duplicates
            self.pairsLivePhotos = pairsLivePhotos
            self.pairsRAWWithJPEG = pairsRAWWithJPEG
            self.batchSize = max(1, batchSize)
            self.readsSidecars = readsSidecars
            self.progress = progress
        }
    }

    /// What an import did, file by file.
    public struct ImportResult: Sendable {
        /// A file imported, with the asset that now holds it (a Live Photo's
        /// video reports its photo's asset). A client that may not read the
        /// library (add-only) finds its duplicates here too, with the asset
        /// that holds their content: it may not learn what the library held.
        public var imported: [(file: URL, localIdentifier: String)] = []
        /// A file left out because the library already had its content, with
        /// the asset that has it. Assets in Recently Deleted do not count; a
        /// client with limited access counts only the assets it may see.
        public var duplicates: [(file: URL, localIdentifier: String)] = []
        /// A file refused, with why: not a photo or video that can be read,
        /// truncated, missing...
        public var failed: [(file: URL, error: PHPhotosError)] = []
        /// Files not reached because ``ImportOptions/progress`` stopped the import.
        public var notAttempted: [URL] = []
        /// Sidecars read, which described a file imported or found a duplicate.
        public var sidecarsRead: [URL] = []
        /// The local identifiers of the albums that Takeout album folders
        /// became (found by title when the library has one already).
        public var albums: [String] = []

        /// An empty result, to gather several imports' results in.
        public init() {}
    }

    /// Imports image and video files. Files are read in parallel, one per
    /// core, and grouped (a Live Photo's photo and video into one asset)
    /// before they are cut into change blocks, so that no pair is split
    /// whatever the files' order; every file is accounted for in the result,
    /// and a file refused never stops the others. Duplicates are recognised in each change
    /// block's own transaction, so that imports of the same files running at
    /// once, in any number of processes, store each file once. Throws only
    /// when the library cannot be written at all (read-only, damaged, no
    /// access), naming why.
    /// Cost: per photo, a header read, a content hash and a thumbnail (a
    /// shrink-on-load decode); per video, an ffprobe and an ffmpeg run.
    public func importFiles(_ urls: [URL], options: ImportOptions = ImportOptions()) throws -> ImportResult {
        let store = try requireStore()
        var result = ImportResult()
        let candidates = Self.inspect(urls, progress: options.progress)
        guard !candidates.contains(where: { $0 == nil }) else {
            // Stopped while reading: nothing is committed, so no file is done.
            result.notAttempted = urls
            return result
        }
        var readable: [ImportCandidate] = []
        for case let (url, candidate?) in zip(urls, candidates) {
            switch candidate {
            case .success(let candidate): readable.append(candidate)
            case .failure(let error): result.failed.append((url, error))
            }
        }

        // A client that may not read learns nothing of the library: its
        // duplicates are reported as imported, with the asset that holds them.
        let readsLibrary: Bool
        do {
            readsLibrary = try store.grant()?.mayRead ?? false
        } catch {
            throw PHPhotosError(storeError: error)
        }
        var firstFileByHash: [String: URL] = [:]
        var duplicateOf: [URL: URL] = [:]
        func reportDuplicate(_ file: URL, of uuid: String) {
            let identifier = LocalIdentifier(uuid: uuid, entity: .asset).description
            if readsLibrary { result.duplicates.append((file, identifier)) } else { result.imported.append((file, identifier)) }
        }

        // Duplicates of what the library holds are found now, to spare
        // reading them again; the commit decides, in its own transaction.
        let existing: [String: String]
        do {
            existing = options.duplicates == .skip && readsLibrary ? try store.assetUUIDs(withContentHashes: readable.map(\.hash)) : [:]
        } catch {
            throw PHPhotosError(storeError: error)
        }
        readable = readable.filter { candidate in
            if let uuid = existing[candidate.hash] {
                reportDuplicate(candidate.url, of: uuid)
                return false
            }
            guard options.duplicates == .skip else { return true }
            if let first = firstFileByHash[candidate.hash] {
                duplicateOf[candidate.url] = first
                return false
            }
            firstFileByHash[candidate.hash] = candidate.url
            return true
        }

        let sidecars =
            options.readsSidecars
            ? ImportSidecars(
                files: readable.map(\.url) + duplicateOf.keys.sorted { $0.path < $1.path }
                    + result.duplicates.map(\.file) + result.imported.map(\.file)) : nil
        result.sidecarsRead = sidecars?.read ?? []
        var assets = Self.group(readable, pairingLivePhotos: options.pairsLivePhotos, pairingRAW: options.pairsRAWWithJPEG)
        assets.sort { ($0.files.first?.metadata.captureDate ?? .distantFuture) < ($1.files.first?.metadata.captureDate ?? .distantFuture) }
        var identifierByFile: [URL: String] = [:]
        for start in stride(from: 0, to: assets.count, by: options.batchSize) {
            let accountedFor = result.imported.count + result.duplicates.count + result.failed.count
            if let progress = options.progress, !progress(urls.count, accountedFor) {
                result.notAttempted = assets[start...].flatMap { $0.files.map(\.url) }
                break
            }
            var batch = Array(assets[start..<min(start + options.batchSize, assets.count)])
            // A file that reads but does not decode fails its block: the block
            // is tried again without it, so one bad file costs one retry, not its neighbours.
            while !batch.isEmpty {
                var identifiers: [String] = []
                let committed: CommitResult?
                do {
                    committed = try performChangesAndWait(skippingDuplicates: options.duplicates == .skip) {
                        for asset in batch {
                            let request = PHAssetCreationRequest.forAsset()
                            for file in asset.files {
                                request.addResource(with: file.type, fileURL: file.url, probed: file.probed)
                            }
                            if let primary = asset.files.first, let sidecars {
                                request.apply(sidecars.sidecars(of: primary.url), over: primary.metadata)
                            }
                            identifiers.append(request.placeholderForCreatedAsset!.localIdentifier)
                        }
                    }
                } catch {
                    let blamed = zip(batch, identifiers).filter { Set(error.localIdentifiers).contains($0.1) }.map(\.0)
                    // An error about no file is about the library: the other files would fail the same way.
                    guard !blamed.isEmpty else { throw error }
                    result.failed += blamed.flatMap(\.files).map { ($0.url, error) }
                    let failingFiles = Set(blamed.flatMap(\.files).map(\.url))
                    batch.removeAll { $0.files.contains { failingFiles.contains($0.url) } }
                    continue
                }
                for (asset, identifier) in zip(batch, identifiers) {
                    let uuid = String(identifier.prefix(36))
                    let holder = committed?.duplicates[uuid]
                    for file in asset.files {
                        if let holder {
                            reportDuplicate(file.url, of: holder)
                        } else {
                            result.imported.append((file.url, identifier))
                        }
                        identifierByFile[file.url] = holder.map { LocalIdentifier(uuid: $0, entity: .asset).description } ?? identifier
                    }
                }
                break
            }
        }
        let notReached = Set(result.notAttempted)
        for (file, first) in duplicateOf {
            if let identifier = identifierByFile[first] {
                identifierByFile[file] = identifier
                reportDuplicate(file, of: String(identifier.prefix(36)))
            } else if notReached.contains(first) {
                result.notAttempted.append(file)
            } else {
                result.failed.append((file, PHPhotosError(.invalidResource, "\(file.path) duplicates \(first.path), which failed")))
            }
        }
        if let sidecars, readsLibrary {
            for (file, identifier) in result.duplicates where identifierByFile[file] == nil { identifierByFile[file] = identifier }
            result.albums = try fileAlbums(sidecars, identifierByFile: identifierByFile)
        }
        return result
    }

    /// Puts each file's asset in the album its Takeout folder is: the album
    /// of that title when the library has one, else a new one. One change block.
    private func fileAlbums(_ sidecars: ImportSidecars, identifierByFile: [URL: String]) throws -> [String] {
        var assetsByTitle: [String: [String]] = [:]
        for (file, identifier) in identifierByFile.sorted(by: { $0.key.path < $1.key.path }) {
            guard let title = sidecars.albumTitle(of: file) else { continue }
            if !(assetsByTitle[title]?.contains(identifier) ?? false) { assetsByTitle[title, default: []].append(identifier) }
        }
        guard !assetsByTitle.isEmpty else { return [] }
        // What each album lacks, read before the block that adds it.
        let plan = withCurrentLibrary { () -> [(title: String, album: PHAssetCollection?, assets: [PHAsset])] in
            let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil)
            var byTitle: [String: PHAssetCollection] = [:]
            albums.enumerateObjects { album, _, _ in
                if let title = album.localizedTitle, byTitle[title] == nil { byTitle[title] = album }
            }
            return assetsByTitle.sorted(by: { $0.key < $1.key }).map { title, identifiers in
                let album = byTitle[title]
                let members: Set<String> =
                    album.map { album in
                        let current = PHAsset.fetchAssets(in: album, options: nil)
                        return Set((0..<current.count).map { current[$0].localIdentifier })
                    } ?? []
                let assets = PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: nil)
                return (title, album, (0..<assets.count).map { assets[$0] }.filter { !members.contains($0.localIdentifier) })
            }
        }
        var albumIdentifiers: [String] = []
        try performChangesAndWait {
            for (title, album, missing) in plan {
                if let album {
                    if !missing.isEmpty { PHAssetCollectionChangeRequest(for: album)?.addAssets(missing as NSArray) }
                    albumIdentifiers.append(album.localIdentifier)
                } else {
                    let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                    request.addAssets(missing as NSArray)
                    albumIdentifiers.append(request.placeholderForCreatedAssetCollection.localIdentifier)
                }
            }
        }
        return albumIdentifiers
    }

    /// A file read for import.
    fileprivate struct ImportCandidate: @unchecked Sendable {
        var url: URL
        /// What the file was when read; nil when it could not be told.
        var identity: FileStatus.Identity?
        var metadata: MediaMetadata
        var hash: String
        var type: PHAssetResourceType = .photo

        /// What its change block need not read again.
        var probed: FileReading.Probed? {
            identity.map { FileReading.Probed(identity: $0, metadata: metadata, contentHash: hash) }
        }
    }

    /// The resources of one asset to create.
    fileprivate struct ImportedAsset {
        var files: [ImportCandidate]
    }

    /// Reads every file's metadata and content hash, one file per core;
    /// nil for the files not read once `progress` said to stop.
    private static func inspect(_ urls: [URL], progress: (@Sendable (Int, Int) -> Bool)?) -> [Result<ImportCandidate, PHPhotosError>?] {
        let results = ConcurrentResults<Result<ImportCandidate, PHPhotosError>?>(count: urls.count)
        let reading = Mutex((read: 0, stopped: false))
        DispatchQueue.concurrentPerform(iterations: urls.count) { index in
            guard !reading.withLock({ $0.stopped }) else { return results.set(index, nil) }
            defer {
                let read = reading.withLock { state in
                    state.read += 1
                    return state.read
                }
                if let progress, !progress(read, 0) { reading.withLock { $0.stopped = true } }
            }
            let url = urls[index]
            do throws(MediaError) {
                // Taken first: a file changed while it is read is read again by its block.
                let identity = FileStatus(atPath: url.path)?.identity
                let metadata = try MediaProbe.probe(fileAt: url, verifiesDecoding: false)
                let hash = try ContentHash.ofFile(at: url)
                results.set(
                    index,
                    .success(
                        ImportCandidate(
                            url: url, identity: identity, metadata: metadata, hash: hash,
                            type: metadata.kind == .video ? .video : .photo)))
            } catch {
                results.set(index, .failure(PHPhotosError(.invalidResource, error.description)))
            }
        }
        return results.values
    }

    /// One asset per file, except that a photo and a video sharing a content
    /// identifier become one Live Photo, and a camera raw file and the JPEG
    /// or HEIC the camera wrote beside it (same folder, same name but the
    /// extension, taken at the same second when both say) become one photo,
    /// as Apple keeps them: the JPEG shown, the raw its `alternatePhoto`.
    private static func group(_ candidates: [ImportCandidate], pairingLivePhotos: Bool, pairingRAW: Bool) -> [ImportedAsset] {
        var rawFor: [Int: Int] = [:]
        if pairingRAW {
            var byName: [String: [Int]] = [:]
            for (index, candidate) in candidates.enumerated() where candidate.metadata.kind == .image {
                let key = candidate.url.deletingPathExtension().path.lowercased()
                byName[key, default: []].append(index)
            }
            for indices in byName.values where indices.count == 2 {
                let raws = indices.filter { UniformType.isRAW(candidates[$0].metadata.uniformTypeIdentifier) }
                guard raws.count == 1, let raw = raws.first, let shown = indices.first(where: { $0 != raw }) else { continue }
                if let a = candidates[raw].metadata.captureDate, let b = candidates[shown].metadata.captureDate, abs(a.timeIntervalSince(b)) >= 1 { continue }
                rawFor[shown] = raw
            }
        }
        let pairedRaws = Set(rawFor.values)
        var videosByIdentifier: [String: Int] = [:]
        if pairingLivePhotos {
            for (index, candidate) in candidates.enumerated() where candidate.metadata.kind == .video {
                if let identifier = candidate.metadata.contentIdentifier, videosByIdentifier[identifier] == nil {
                    videosByIdentifier[identifier] = index
                }
            }
        }
        var paired = Set<Int>()
        var assets: [ImportedAsset] = []
        for (index, candidate) in candidates.enumerated() where candidate.metadata.kind == .image && !pairedRaws.contains(index) {
            var files = [candidate]
            if let raw = rawFor[index] {
                var alternate = candidates[raw]
                alternate.type = .alternatePhoto
                files.append(alternate)
            }
            if let identifier = candidate.metadata.contentIdentifier, let video = videosByIdentifier[identifier], !paired.contains(video) {
                paired.insert(video)
                var pairedVideo = candidates[video]
                pairedVideo.type = .pairedVideo
                files.append(pairedVideo)
            }
            assets.append(ImportedAsset(files: files))
        }
        for (index, candidate) in candidates.enumerated() where candidate.metadata.kind == .video && !paired.contains(index) {
            assets.append(ImportedAsset(files: [candidate]))
        }
        return assets
    }
}

/// Content hashes, an OpenPhotoKit addition: how the library recognises a
/// file it already holds, so that a client can ask before sending one.
extension PHPhotoLibrary {
    /// The library's content hash of a file: XXH3-128 of its bytes, as 32
    /// lowercase hex digits. Cost: one read of the file.
    public static func contentHash(ofFileAt url: URL) throws -> String {
        do {
            return try ContentHash.ofFile(at: url)
        } catch {
            throw PHPhotosError(.invalidResource, error.description)
        }
    }

    /// The asset outside Recently Deleted whose original has this content
    /// hash, as this process may see it; nil when there is none, or when
    /// this process may not read the library. Cost: one indexed query.
    public func localIdentifierOfAsset(withContentHash hash: String) throws -> String? {
        let store = try requireStore()
        guard hash.utf8.count == 32, hash.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        do {
            guard try store.grant()?.mayRead ?? false else { return nil }
            return try store.assetUUIDs(withContentHashes: [hash])[hash].map { LocalIdentifier(uuid: $0, entity: .asset).description }
        } catch {
            throw PHPhotosError(storeError: error)
        }
    }
}
