import Foundation
import HTTPTypes
import Hummingbird
import Photos

/// `POST /v1/changes`: one change block, as a JSON list of PhotoKit change
/// requests, applied atomically by `performChangesAndWait`: all of them or
/// none. A request may name an object created earlier in the same block by
/// its `ref` (`"$ref"`), as PhotoKit's placeholders allow. With
/// `If-Match: "<change token>"` the block is refused with 412 when the
/// library has changed since that token.
struct ChangeBlockRoutes {
    let libraries: LibraryPool
    let uploads: UploadStore
    let metrics: ServerMetrics

    struct Block: Decodable {
        let requests: [ChangeRequest]
        init(from decoder: any Decoder) throws {
            try decoder.refuseUnknownKeys(allowed: ["requests"])
            let container = try decoder.container(keyedBy: AnyKey.self)
            requests = try container.decode([ChangeRequest].self, forKey: AnyKey(stringValue: "requests"))
            guard !requests.isEmpty, requests.count <= 1000 else {
                throw DecodingError.dataCorruptedError(forKey: AnyKey(stringValue: "requests"), in: container,
                                                       debugDescription: "a block holds 1 to 1000 requests")
            }
        }
    }

    /// One change request. `op` says which; the other fields are its arguments.
    struct ChangeRequest: Decodable {
        enum Operation: String, Decodable {
            case createAsset, updateAsset, deleteAssets, restoreAssets
            case createAlbum, updateAlbum, deleteAlbums
            case createFolder, updateFolder, deleteFolders
        }

        let op: Operation
        let ref: String?
        /// A finished upload, for `createAsset`.
        let upload: String?
        let asset: String?
        let assets: [String]?
        let album: String?
        let albums: [String]?
        let folder: String?
        let folders: [String]?
        let title: String?
        let favorite: Bool?
        let hidden: Bool?
        let creationDate: Date?
        let location: AssetRepresentation.Location??
        let addAssets: [String]?
        let removeAssets: [String]?
        /// Assets of the album to move, for `updateAlbum`, in their present order…
        let moveAssets: [String]?
        /// …to this index of the album's order once they are taken out.
        let toIndex: Int?
        let addCollections: [String]?
        let removeCollections: [String]?

        private static let fields: Set<String> = [
            "op", "ref", "upload", "asset", "assets", "album", "albums", "folder", "folders", "title", "favorite", "hidden",
            "creationDate", "location", "addAssets", "removeAssets", "moveAssets", "toIndex", "addCollections", "removeCollections",
        ]

        init(from decoder: any Decoder) throws {
            try decoder.refuseUnknownKeys(allowed: Self.fields)
            let container = try decoder.container(keyedBy: AnyKey.self)
            func field<T: Decodable>(_ name: String) throws -> T? {
                try container.decodeIfPresent(T.self, forKey: AnyKey(stringValue: name))
            }
            op = try container.decode(Operation.self, forKey: AnyKey(stringValue: "op"))
            ref = try field("ref")
            upload = try field("upload")
            asset = try field("asset")
            assets = try field("assets")
            album = try field("album")
            albums = try field("albums")
            folder = try field("folder")
            folders = try field("folders")
            title = try field("title")
            favorite = try field("favorite")
            hidden = try field("hidden")
            creationDate = try field("creationDate")
            if container.contains(AnyKey(stringValue: "location")) {
                location = .some(try container.decodeIfPresent(AssetRepresentation.Location.self, forKey: AnyKey(stringValue: "location")))
            } else {
                location = .none
            }
            addAssets = try field("addAssets")
            removeAssets = try field("removeAssets")
            moveAssets = try field("moveAssets")
            toIndex = try field("toIndex")
            addCollections = try field("addCollections")
            removeCollections = try field("removeCollections")
        }
    }

    private struct Committed: Encodable {
        /// What each creating request made, by its `ref` (or `#index`, its
        /// position in the block, without one): its local identifier.
        let created: [String: String]
        let token: String
    }

