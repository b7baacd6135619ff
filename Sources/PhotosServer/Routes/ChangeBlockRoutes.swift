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
            case updateAsset, deleteAssets, restoreAssets
            case createAlbum, updateAlbum, deleteAlbums
            case createFolder, updateFolder, deleteFolders
        }

        let op: Operation
        let ref: String?
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
        let addCollections: [String]?
        let removeCollections: [String]?

        private static let fields: Set<String> = [
            "op", "ref", "asset", "assets", "album", "albums", "folder", "folders", "title", "favorite", "hidden",
            "creationDate", "location", "addAssets", "removeAssets", "addCollections", "removeCollections",
        ]

        init(from decoder: any Decoder) throws {
            try decoder.refuseUnknownKeys(allowed: Self.fields)
            let container = try decoder.container(keyedBy: AnyKey.self)
            func field<T: Decodable>(_ name: String) throws -> T? {
                try container.decodeIfPresent(T.self, forKey: AnyKey(stringValue: name))
            }
            op = try container.decode(Operation.self, forKey: AnyKey(stringValue: "op"))
            ref = try field("ref")
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
            addCollections = try field("addCollections")
            removeCollections = try field("removeCollections")
        }
    }

    private struct Committed: Encodable {
        /// What each `ref` created: its local identifier.
        let created: [String: String]
        let token: String
    }

    func add(to group: RouterGroup<ServerContext>) {
        group.post("changes") { request, context -> Response in
            let library = try libraries.library(for: try context.requirePrincipal())
            let block = try await JSONBody.decode(Block.self, from: request, context: context)
            let expected = try request.headers[.ifMatch].map { text in
                try HistoryRoutes.token(text.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")))
            }
            let committed = try await blocking { try Self.perform(block, in: library, ifUnchangedSince: expected) }
            return try JSONBody.response(committed)
        }
    }

    private static func perform(_ block: Block, in library: PHPhotoLibrary, ifUnchangedSince expected: PHPersistentChangeToken?) throws -> Committed {
        let objects = try library.withCurrentLibrary { try ReferencedObjects(block) }
        if let expected, library.currentChangeToken != expected {
            throw Problem(.preconditionFailed, "the library has changed since the token in If-Match")
        }
        nonisolated(unsafe) var placeholders: [String: PHObjectPlaceholder] = [:]
        nonisolated(unsafe) var failure: (any Error)?
        try library.performChangesAndWait {
            do {
                for request in block.requests {
                    try apply(request, objects: objects, placeholders: &placeholders)
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return Committed(created: placeholders.mapValues(\.localIdentifier), token: library.currentChangeToken.textRepresentation)
    }

    private static func apply(_ request: ChangeRequest, objects: ReferencedObjects,
                              placeholders: inout [String: PHObjectPlaceholder]) throws {
        func created(_ placeholder: PHObjectPlaceholder) throws {
            guard let ref = request.ref else { return }
            guard placeholders[ref] == nil else { throw Problem.badRequest("ref \(ref) is used twice in the block") }
            placeholders[ref] = placeholder
        }
        func assets(_ ids: [String]?) throws -> [AnyObject] {
            try (ids ?? []).map { id in
                if id.hasPrefix("$") {
                    guard let placeholder = placeholders[String(id.dropFirst())] else { throw Problem.badRequest("no earlier request has ref \(id)") }
                    return placeholder
                }
                return try objects.asset(id)
            }
        }
        func collections(_ ids: [String]?) throws -> [AnyObject] {
            try (ids ?? []).map { id in
                if id.hasPrefix("$") {
                    guard let placeholder = placeholders[String(id.dropFirst())] else { throw Problem.badRequest("no earlier request has ref \(id)") }
                    return placeholder
                }
                return try objects.collection(id)
            }
        }
        switch request.op {
        case .updateAsset:
            let change = PHAssetChangeRequest(for: try objects.asset(request.asset))
            if let favorite = request.favorite { change.isFavorite = favorite }
            if let hidden = request.hidden { change.isHidden = hidden }
            if let date = request.creationDate { change.creationDate = date }
            if case .some(let location) = request.location {
                change.location = location.map { CLLocation(coordinate: CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude),
                                                            altitude: $0.altitude ?? 0, horizontalAccuracy: 0, verticalAccuracy: 0,
                                                            timestamp: Date()) }
            }
        case .deleteAssets:
            PHAssetChangeRequest.deleteAssets(try (request.assets ?? []).map { try objects.asset($0) } as NSArray)
        case .restoreAssets:
            PHAssetChangeRequest.restoreDeletedAssets(try (request.assets ?? []).map { try objects.asset($0) } as NSArray)
        case .createAlbum:
            let change = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: try required(request.title, "title"))
            change.addAssets(try assets(request.addAssets) as NSArray)
            try created(change.placeholderForCreatedAssetCollection)
        case .updateAlbum:
            guard let change = PHAssetCollectionChangeRequest(for: try objects.album(request.album)) else {
                throw Problem(.unprocessableContent, "this album cannot be changed", code: .changeNotSupported)
            }
            if let title = request.title { change.title = title }
            change.addAssets(try assets(request.addAssets) as NSArray)
            change.removeAssets(try assets(request.removeAssets) as NSArray)
        case .deleteAlbums:
            PHAssetCollectionChangeRequest.deleteAssetCollections(try (request.albums ?? []).map { try objects.album($0) } as NSArray)
        case .createFolder:
            let change = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: try required(request.title, "title"))
            change.addChildCollections(try collections(request.addCollections) as NSArray)
            try created(change.placeholderForCreatedCollectionList)
        case .updateFolder:
            guard let change = PHCollectionListChangeRequest(for: try objects.folder(request.folder)) else {
                throw Problem(.unprocessableContent, "this folder cannot be changed", code: .changeNotSupported)
            }
            if let title = request.title { change.title = title }
            change.addChildCollections(try collections(request.addCollections) as NSArray)
            change.removeChildCollections(try collections(request.removeCollections) as NSArray)
        case .deleteFolders:
            PHCollectionListChangeRequest.deleteCollectionLists(try (request.folders ?? []).map { try objects.folder($0) } as NSArray)
        }
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
            assetIDs.formUnion([request.asset].compactMap { $0 } + (request.assets ?? []) + (request.addAssets ?? []) + (request.removeAssets ?? []))
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
