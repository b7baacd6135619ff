import Foundation
import PhotosMedia
import PhotosStore

/// A request, inside a change block, to create an asset, edit its
/// properties, or delete assets.
public class PHAssetChangeRequest: PHChangeRequest, @unchecked Sendable {
    /// A file or data to store for a new asset.
    struct PendingResource {
        enum Source {
            case file(URL)
            case data(Data)
        }

        var type: PHAssetResourceType
        var source: Source
        var options: PHAssetResourceCreationOptions?
        /// What an import learnt of the file before its block.
        var probed: FileReading.Probed?
    }

    enum Target {
        case creation(uuid: String)
        case existing(PHAsset)
    }

    let target: Target
    var resources: [PendingResource] = []
    private var newCreationDate: Date??
    private var newLocation: CLLocation??
    private var newFavorite: Bool?
    private var newHidden: Bool?
    private var newRating: PHAsset.Rating?
    private var newCaption: String??
    private var keywordChanges: [KeywordChange] = []
    private var livePhotoPlaybackEnabled: Bool?
    /// The original a creation request renders from (`PHAssetCreationRequest.originalResourceChoice`).
    var newOriginalResourceChoice: PHAsset.OriginalResourceChoice?
    /// The Live Photo effect a creation request's sidecar gives it (an import's `.AAE`), over what its resources say.
    var newLivePhotoEffect: LivePhotoEffect?
    private var contentChange: ContentChange?

    /// What the request does to the asset's content.
    private enum ContentChange {
        case output(PHContentEditingOutput)
        case revert(choosing: PHAsset.OriginalResourceChoice?)
    }

    /// Registers the request with the running change block.
    required init(target: Target, api: String) {
        self.target = target
        super.init()
        ChangeBlock.required(by: api).add(self)
    }

    /// A request to edit an asset's properties. Traps outside a change block,
    /// and for an asset that does not allow edits (`canPerform(.properties)`),
    /// as PhotoKit raises.
    public convenience init(for asset: PHAsset) {
        precondition(asset.canPerform(.properties), "\(asset.localIdentifier) does not allow changes: check canPerform(_:) first")
        self.init(target: .existing(asset), api: "PHAssetChangeRequest(for:)")
    }

    static func makeCreation(api: String) -> Self {
        Self(target: .creation(uuid: UUID().uuidString), api: api)
    }

    /// A request to create an asset from an image. The image is stored as
    /// JPEG, or PNG when it has transparency.
    @discardableResult
    public class func creationRequestForAsset(from image: UIImage) -> Self {
        let request = makeCreation(api: "creationRequestForAsset(from:)")
        request.resources.append(PendingResource(type: .photo, source: .data(image.encodedForStorage()), options: nil))
        return request
    }

    /// A request to create an asset from an image file, which is copied into
    /// the library. An unreadable file fails the whole change block with
    /// `PHPhotosError.invalidResource`; the request itself is never nil.
    @discardableResult
    public class func creationRequestForAssetFromImage(atFileURL fileURL: URL) -> Self? {
        let request = makeCreation(api: "creationRequestForAssetFromImage(atFileURL:)")
        request.resources.append(PendingResource(type: .photo, source: .file(fileURL), options: nil))
        return request
    }

    /// A request to create an asset from a video file, which is copied into
    /// the library. An unreadable file fails the whole change block with
    /// `PHPhotosError.invalidResource`; the request itself is never nil.
    @discardableResult
    public class func creationRequestForAssetFromVideo(atFileURL fileURL: URL) -> Self? {
        let request = makeCreation(api: "creationRequestForAssetFromVideo(atFileURL:)")
        request.resources.append(PendingResource(type: .video, source: .file(fileURL), options: nil))
        return request
    }

    /// Stands for the asset this request creates; nil for edit requests.
    public var placeholderForCreatedAsset: PHObjectPlaceholder? {
        guard case .creation(let uuid) = target else { return nil }
        return PHObjectPlaceholder(
            localIdentifier: LocalIdentifier(uuid: uuid, entity: .asset).description,
            library: nil)
    }

    /// Moves assets to Recently Deleted, where they stay 30 days (or until it
    /// is emptied) and can be restored. Assets already there stay there.
    public class func deleteAssets(_ assets: any NSFastEnumeration) {
        let api = "PHAssetChangeRequest.deleteAssets(_:)"
        let block = ChangeBlock.required(by: api)
        block.add(ObjectRemoval(.trashAssets(memberAssets(assets, library: block.library, api: api))))
    }