    func add(to group: RouterGroup<ServerContext>) {
        group.post("changes") { request, context -> Response in
            let principal = try context.requirePrincipal()
            let library = try libraries.library(for: principal)
            let block = try await JSONBody.decode(Block.self, from: request, context: context)
            let expected = try Query(request: request).header(.ifMatch).map { text in
                try HistoryRoutes.token(text.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")))
            }
            let uploads = self.uploads
            let committed = try await blocking {
                try Self.perform(block, in: library, uploads: UploadedFiles(store: uploads, tokenID: principal.tokenID),
                                 ifUnchangedSince: expected)
            }
            metrics.changeBlockCommitted()
            return try JSONBody.response(committed)
        }
    }

    private static func perform(_ block: Block, in library: PHPhotoLibrary, uploads: UploadedFiles,
                                ifUnchangedSince expected: PHPersistentChangeToken?) throws -> Committed {
        // Everything that can fail is decided before the block runs: a
        // PhotoKit change block cannot be abandoned halfway.
        let steps = try library.withCurrentLibrary { try plan(block, objects: ReferencedObjects(block), uploads: uploads) }
        if let expected, library.currentChangeToken != expected {
            throw Problem(.preconditionFailed, "the library has changed since the token in If-Match")
        }
        nonisolated(unsafe) var placeholders: [String: PHObjectPlaceholder] = [:]
        try library.performChangesAndWait {
            for step in steps { step(&placeholders) }
        }
        uploads.release(committed: true)
        return Committed(created: placeholders.mapValues(\.localIdentifier), token: library.currentChangeToken.textRepresentation)
    }

    /// A request made ready to run: every object found, every field checked.
    private typealias Step = (inout [String: PHObjectPlaceholder]) -> Void

    /// One object a request names: an existing one, or one an earlier request of the block creates.
    private enum Target {
        case existing(AnyObject)
        case created(ref: String)

        func resolve(_ placeholders: [String: PHObjectPlaceholder]) -> AnyObject {
            switch self {
            case .existing(let object): object
            case .created(let ref): placeholders[ref]!
            }
        }
    }

    private static func plan(_ block: Block, objects: ReferencedObjects, uploads: UploadedFiles) throws -> [Step] {
        var refs: Set<String> = []
        func define(_ ref: String?) throws {
            guard let ref else { return }
            guard !ref.isEmpty, ref.count <= 64, !ref.hasPrefix("#"), !ref.hasPrefix("$") else {
                throw Problem.badRequest("a ref is 1 to 64 characters, not starting with # or $")
            }
            guard refs.insert(ref).inserted else { throw Problem.badRequest("ref \(ref) is used twice in the block") }
        }
        func targets(_ ids: [String]?, _ find: (String) throws -> AnyObject) throws -> [Target] {
            try (ids ?? []).map { id in
                guard id.hasPrefix("$") else { return .existing(try find(id)) }
                let ref = String(id.dropFirst())
                guard refs.contains(ref) else { throw Problem.badRequest("no earlier request of the block has ref \(ref)") }
                return .created(ref: ref)
            }
        }
        func all(_ targets: [Target], _ placeholders: [String: PHObjectPlaceholder]) -> NSArray {
            targets.map { $0.resolve(placeholders) } as NSArray
        }
        return try block.requests.enumerated().map { index, request -> Step in
            // What a request creates is reported under its ref, or `#index` without one.
            let key = request.ref ?? "#\(index)"
            switch request.op {
            case .createAsset:
                let file = try uploads.take(request.upload)
                let location = try Self.location(request)
                try define(request.ref)
                return { placeholders in
                    let creation = PHAssetCreationRequest.forAsset()
                    let options = PHAssetResourceCreationOptions()
                    options.originalFilename = file.filename
                    options.shouldMoveFile = true
                    creation.addResource(with: file.isVideo ? .video : .photo, fileURL: file.url, options: options)
                    if let favorite = request.favorite { creation.isFavorite = favorite }
                    if let hidden = request.hidden { creation.isHidden = hidden }
                    if let date = request.creationDate { creation.creationDate = date }
                    if let location { creation.location = location }
                    if let placeholder = creation.placeholderForCreatedAsset { placeholders[key] = placeholder }
                }
            case .updateAsset:
                let change = try objects.asset(request.asset)
                let location = try Self.location(request)
                return { _ in
                    let asset = PHAssetChangeRequest(for: change)
                    if let favorite = request.favorite { asset.isFavorite = favorite }
                    if let hidden = request.hidden { asset.isHidden = hidden }
                    if let date = request.creationDate { asset.creationDate = date }
                    if let location { asset.location = location }
                }
            case .deleteAssets, .restoreAssets:
                let assets = try (request.assets ?? []).map { try objects.asset($0) }
                let restore = request.op == .restoreAssets
                return { _ in
                    if restore {
                        PHAssetChangeRequest.restoreDeletedAssets(assets as NSArray)
                    } else {
                        PHAssetChangeRequest.deleteAssets(assets as NSArray)
                    }
                }
            case .createAlbum:
                let title = try required(request.title, "title")
                let added = try targets(request.addAssets, objects.asset)
                try define(request.ref)
                return { placeholders in
                    let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                    album.addAssets(all(added, placeholders))
                    placeholders[key] = album.placeholderForCreatedAssetCollection
                }
            case .updateAlbum:
                let album = try objects.album(request.album)
                guard album.canPerform(.addContent) || album.canPerform(.rename) else {
                    throw Problem(.unprocessableContent, "this album cannot be changed", code: .changeNotSupported)
                }
                let (added, removed) = (try targets(request.addAssets, objects.asset), try targets(request.removeAssets, objects.asset))
                let move = try Self.move(request, in: album, objects: objects)
                return { placeholders in
                    guard let change = PHAssetCollectionChangeRequest(for: album) else { return }
                    if let title = request.title { change.title = title }
                    if let move { change.moveAssets(at: move.indexes, to: move.toIndex) }
                    change.addAssets(all(added, placeholders))
                    change.removeAssets(all(removed, placeholders))
                }
            case .deleteAlbums:
                let albums = try (request.albums ?? []).map { try objects.album($0) }
                return { _ in PHAssetCollectionChangeRequest.deleteAssetCollections(albums as NSArray) }
            case .createFolder:
                let title = try required(request.title, "title")
                let added = try targets(request.addCollections, objects.collection)
                try define(request.ref)
                return { placeholders in
                    let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: title)
                    folder.addChildCollections(all(added, placeholders))
                    placeholders[key] = folder.placeholderForCreatedCollectionList
                }
            case .updateFolder:
                let folder = try objects.folder(request.folder)
                let (added, removed) = (try targets(request.addCollections, objects.collection),
                                        try targets(request.removeCollections, objects.collection))
                return { placeholders in
                    guard let change = PHCollectionListChangeRequest(for: folder) else { return }
                    if let title = request.title { change.title = title }
                    change.addChildCollections(all(added, placeholders))
                    change.removeChildCollections(all(removed, placeholders))
                }
            case .deleteFolders:
                let folders = try (request.folders ?? []).map { try objects.folder($0) }
                return { _ in PHCollectionListChangeRequest.deleteCollectionLists(folders as NSArray) }
            }
        }
    }

