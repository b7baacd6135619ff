import Foundation

/// What a file beside a photo or video says about it: Google Takeout's
/// JSON (`IMG_1234.jpg.json`, `….supplemental-metadata.json`), an XMP
/// sidecar as darktable (`IMG_1234.JPG.xmp`) and Lightroom (`IMG_1234.xmp`)
/// write, or the adjustments Apple's Photos exports (`IMG_1234.AAE`).
package struct Sidecar: Sendable, Equatable {
    /// Who wrote it, which decides how far it is trusted over the file.
    package enum Kind: Sendable, Equatable {
        /// Google Photos' record of the photo, with the person's corrections.
        case googleTakeout
        /// An editor's record of the photo.
        case xmp
        /// Apple's Photos' record of the photo's edits (``AppleAdjustments``).
        case appleAdjustments
    }

    package var kind: Kind
    package var file: URL
    package var captureTime: CaptureTime?
    package var location: MediaLocation?
    /// Whether the person moved the photo's place away from what the file
    /// recorded (Takeout's geoData differs from its geoDataExif).
    package var locationWasCorrected = false
    package var isFavorite: Bool?
    /// Archived in Google Photos: out of the main view, as hidden is in Apple's.
    package var isArchived: Bool?
    /// The rating, caption and keywords it records.
    package var descriptive = DescriptiveMetadata()
    /// The effect Apple's Photos plays the Live Photo with.
    package var livePhotoEffect: LivePhotoEffect?

    package init(
        kind: Kind, file: URL, captureTime: CaptureTime? = nil, location: MediaLocation? = nil,
        locationWasCorrected: Bool = false, isFavorite: Bool? = nil, isArchived: Bool? = nil,
        descriptive: DescriptiveMetadata = DescriptiveMetadata(), livePhotoEffect: LivePhotoEffect? = nil
    ) {
        self.kind = kind
        self.file = file
        self.captureTime = captureTime
        self.location = location
        self.locationWasCorrected = locationWasCorrected
        self.isFavorite = isFavorite
        self.isArchived = isArchived
        self.descriptive = descriptive
        self.livePhotoEffect = livePhotoEffect
    }

    /// The largest sidecar read: Takeout's are a few kilobytes.
    package static let maximumSize = 1 << 20

    /// Reads the sidecar at `url`; nil when it is not one (an album's
    /// metadata, other JSON, adjustments without a Live Photo effect,
    /// unreadable or too large).
    /// Cost: one small file read; for XMP, a request to the running exiftool.
    package static func read(_ url: URL) -> Sidecar? {
        switch url.pathExtension.lowercased() {
        case "json":
            guard let object = TakeoutJSON.object(at: url) else { return nil }
            return TakeoutJSON.sidecar(object, file: url)
        case "xmp":
            guard isSmallFile(url), let embedded = try? EmbeddedMetadata.read(fileAt: url.path) else { return nil }
            let exif = embedded.exif
            let location = exif.latitude.flatMap { latitude in
                exif.longitude.map { MediaLocation(latitude: latitude, longitude: $0, altitude: exif.altitude) }
            }
            let captureTime = exif.captureTime ?? embedded.otherCaptureTimes.first
            guard captureTime != nil || location != nil || !embedded.descriptive.isEmpty else { return nil }
            return Sidecar(kind: .xmp, file: url, captureTime: captureTime, location: location, descriptive: embedded.descriptive)
        case "aae":
            return AppleAdjustments.livePhotoEffect(ofFileAt: url).map { Sidecar(kind: .appleAdjustments, file: url, livePhotoEffect: $0) }
        default:
            return nil
        }
    }

    /// When the asset was taken, given what its file says: the file's own
    /// time wins, unless it has none but its name, or (for Takeout) the
    /// person changed the time in Google Photos: Google's time then differs
    /// from the file's by more than a minute, and by more than any time
    /// zone could explain when the file gives no offset. nil keeps the file's.
    package func captureDate(over file: MediaMetadata) -> Date? {
        guard let captureTime else { return nil }
        guard let own = file.captureDate, !file.isDatedByName else { return captureTime.date }
        guard kind == .googleTakeout else { return nil }
        let difference = abs(captureTime.date.timeIntervalSince(own))
        if file.captureTimeZoneOffset != nil { return difference > 60 ? captureTime.date : nil }
        let nearestQuarterHour = (difference / 900).rounded() * 900
        let explainedByAZone = difference <= 14 * 3600 + 60 && abs(difference - nearestQuarterHour) <= 60
        return explainedByAZone ? nil : captureTime.date
    }

    /// Where the asset was taken, given what its file says: a place the
    /// person corrected wins; otherwise the sidecar's only fills a file without one.
    package func location(over file: MediaMetadata) -> MediaLocation? {
        guard let location else { return nil }
        return file.location == nil || locationWasCorrected ? location : nil
    }

    /// Whether the file is a regular file of at most `maximumSize` bytes.
    static func isSmallFile(_ url: URL, maximumSize: Int = Sidecar.maximumSize) -> Bool {
        var status = stat()
        return stat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && status.st_size <= maximumSize
    }
}