    /// Brings assets back from Recently Deleted. An OpenPhotoKit addition:
    /// Apple's Photos does this in its app only.
    public class func restoreDeletedAssets(_ assets: any NSFastEnumeration) {
        let api = "PHAssetChangeRequest.restoreDeletedAssets(_:)"
        let block = ChangeBlock.required(by: api)
        block.add(ObjectRemoval(.restoreAssets(memberAssets(assets, library: block.library, api: api))))
    }

    /// When the asset was taken. Reads the asset's value until set; `nil` clears it.
    public var creationDate: Date? {
        get { newCreationDate ?? existingAsset?.creationDate }
        set { newCreationDate = .some(newValue) }
    }

    /// Where the asset was taken. Reads the asset's value until set; `nil` clears it.
    public var location: CLLocation? {
        get { newLocation ?? existingAsset?.location }
        set { newLocation = .some(newValue) }
    }

    /// Whether the asset is a favorite.
    public var isFavorite: Bool {
        get { newFavorite ?? existingAsset?.isFavorite ?? false }
        set { newFavorite = newValue }
    }

    /// Whether the asset is hidden: left out of fetches unless they include hidden assets.
    public var isHidden: Bool {
        get { newHidden ?? existingAsset?.isHidden ?? false }
        set { newHidden = newValue }
    }

    /// How many stars the asset has. Reads the asset's rating until set.
    public var rating: PHAsset.Rating {
        get { newRating ?? existingAsset?.rating ?? .unset }
        set { newRating = newValue }
    }

    /// The asset's caption. Reads the asset's caption until set; nil or an
    /// empty string clears it. The block fails with `changeNotSupported` for
    /// a caption over 16 KiB of UTF-8 or holding a control character other
    /// than a line break or tab. Cost: reading it before setting it reads
    /// the asset's extended metadata (one query, once per asset object).
    public var caption: String? {
        get {
            if let newCaption { return newCaption }
            return existingAsset?.extendedMetadata.caption
        }
        set { newCaption = .some(newValue.flatMap { $0.isEmpty ? nil : $0 }) }
    }

    /// Gives the asset a keyword, after those it has; one it has already is
    /// ignored. Keywords compare exactly (`Beach` and `beach` are two). The
    /// block fails with `changeNotSupported` for an empty keyword, one over
    /// 256 bytes of UTF-8 or holding a control character, or when the
    /// asset would have more than 500.
    public func addKeyword(_ keyword: String) {
        keywordChanges.append(.add(keyword))
    }

    /// Takes a keyword from the asset; one it does not have is ignored.
    public func removeKeyword(_ keyword: String) {
        keywordChanges.append(.remove(keyword))
    }

    /// The result of an edit of the asset's content: its rendering replaces
    /// what is shown, its adjustment data is kept to reopen the edit, and
    /// the original stays. The block fails with `invalidResource` when the
    /// output has no adjustment data or its rendered file cannot be read.
    public var contentEditingOutput: PHContentEditingOutput? {
        get {
            if case .output(let output) = contentChange { return output }
            return nil
        }
        set {
            precondition(
                existingAsset?.canPerform(.content) ?? true,
                "\(existingAsset?.localIdentifier ?? "") does not allow content edits: check canPerform(.content) first")
            contentChange = newValue.map(ContentChange.output)
        }
    }

    /// Goes back to the asset's original content: the rendering and
    /// adjustment data of its edit are removed. Nothing happens to an asset
    /// that has no edit.
    public func revertAssetContentToOriginal() {
        precondition(existingAsset != nil, "revertAssetContentToOriginal() needs a request for an existing asset")
        contentChange = .revert(choosing: nil)
    }

    /// Goes back to the asset's original, as ``revertAssetContentToOriginal()``
    /// does, and makes `choice` the original it renders from and edits start
    /// from: the camera raw file or the JPEG of a RAW+JPEG asset. Done even
    /// for an asset without edits. The block fails with `changeNotSupported`
    /// for an asset with one original.
    public func revertAssetContent(to choice: PHAsset.OriginalResourceChoice) {
        precondition(existingAsset != nil, "revertAssetContent(to:) needs a request for an existing asset")
        contentChange = .revert(choosing: choice)
    }