    /// Where `moveAssets` are in the album now and where they go; nil when
    /// the request moves nothing. The album's own order is the one moved.
    private static func move(_ request: ChangeRequest, in album: PHAssetCollection,
                             objects: ReferencedObjects) throws -> (indexes: IndexSet, toIndex: Int)? {
        guard request.moveAssets != nil || request.toIndex != nil else { return nil }
        let moved = try required(request.moveAssets, "moveAssets").map { try objects.asset($0) }
        let toIndex = try required(request.toIndex, "toIndex")
        guard album.assetCollectionType == .album else {
            throw Problem(.unprocessableContent, "only an album the user made has an order to change", code: .changeNotSupported)
        }
        let members = PHAsset.fetchAssets(in: album, options: nil)
        var indexes = IndexSet()
        for asset in moved {
            let index = members.index(of: asset)
            guard index != NSNotFound else { throw Problem.badRequest("asset \(ObjectID.urlForm(asset.localIdentifier)) is not in the album") }
            indexes.insert(index)
        }
        guard indexes.count == moved.count, !moved.isEmpty else { throw Problem.badRequest("moveAssets names each asset once, at least one") }
        guard (0...(members.count - moved.count)).contains(toIndex) else {
            throw Problem.badRequest("toIndex must be 0 to \(members.count - moved.count)")
        }
        return (indexes, toIndex)
    }

