import Foundation
import HTTPTypes
import Hummingbird
import Photos
import PhotosMedia

/// `POST /v1/changes`: one change block, as a JSON list of PhotoKit change
/// requests, applied atomically by `performChangesAndWait`: all of them or
/// none. A request may name an object created earlier in the same block by
/// its `ref` (`"$ref"`), as PhotoKit's placeholders allow. With
/// `If-Match: "<change token>"` the block is refused with 412 when the
/// library has changed since that token.
///
/// The route is generated (``JSONRoutes/performChanges(_:)``); its body is
/// decoded as ``Block``, the document's `ChangeBlock` schema typed here
/// (`typeOverrides` in the generator's configuration), because a change
/// request tells a field set to null (cleared) from a field left out
/// (unchanged), which the generator's optionals cannot.
enum ChangeBlocks {
    /// A change block's body: its requests, each decoded strictly (a field
    /// the request type does not take is refused), and nothing else.
    struct Block: Codable, Hashable, Sendable {
        let requests: [ChangeRequest]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            let key = AnyKey(stringValue: "requests")
            if let unknown = container.allKeys.first(where: { $0.stringValue != key.stringValue }) {
                throw DecodingError.dataCorruptedError(forKey: unknown, in: container, debugDescription: "unknown field \"\(unknown.stringValue)\"")
            }
            requests = try container.decode([Strict<ChangeRequest>].self, forKey: key).map(\.value)
            guard !requests.isEmpty, requests.count <= 1000 else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "a block holds 1 to 1000 requests")
            }
        }
    }

    /// One change request. `op` says which; the other fields are its arguments.
    /// Its stored properties are the fields a request takes (see ``Strict``).
    struct ChangeRequest: Codable, Hashable, Sendable {
        enum Operation: String, Codable, Hashable, Sendable {
            case createAsset, updateAsset, deleteAssets, restoreAssets
            case createAlbum, updateAlbum, deleteAlbums
            case createFolder, updateFolder, deleteFolders
        }

        let op: Operation
        let ref: String?
        /// A finished upload, for `createAsset`.
        let upload: String?
        /// A finished upload of the video that makes the photo in `upload` a Live Photo, for `createAsset`.
        let pairedVideo: String?
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
        let location: FieldUpdate<AssetRepresentation.Location>
        /// Stars, 0 (none) to 5.
        let rating: Int?
        /// Null, or an empty string, clears it.
        let caption: FieldUpdate<String>
        let addKeywords: [String]?
        let removeKeywords: [String]?
        let addAssets: [String]?
        let removeAssets: [String]?
        /// Assets of the album to move, for `updateAlbum`, in their present order…
        let moveAssets: [String]?
        /// …to this index of the album's order once they are taken out.
        let toIndex: Int?
        let addCollections: [String]?
        let removeCollections: [String]?
    }

    /// What a committed block made and the library's token after it.
    struct Committed: Sendable {
        /// What each creating request made, by its `ref` (or `#index`, its
        /// position in the block, without one): its local identifier.
        let created: [String: String]
        let token: String
    }

    /// Commits `block` for `principal` in `library`, after the library's
    /// state `precondition` names (an `If-Match` header) when given: 412
    /// when it has changed since.
    static func commit(
        _ block: Block, for principal: Principal, in library: PHPhotoLibrary, uploads: UploadStore, precondition: String?
    ) async throws -> Committed {
        let expected = try precondition.map { try Self.requiredToken($0, principal: principal) }
        do {
            return try await blocking {
                try Self.perform(
                    block, in: library, uploads: UploadedFiles(store: uploads, tokenID: principal.tokenID),
                    ifUnchangedSince: expected)
            }
        } catch let error as PHPhotoLibrary.StateChangedError {
            throw Self.preconditionFailed(principal, detail: "\(error.description) (If-Match)")
        } catch let error as PHPhotosError where precondition != nil && error.code == .persistentChangeTokenExpired {
            throw Self.preconditionFailed(principal, detail: "the change token in If-Match is older than the kept history")
        } catch let error as PHPhotosError where precondition != nil && error.code == .identifierNotFound && !principal.isOwner {
            throw Self.preconditionFailed(principal, detail: error.localizedDescription)
        }
    }

    /// The change token of an `If-Match` header (`"TOKEN"`). For the owner
    /// a header that names no token is 400; any other principal gets the
    /// one answer every failure of its tokens gets (``preconditionFailed(_:detail:)``).
    private static func requiredToken(_ header: String, principal: Principal) throws -> PHPersistentChangeToken {
        let text = header.trimmingOptionalWhitespace()
        let unquoted = text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? text.dropFirst().dropLast() : text
        guard let token = PHPersistentChangeToken(textRepresentation: String(unquoted)) else {
            guard principal.isOwner else { throw preconditionFailed(principal, detail: "") }
            throw Problem.badRequest("If-Match must be \"<change token>\", a token this server gave")
        }
        return token
    }

    /// 412: the change block required a state the library is no longer in.
    /// The owner is told why; any other principal is told one thing,
    /// whatever is wrong, so that no token it alters teaches it anything.
    private static func preconditionFailed(_ principal: Principal, detail: String) -> Problem {
        Problem(
            .preconditionFailed,
            principal.isOwner
                ? detail
                : """
                the library has changed since the change token in If-Match, or the token is not one this client was given: \
                read the library again and resend with its current token
                """)
    }

    private static func perform(
        _ block: Block, in library: PHPhotoLibrary, uploads: UploadedFiles,
        ifUnchangedSince expected: PHPersistentChangeToken?
    ) throws -> Committed {
        // Everything that can fail is decided before the block runs: a
        // PhotoKit change block cannot be abandoned halfway.
        let steps = try library.withCurrentLibrary { try plan(block, objects: ReferencedObjects(block), uploads: uploads) }
        nonisolated(unsafe) var state = BlockState()
        let change: () -> Void = {
            for step in steps { step(&state) }
        }
        if let expected {
            try library.performChangesAndWait(ifUnchangedSince: expected, change)
        } else {
            try library.performChangesAndWait(change)
        }
        uploads.release(committed: true)
        return Committed(created: state.placeholders.mapValues(\.localIdentifier), token: library.currentChangeToken.textRepresentation)
    }

    /// What the requests of a block made so far, as it runs: the
    /// placeholders of what they created (by ref, or `#index` without
    /// one), and the requests that create albums and folders, which later
    /// requests of the block edit through their refs.
    private struct BlockState {
        var placeholders: [String: PHObjectPlaceholder] = [:]
        var albums: [String: PHAssetCollectionChangeRequest] = [:]
        var folders: [String: PHCollectionListChangeRequest] = [:]
    }

    /// A request made ready to run: every object found, every field checked.
    private typealias Step = (inout BlockState) -> Void

    /// What a ref names: the kind of object its request creates. A `$ref`
    /// is taken only where that kind is, so no request of a block can hand
    /// PhotoKit an album where it expects a photo (which PhotoKit traps on).
    private enum CreatedKind: String {
        case asset, album, folder
    }

    /// One object a request names: an existing one, or one an earlier request of the block creates.
    private enum Target {
        case existing(AnyObject)
        case created(ref: String)

        /// The object, or the placeholder of the one created; planning made
        /// sure every ref is created by an earlier request, which ran first.
        func resolve(_ state: BlockState) -> AnyObject? {
            switch self {
            case .existing(let object): object
            case .created(let ref): state.placeholders[ref]
            }
        }
    }

    /// An album or folder a request edits: an existing one, or one created earlier in the block.
    private enum Edited<Collection> {
        case existing(Collection)
        case created(ref: String)
    }

    /// The step of a `createAsset`: the asset of `upload` (with its Live
    /// Photo video when there is one), reported under `key`, and under
    /// `alsoKnownAs` too when the block's other request for its video is paired into it.
    /// The step that creates one asset: `upload` shown, with the Live
    /// Photo video and the camera raw file the block pairs with it, under
    /// `key` and the keys of the other requests that named those uploads.
    private static func createAsset(
        _ request: ChangeRequest, key: String, upload: UploadedFiles.File,
        pairedVideo: UploadedFiles.File?, alternatePhoto: UploadedFiles.File?,
        alsoKnownAs: [String]
    ) throws -> Step {
        var resources = [(upload, upload.isVideo ? PHAssetResourceType.video : .photo)]
        if let alternatePhoto { resources.append((alternatePhoto, .alternatePhoto)) }
        if let pairedVideo { resources.append((pairedVideo, .pairedVideo)) }
        let location = try Self.location(request)
        let description = try Self.description(request)
        return { state in
            let creation = PHAssetCreationRequest.forAsset()
            for (resource, type) in resources {
                let options = PHAssetResourceCreationOptions()
                options.originalFilename = resource.filename
                options.shouldMoveFile = true
                creation.addResource(with: type, fileURL: resource.url, options: options)
            }
            if let favorite = request.favorite { creation.isFavorite = favorite }
            if let hidden = request.hidden { creation.isHidden = hidden }
            if let date = request.creationDate { creation.creationDate = date }
            if let location { creation.location = location }
            description(creation)
            state.placeholders[key] = creation.placeholderForCreatedAsset
            for other in alsoKnownAs { state.placeholders[other] = creation.placeholderForCreatedAsset }
        }
    }

    private static func plan(_ block: Block, objects: ReferencedObjects, uploads: UploadedFiles) throws -> [Step] {
        var refs: [String: CreatedKind] = [:]
        func define(_ ref: String?, as kind: CreatedKind) throws {
            guard let ref else { return }
            guard (1...64).contains(ref.utf8.count), !ref.hasPrefix("#"), !ref.hasPrefix("$") else {
                throw Problem.badRequest("a ref is 1 to 64 bytes, not starting with # or $")
            }
            guard refs[ref] == nil else { throw Problem.badRequest("ref \(ref) is used twice in the block") }
            refs[ref] = kind
        }
        /// The ref a `$ref` names, which an earlier request created as one of `kinds`.
        func createdRef(_ id: String, _ kinds: Set<CreatedKind>) throws -> String {
            let ref = String(id.dropFirst())
            guard let kind = refs[ref] else { throw Problem.badRequest("no earlier request of the block has ref \(ref)") }
            guard kinds.contains(kind) else {
                let wanted = kinds.map(\.rawValue).sorted().joined(separator: " or ")
                throw Problem.badRequest(
                    "ref \(ref) names the \(kind.rawValue) an earlier request creates; here it must name \(wanted == "album or folder" ? "an" : "a") \(wanted)")
            }
            return ref
        }
        func targets(_ ids: [String]?, _ kinds: Set<CreatedKind>, _ find: (String) throws -> AnyObject) throws -> [Target] {
            try (ids ?? []).map { id in
                id.hasPrefix("$") ? .created(ref: try createdRef(id, kinds)) : .existing(try find(id))
            }
        }
        func edited<Collection>(_ id: String?, _ kind: CreatedKind, _ find: (String?) throws -> Collection) throws -> Edited<Collection> {
            guard let id, id.hasPrefix("$") else { return .existing(try find(id)) }
            return .created(ref: try createdRef(id, [kind]))
        }
        func existing<Collection>(_ ids: [String]?, _ kind: CreatedKind, _ find: (String?) throws -> Collection) throws -> [Collection] {
            try (ids ?? []).map { id in
                guard !id.hasPrefix("$") else {
                    throw Problem.badRequest("\(id) names the \(kind.rawValue) this block creates; a block cannot delete what it creates")
                }
                return try find(id)
            }
        }
        func all(_ targets: [Target], _ state: BlockState) -> NSArray {
            targets.compactMap { $0.resolve(state) } as NSArray
        }
        // Every upload the block's createAsset requests name, taken first,
        // so that a Live Photo's two halves, or a raw file and its JPEG, are
        // paired wherever they stand.
        var taken: [Int: (file: UploadedFiles.File, pairedVideo: UploadedFiles.File?)] = [:]
        for (index, request) in block.requests.enumerated() where request.op == .createAsset {
            let file = try uploads.take(request.upload)
            let pairedVideo = try request.pairedVideo.map { try uploads.take($0) }
            if let pairedVideo, file.isVideo || !pairedVideo.isVideo {
                throw Problem.badRequest("pairedVideo is the video of a Live Photo: upload must be its photo, and pairedVideo a video")
            }
            taken[index] = (file, pairedVideo)
        }
        let groups = UploadGroups(taken.filter { $0.value.pairedVideo == nil }.mapValues(\.file))
        return try block.requests.enumerated().map { index, request -> Step in
            // What a request creates is reported under its ref, or `#index` without one.
            let key = request.ref ?? "#\(index)"
            switch request.op {
            case .createAsset, .createAlbum, .createFolder: break
            default:
                if request.ref != nil { throw Problem.badRequest("a ref names what a request creates; \(request.op.rawValue) creates nothing") }
            }
            switch request.op {
            case .createAsset:
                try define(request.ref, as: .asset)
                // What the block pairs by itself is made by the first of its requests, as the shown photo's.
                if let group = groups.group(of: index) {
                    guard index == group.members.min() else { return { _ in } }
                    let keyOf = { (member: Int) in block.requests[member].ref ?? "#\(member)" }
                    return try Self.createAsset(
                        block.requests[group.shown], key: keyOf(group.shown), upload: taken[group.shown]!.file,
                        pairedVideo: group.pairedVideo.map { taken[$0]!.file },
                        alternatePhoto: group.alternatePhoto.map { taken[$0]!.file },
                        alsoKnownAs: group.members.filter { $0 != group.shown }.map(keyOf))
                }
                return try Self.createAsset(
                    request, key: key, upload: taken[index]!.file, pairedVideo: taken[index]!.pairedVideo,
                    alternatePhoto: nil, alsoKnownAs: [])
            case .updateAsset:
                let change = try objects.asset(request.asset)
                guard change.canPerform(.properties) else {
                    throw Problem(
                        .unprocessableContent, "asset \(ObjectID.urlForm(change.localIdentifier)) does not allow changes",
                        code: .changeNotSupported)
                }
                let location = try Self.location(request)
                let description = try Self.description(request)
                return { _ in
                    let asset = PHAssetChangeRequest(for: change)
                    if let favorite = request.favorite { asset.isFavorite = favorite }
                    if let hidden = request.hidden { asset.isHidden = hidden }
                    if let date = request.creationDate { asset.creationDate = date }
                    if let location { asset.location = location }
                    description(asset)
                }
            case .deleteAssets, .restoreAssets:
                let assets = try existing(request.assets, .asset, objects.asset)
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
                let added = try targets(request.addAssets, [.asset], objects.asset)
                try define(request.ref, as: .album)
                return { state in
                    let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                    album.addAssets(all(added, state))
                    state.placeholders[key] = album.placeholderForCreatedAssetCollection
                    if let ref = request.ref { state.albums[ref] = album }
                }
            case .updateAlbum:
                let album = try edited(request.album, .album, objects.album)
                let move: (indexes: IndexSet, toIndex: Int)?
                switch album {
                case .existing(let existing):
                    guard existing.canPerform(.addContent) || existing.canPerform(.rename) else {
                        throw Problem(.unprocessableContent, "this album cannot be changed", code: .changeNotSupported)
                    }
                    move = try Self.move(request, in: existing, objects: objects)
                case .created:
                    guard request.moveAssets == nil, request.toIndex == nil else {
                        throw Problem.badRequest("an album made in this block is in the order its assets were added; move them in a later block")
                    }
                    move = nil
                }
                let (added, removed) = (
                    try targets(request.addAssets, [.asset], objects.asset),
                    try targets(request.removeAssets, [.asset], objects.asset)
                )
                return { state in
                    let change: PHAssetCollectionChangeRequest? =
                        switch album {
                        case .existing(let existing): PHAssetCollectionChangeRequest(for: existing)
                        case .created(let ref): state.albums[ref]
                        }
                    guard let change else { return }
                    if let title = request.title { change.title = title }
                    if let move { change.moveAssets(at: move.indexes, to: move.toIndex) }
                    change.addAssets(all(added, state))
                    change.removeAssets(all(removed, state))
                }
            case .deleteAlbums:
                let albums = try existing(request.albums, .album, objects.album)
                return { _ in PHAssetCollectionChangeRequest.deleteAssetCollections(albums as NSArray) }
            case .createFolder:
                let title = try required(request.title, "title")
                let added = try targets(request.addCollections, [.album, .folder], objects.collection)
                try define(request.ref, as: .folder)
                return { state in
                    let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: title)
                    folder.addChildCollections(all(added, state))
                    state.placeholders[key] = folder.placeholderForCreatedCollectionList
                    if let ref = request.ref { state.folders[ref] = folder }
                }
            case .updateFolder:
                let folder = try edited(request.folder, .folder, objects.folder)
                if case .existing(let existing) = folder, !existing.canPerform(.addContent) {
                    throw Problem(.unprocessableContent, "this folder cannot be changed", code: .changeNotSupported)
                }
                let (added, removed) = (
                    try targets(request.addCollections, [.album, .folder], objects.collection),
                    try targets(request.removeCollections, [.album, .folder], objects.collection)
                )
                return { state in
                    let change: PHCollectionListChangeRequest? =
                        switch folder {
                        case .existing(let existing): PHCollectionListChangeRequest(for: existing)
                        case .created(let ref): state.folders[ref]
                        }
                    guard let change else { return }
                    if let title = request.title { change.title = title }
                    change.addChildCollections(all(added, state))
                    change.removeChildCollections(all(removed, state))
                }
            case .deleteFolders:
                let folders = try existing(request.folders, .folder, objects.folder)
                return { _ in PHCollectionListChangeRequest.deleteCollectionLists(folders as NSArray) }
            }
        }
    }

    /// Where `moveAssets` are in the album now and where they go; nil when
    /// the request moves nothing. The album's own order is the one moved.
    private static func move(
        _ request: ChangeRequest, in album: PHAssetCollection,
        objects: ReferencedObjects
    ) throws -> (indexes: IndexSet, toIndex: Int)? {
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
        let value: AssetRepresentation.Location
        switch request.location {
        case .unchanged: return .none
        case .cleared: return .some(nil)
        case .set(let location): value = location
        }
        guard (-90...90).contains(value.latitude), (-180...180).contains(value.longitude) else {
            throw Problem.badRequest("a location's latitude is -90 to 90 and its longitude -180 to 180")
        }
        return CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: value.latitude, longitude: value.longitude),
            altitude: value.altitude ?? 0, horizontalAccuracy: 0, verticalAccuracy: 0, timestamp: Date())
    }

    /// What a request's `rating`, `caption`, `addKeywords` and
    /// `removeKeywords` do to an asset's change request, checked first: a
    /// rating past 0...5 is 400. The text's own limits are the library's
    /// (422 `changeNotSupported` from the block).
    private static func description(_ request: ChangeRequest) throws -> @Sendable (PHAssetChangeRequest) -> Void {
        let rating = try request.rating.map { stars in
            guard let rating = PHAsset.Rating(rawValue: stars) else { throw Problem.badRequest("a rating is 0 (none) to 5 stars") }
            return rating
        }
        // The document's maxItems for keyword lists.
        for (name, list) in [("addKeywords", request.addKeywords), ("removeKeywords", request.removeKeywords)] where (list?.count ?? 0) > 500 {
            throw Problem.badRequest("\(name) holds at most 500 keywords")
        }
        if request.op == .createAsset, request.removeKeywords != nil {
            throw Problem.badRequest("removeKeywords applies to updateAsset; a new asset has no keywords to remove")
        }
        let caption = request.caption
        let added = request.addKeywords ?? []
        let removed = request.removeKeywords ?? []
        return { asset in
            if let rating { asset.rating = rating }
            switch caption {
            case .unchanged: break
            case .cleared: asset.caption = nil
            case .set(let text): asset.caption = text
            }
            added.forEach(asset.addKeyword)
            removed.forEach(asset.removeKeyword)
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

    init(_ block: ChangeBlocks.Block) throws {
        var assetIDs: Set<String> = []
        var albumIDs: Set<String> = []
        var folderIDs: Set<String> = []
        var collectionIDs: Set<String> = []
        for request in block.requests {
            assetIDs.formUnion(
                [request.asset].compactMap { $0 } + (request.assets ?? []) + (request.addAssets ?? []) + (request.removeAssets ?? [])
                    + (request.moveAssets ?? []))
            albumIDs.formUnion([request.album].compactMap { $0 } + (request.albums ?? []))
            folderIDs.formUnion([request.folder].compactMap { $0 } + (request.folders ?? []))
            collectionIDs.formUnion((request.addCollections ?? []) + (request.removeCollections ?? []))
        }
        let existing = { (ids: Set<String>) in ids.filter { !$0.hasPrefix("$") } }
        let assetIdentifiers = try existing(assetIDs).map { try Self.identifier($0, .asset, "asset") }
        let hidden = PHFetchOptions()
        hidden.includeHiddenAssets = true
        let foundAssets = PHAsset.fetchAssets(withLocalIdentifiers: assetIdentifiers, options: hidden)
        foundAssets.enumerateObjects { asset, _, _ in assets[ObjectID.urlForm(asset.localIdentifier).uppercased()] = asset }
        // Only a restore may name an asset in Recently Deleted; fetches leave those out.
        let restored = Set(block.requests.filter { $0.op == .restoreAssets }.flatMap { $0.assets ?? [] }.map { $0.uppercased() })
        assets.merge(AssetLookup.recentlyDeleted(restored.subtracting(assets.keys))) { found, _ in found }
        let albumIdentifiers = try existing(albumIDs.union(collectionIDs)).map { try Self.identifier($0, .assetCollection, "album") }
        let foundAlbums = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: albumIdentifiers, options: nil)
        foundAlbums.enumerateObjects { album, _, _ in albums[ObjectID.urlForm(album.localIdentifier).uppercased()] = album }
        let folderIdentifiers = try existing(folderIDs.union(collectionIDs)).map { try Self.identifier($0, .collectionList, "folder") }
        let foundFolders = PHCollectionList.fetchCollectionLists(withLocalIdentifiers: folderIdentifiers, options: nil)
        foundFolders.enumerateObjects { folder, _, _ in folders[ObjectID.urlForm(folder.localIdentifier).uppercased()] = folder }
    }

    private static func identifier(_ id: String, _ type: PHObjectType, _ kind: String) throws -> String {
        guard let identifier = ObjectID.localIdentifier(id, of: type) else { throw Problem.notFound("no \(kind) has the id \(id)") }
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
/// The assets a change block makes of several of its `createAsset`
/// uploads, as `importFiles` pairs files: a photo and a video that carry the
/// same Apple content identifier are one Live Photo (neither naming a
/// `pairedVideo`), and a camera raw file and the JPEG or HEIC uploaded
/// under the same name but the extension are one photo, the raw its
/// `alternatePhoto`, unless both say when they were taken and the times
/// differ by a second or more. Cost: each photo's EXIF read; when a photo
/// has an identifier, an ffprobe of at most ``videosLookedAt`` videos,
/// those named as its photo first (`IMG_0001.MOV` for `IMG_0001.HEIC`);
/// for a raw file and its JPEG, one probe each.
private struct UploadGroups {
    static let videosLookedAt = 64

    /// The requests that make one asset, by their index in the block.
    struct Group {
        /// The request whose upload the asset shows, and whose properties it takes.
        var shown: Int
        var pairedVideo: Int?
        var alternatePhoto: Int?

        var members: [Int] { [shown] + [pairedVideo, alternatePhoto].compactMap { $0 } }
    }

    private var groupOf: [Int: Group] = [:]

    /// `files`: the uploads of the block's `createAsset` requests, by request index.
    init(_ files: [Int: UploadedFiles.File]) {
        var probes: [Int: MediaMetadata?] = [:]
        func metadata(_ index: Int) -> MediaMetadata? {
            if let known = probes[index] { return known }
            let file = files[index]!
            let found = try? MediaProbe.probe(fileAt: file.url, verifiesDecoding: false, originalName: file.filename)
            probes[index] = found
            return found
        }
        func stem(_ file: UploadedFiles.File) -> String { (file.filename as NSString).deletingPathExtension.lowercased() }
        func isRaw(_ file: UploadedFiles.File) -> Bool { UniformType.forCameraRaw((file.filename as NSString).pathExtension) != nil }

        var groups: [Int: Group] = [:]
        // Raw and JPEG (or HEIC): one name, two extensions.
        let stills = files.filter { !$0.value.isVideo }
        for indices in Dictionary(grouping: stills.keys, by: { stem(stills[$0]!) }).values where indices.count == 2 {
            let raws = indices.filter { isRaw(stills[$0]!) }
            guard raws.count == 1, let raw = raws.first, let shown = indices.first(where: { $0 != raw }) else { continue }
            if let a = metadata(raw)?.captureDate, let b = metadata(shown)?.captureDate, abs(a.timeIntervalSince(b)) >= 1 { continue }
            groups[shown] = Group(shown: shown, alternatePhoto: raw)
        }
        let alternates = Set(groups.values.compactMap(\.alternatePhoto))

        // Live Photos: a photo and a video with one content identifier.
        let photos = stills.keys.filter { !alternates.contains($0) && !isRaw(stills[$0]!) }
            .compactMap { index in metadata(index)?.contentIdentifier.map { (index, $0) } }
        if !photos.isEmpty {
            let photoStems = Set(photos.map { stem(files[$0.0]!) })
            let candidates = files.filter(\.value.isVideo).sorted { a, b in
                let (aNamed, bNamed) = (photoStems.contains(stem(a.value)), photoStems.contains(stem(b.value)))
                return aNamed != bNamed ? aNamed : a.key < b.key
            }.prefix(Self.videosLookedAt)
            var videos: [String: Int] = [:]
            for (index, _) in candidates.sorted(by: { $0.key < $1.key }) {
                if let id = metadata(index)?.contentIdentifier, videos[id] == nil { videos[id] = index }
            }
            for (photo, id) in photos.sorted(by: { $0.0 < $1.0 }) {
                guard let video = videos.removeValue(forKey: id) else { continue }
                groups[photo, default: Group(shown: photo)].pairedVideo = video
            }
        }
        for group in groups.values {
            for member in group.members { groupOf[member] = group }
        }
    }

    /// The group the request at `index` belongs to, if the block pairs it.
    func group(of index: Int) -> Group? { groupOf[index] }
}

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
        let taken = used
        let store = store
        used = []
        guard committed else {
            for (id, descriptor) in taken { store.release(descriptor, of: id, committed: false) }
            return
        }
        // No longer the token's to count against its quota, from now.
        for (id, _) in taken { store.forget(id) }
        DispatchQueue.global(qos: .utility).async {
            for (id, descriptor) in taken { store.release(descriptor, of: id, committed: true) }
        }
    }

    deinit {
        release(committed: false)
    }
}