    /// Shows a Live Photo as a still (false), or with its motion again
    /// (true): its playback style becomes `.image` or `.livePhoto`, its
    /// paired video kept either way. Asked of an asset that is not a Live
    /// Photo, it changes nothing.
    public func setLivePhotoVideoPlaybackEnabled(_ enabled: Bool) {
        livePhotoPlaybackEnabled = enabled
    }

    private var existingAsset: PHAsset? {
        if case .existing(let asset) = target { return asset }
        return nil
    }

    override func contribute(to builder: ChangeSetBuilder) throws(PHPhotosError) {
        switch target {
        case .existing(let asset):
            let content = try contentChange.map { change throws(PHPhotosError) -> ContentEdit in
                switch change {
                case .output(let output): .adjust(try EditedContent(output, asset: asset).staged(in: builder.session))
                case .revert(let choice): .revert(choosing: choice.map(AssetOriginalResourceChoice.init))
                }
            }
            guard
                newCreationDate != nil || newLocation != nil || newFavorite != nil || newHidden != nil || content != nil
                    || newRating != nil || newCaption != nil || !keywordChanges.isEmpty || livePhotoPlaybackEnabled != nil
            else { return }
            builder.editAsset(asset.record.uuid) { edit in
                if let newCreationDate { edit.creationDate = .some(newCreationDate) }
                if let newLocation { edit.location = .some(newLocation.map(StoredLocation.init)) }
                if let newFavorite { edit.isFavorite = newFavorite }
                if let newHidden { edit.isHidden = newHidden }
                if let content { edit.content = content }
                if let newRating { edit.rating = AssetRating(newRating) }
                if let newCaption { edit.caption = .some(newCaption) }
                edit.keywordChanges += keywordChanges
                if let livePhotoPlaybackEnabled { edit.livePhotoPlaybackEnabled = livePhotoPlaybackEnabled }
            }
        case .creation(let uuid):
            var resources = self.resources
            var edit: EditedContent?
            if case .output(let output) = contentChange {
                // Created already edited: the rendering and adjustment data are resources from the start.
                let edited = try EditedContent(output, asset: nil)
                resources += edited.pendingResources
                edit = edited
            }
            let preparation = NewAssetPreparation(uuid: uuid, resources: resources, session: builder.session)
            let (creationDate, location, favorite, hidden) = (newCreationDate, newLocation, newFavorite, newHidden)
            let (rating, caption, keywordChanges) = (newRating, newCaption, keywordChanges)
            let (playbackEnabled, originalChoice, effect) = (livePhotoPlaybackEnabled, newOriginalResourceChoice, newLivePhotoEffect)
            builder.prepareNewAsset(preparation) { asset in
                if let creationDate {
                    asset.record.creationDate = creationDate
                    if asset.timeZoneIsAssumed, let date = creationDate { asset.record.timeZoneOffset = TimeZone.current.secondsFromGMT(for: date) }
                }
                if let location { asset.record.location = location.map(StoredLocation.init) }
                if let favorite { asset.record.isFavorite = favorite }
                if let hidden { asset.record.isHidden = hidden }
                if let rating { asset.record.rating = AssetRating(rating) }
                if let originalChoice { asset.record.originalResourceChoice = AssetOriginalResourceChoice(originalChoice) }
                if let effect { asset.record.play(effect) }
                if playbackEnabled == false, asset.record.mediaSubtypes.contains(.photoLive) { asset.record.playbackStyle = .image }
                if caption != nil || !keywordChanges.isEmpty {
                    // Over what the file itself records.
                    var metadata = asset.record.extendedMetadata ?? ExtendedMetadataRecord()
                    if let caption { metadata.caption = caption }
                    metadata.keywords = KeywordChange.apply(keywordChanges, to: metadata.keywords)
                    asset.record.extendedMetadata = metadata
                }
                if let edit { edit.apply(to: &asset) }
            }
        }
    }
}

extension StoredLocation {
    init(_ location: CLLocation) {
        self.init(
            latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
            altitude: location.verticalAccuracy < 0 ? nil : location.altitude,
            timestamp: location.timestamp,
            horizontalAccuracy: location.horizontalAccuracy < 0 ? nil : location.horizontalAccuracy,
            course: location.course < 0 ? nil : location.course,
            speed: location.speed < 0 ? nil : location.speed)
    }
}