    /// The location a request sets: nil to leave it, `.some(nil)` to clear it.
    private static func location(_ request: ChangeRequest) throws -> CLLocation?? {
        guard case .some(let value) = request.location else { return .none }
        guard let value else { return .some(nil) }
        guard (-90...90).contains(value.latitude), (-180...180).contains(value.longitude) else {
            throw Problem.badRequest("a location's latitude is -90 to 90 and its longitude -180 to 180")
        }
        return CLLocation(coordinate: CLLocationCoordinate2D(latitude: value.latitude, longitude: value.longitude),
                          altitude: value.altitude ?? 0, horizontalAccuracy: 0, verticalAccuracy: 0, timestamp: Date())
    }

    private static func required<T>(_ value: T?, _ name: String) throws -> T {
        guard let value else { throw Problem.badRequest("\(name) is required") }
        return value
    }
}

/// The existing objects a block names, fetched before it runs, as the
/// caller may see them: an id outside its grant is not found.
private struct ReferencedObjects {
    private var assets: [String: PHAsset] = [:]
    private var albums: [String: PHAssetCollection] = [:]
    private var folders: [String: PHCollectionList] = [:]

    init(_ block: ChangeBlockRoutes.Block) throws {
        var assetIDs: Set<String> = [], albumIDs: Set<String> = [], folderIDs: Set<String> = [], collectionIDs: Set<String> = []
        for request in block.requests {
            assetIDs.formUnion([request.asset].compactMap { $0 } + (request.assets ?? []) + (request.addAssets ?? []) + (request.removeAssets ?? [])
                               + (request.moveAssets ?? []))
            albumIDs.formUnion([request.album].compactMap { $0 } + (request.albums ?? []))
            folderIDs.formUnion([request.folder].compactMap { $0 } + (request.folders ?? []))
            collectionIDs.formUnion((request.addCollections ?? []) + (request.removeCollections ?? []))
        }
        let existing = { (ids: Set<String>) in ids.filter { !$0.hasPrefix("$") } }
        let assetIdentifiers = try existing(assetIDs).map { try Self.identifier($0, "001", "asset") }
        let hidden = PHFetchOptions()
        hidden.includeHiddenAssets = true
        let foundAssets = PHAsset.fetchAssets(withLocalIdentifiers: assetIdentifiers, options: hidden)
        foundAssets.enumerateObjects { asset, _, _ in assets[ObjectID.urlForm(asset.localIdentifier).uppercased()] = asset }
        // Only a restore may name an asset in Recently Deleted; fetches leave those out.
        let restored = Set(block.requests.filter { $0.op == .restoreAssets }.flatMap { $0.assets ?? [] }.map { $0.uppercased() })
        assets.merge(AssetRoutes.recentlyDeleted(restored.subtracting(assets.keys))) { found, _ in found }
        let albumIdentifiers = try existing(albumIDs.union(collectionIDs)).map { try Self.identifier($0, "040", "album") }
        let foundAlbums = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: albumIdentifiers, options: nil)
        foundAlbums.enumerateObjects { album, _, _ in albums[ObjectID.urlForm(album.localIdentifier).uppercased()] = album }
        let folderIdentifiers = try existing(folderIDs.union(collectionIDs)).map { try Self.identifier($0, "020", "folder") }
        let foundFolders = PHCollectionList.fetchCollectionLists(withLocalIdentifiers: folderIdentifiers, options: nil)
        foundFolders.enumerateObjects { folder, _, _ in folders[ObjectID.urlForm(folder.localIdentifier).uppercased()] = folder }
    }

    private static func identifier(_ id: String, _ suffix: String, _ kind: String) throws -> String {
        guard let identifier = ObjectID.localIdentifier(id, suffix: suffix) else { throw Problem.notFound("no \(kind) has the id \(id)") }
        return identifier
    }

    func asset(_ id: String?) throws -> PHAsset {
        guard let id, let asset = assets[id.uppercased()] else { throw Problem.notFound("no asset has the id \(id ?? "")") }
        return asset
    }

    func album(_ id: String?) throws -> PHAssetCollection {
        guard let id, let album = albums[id.uppercased()] else { throw Problem.notFound("no album has the id \(id ?? "")") }
        return album
    }

    func folder(_ id: String?) throws -> PHCollectionList {
        guard let id, let folder = folders[id.uppercased()] else { throw Problem.notFound("no folder has the id \(id ?? "")") }
        return folder
    }

    /// An album or a folder, for a folder's children.
    func collection(_ id: String) throws -> PHCollection {
        if let album = albums[id.uppercased()] { return album }
        if let folder = folders[id.uppercased()] { return folder }
        throw Problem.notFound("no album or folder has the id \(id)")
    }
}

/// The finished uploads a block turns into assets: each taken once, and
/// removed after the block commits (the engine has moved its data file).
private final class UploadedFiles {
    struct File {
        let url: URL
        let filename: String
        let isVideo: Bool
    }

    let store: UploadStore
    let tokenID: String
    /// The uploads taken, each with its data file held open.
    private var used: [(id: String, descriptor: Int32)] = []

    init(store: UploadStore, tokenID: String) {
        self.store = store
        self.tokenID = tokenID
    }

    func take(_ id: String?) throws -> File {
        guard let id, let upload = store.upload(id, tokenID: tokenID) else { throw Problem(.notFound, "there is no such upload") }
        guard !used.contains(where: { $0.id == id }) else { throw Problem.badRequest("upload \(id) is used twice in the block") }
        guard store.offset(of: id) == upload.length else {
            throw Problem(.conflict, "upload \(id) has \(store.offset(of: id)) of its \(upload.length) bytes; finish it first")
        }
        guard let descriptor = store.openForChangeBlock(id) else { throw Problem(.notFound, "there is no such upload") }
        used.append((id, descriptor))
        let type = UTType(filenameExtension: (upload.filename as NSString).pathExtension.lowercased())
        let isVideo = type.map { $0.conforms(to: .movie) || $0.conforms(to: .video) } ?? false
        return File(url: store.dataURL(id), filename: upload.filename, isVideo: isVideo)
    }

    /// Ends the block's hold on the uploads it took: when it committed
    /// they are gone, else they stay as they were, to be used again. After
    /// a commit, what is left to remove is removed in the background, not
    /// before the answer: the uploads are already out of reach (their data
    /// files are the library's now), and changing files right after the
    /// commit's sync waits for the file system's journal, which made a
    /// block of 50 uploads wait a tenth of a second for nothing.
    func release(committed: Bool) {
        let taken = used, store = store
        used = []
        guard committed else {
            for (id, descriptor) in taken { store.release(descriptor, of: id, committed: false) }
            return
        }
        DispatchQueue.global(qos: .utility).async {
            for (id, descriptor) in taken { store.release(descriptor, of: id, committed: true) }
        }
    }

    deinit {
        release(committed: false)
    }
}
