import Foundation

/// What a media file says about itself, read at import.
package struct MediaMetadata: Sendable, Equatable {
    /// Whether the file holds a still image or a video.
    package enum Kind: Sendable, Equatable {
        case image
        case video
    }

    package var kind: Kind
    /// Width in pixels as displayed, with the orientation applied.
    package var pixelWidth: Int
    /// Height in pixels as displayed, with the orientation applied.
    package var pixelHeight: Int
    /// EXIF orientation (1...8) of the stored pixels; 1 for video and unrotated images.
    package var orientation: Int
    /// When the photo or video was taken, when the file says so.
    package var captureDate: Date?
    /// The UTC offset the capture date was recorded in, in seconds, when the file says so.
    package var captureTimeZoneOffset: Int?
    /// Whether the capture date was read from the file's name, nothing in
    /// the file giving one: a sidecar's date is trusted over it.
    package var isDatedByName = false
    package var location: MediaLocation?
    package var cameraMake: String?
    package var cameraModel: String?
    package var lensModel: String?
    package var software: String?
    /// The EXIF CustomRendered value, which cameras use to mark HDR and panoramas.
    package var customRendered: Int?
    /// How long the shutter was open, in seconds, when the file says so.
    package var exposureTime: Double?
    /// Video duration in seconds; 0 for still images.
    package var duration: Double
    /// Video frames per second; nil for still images.
    package var frameRate: Double?
    /// A video's dynamic range, which its poster and playable copy are tone-mapped from.
    package var dynamicRange = DynamicRange.standard
    /// The rate a video was captured at, when it differs from its playback
    /// rate (Android records it for slow motion and time-lapse); nil otherwise.
    package var captureFrameRate: Double?
    /// Frames of an animated image; 1 otherwise.
    package var frameCount: Int
    package var hasAlpha: Bool
    /// The uniform type identifier of the file's format, such as `public.jpeg`.
    package var uniformTypeIdentifier: String
    /// The identifier Apple's cameras write in a Live Photo's still and video alike.
    package var contentIdentifier: String?
    /// The burst the photo belongs to, when the camera says so.
    package var burstIdentifier: String?
    /// Whether the file says it is a screenshot (iOS's EXIF user comment, or
    /// a camera-less image named as screenshot tools name them).
    package var isScreenshot: Bool
    /// Whether a video is a recording of a screen, as screen recorders name theirs.
    package var isScreenRecording = false
    /// Whether the file is spatial (stereoscopic) media (``SpatialMedia``).
    package var isSpatial = false
    /// The Live Photo effect a video rendered by Apple's Photos was made with.
    package var livePhotoEffect: LivePhotoEffect?
    /// The rating, caption and keywords the file's XMP or IPTC records.
    package var descriptive = DescriptiveMetadata()

    package init(
        kind: Kind, pixelWidth: Int, pixelHeight: Int, orientation: Int = 1,
        captureDate: Date? = nil, captureTimeZoneOffset: Int? = nil,
        location: MediaLocation? = nil, cameraMake: String? = nil,
        cameraModel: String? = nil, lensModel: String? = nil, software: String? = nil,
        customRendered: Int? = nil, exposureTime: Double? = nil, duration: Double = 0, frameRate: Double? = nil,
        captureFrameRate: Double? = nil, frameCount: Int = 1, hasAlpha: Bool = false,
        uniformTypeIdentifier: String, contentIdentifier: String? = nil, burstIdentifier: String? = nil,
        isScreenshot: Bool = false
    ) {
        self.kind = kind
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.captureDate = captureDate
        self.captureTimeZoneOffset = captureTimeZoneOffset
        self.location = location
        self.cameraMake = cameraMake
        self.cameraModel = cameraModel
        self.lensModel = lensModel
        self.software = software
        self.customRendered = customRendered
        self.exposureTime = exposureTime
        self.duration = duration
        self.frameRate = frameRate
        self.captureFrameRate = captureFrameRate
        self.frameCount = frameCount
        self.hasAlpha = hasAlpha
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.contentIdentifier = contentIdentifier
        self.burstIdentifier = burstIdentifier
        self.isScreenshot = isScreenshot
    }

    /// Whether the photo is a long exposure: the shutter stayed open at
    /// least a second, as for night scenes, light trails and silky water.
    /// Apple's Long Exposure album holds these and the Live Photos given
    /// that effect (``LivePhotoEffect/longExposure``, which their `.AAE` says).
    package var isLongExposure: Bool {
        kind == .image && (exposureTime ?? 0) >= Self.longExposureThreshold
    }

    /// The shortest exposure, in seconds, that counts as a long exposure.
    package static let longExposureThreshold = 1.0

    /// What the file itself shows of how it was captured, which becomes the
    /// asset's media subtypes: HDR, panoramas and Portrait photos as cameras
    /// mark them in EXIF's CustomRendered (2 and 3 HDR, 6 panorama, 7
    /// Portrait HDR, 8 Portrait, as Apple's cameras write it; a wide photo
    /// is not a panorama for its shape alone, as a phone's 20:9 photos are
    /// not), screenshots, animations (an image of several frames: GIF,
    /// WebP), slow-motion (at least 100 frames per second, or captured
    /// faster than played) and time-lapse video (captured slower than
    /// played), screen recordings, and spatial photos and videos.
    package var captureTraits: Set<CaptureTrait> {
        var traits: Set<CaptureTrait> = isSpatial ? [.spatial] : []
        switch kind {
        case .image:
            if [2, 3, 7].contains(customRendered) { traits.insert(.hdr) }
            if customRendered == 6 { traits.insert(.panorama) }
            if customRendered == 7 || customRendered == 8 { traits.insert(.depthEffect) }
            if isScreenshot { traits.insert(.screenshot) }
            if frameCount > 1 { traits.insert(.animation) }
        case .video:
            if isScreenRecording { traits.insert(.screenRecording) }
            if let captureFrameRate, let frameRate {
                if captureFrameRate > frameRate * 1.5 { traits.insert(.highFrameRate) }
                if captureFrameRate < frameRate / 1.5 { traits.insert(.timelapse) }
            } else if let frameRate, frameRate >= 100 {
                traits.insert(.highFrameRate)
            }
        }
        return traits
    }

    /// A trait of how a photo or video was captured, read from its file.
    package enum CaptureTrait: Sendable, Hashable, CaseIterable {
        case hdr, panorama, depthEffect, screenshot, animation, highFrameRate, timelapse, screenRecording, spatial
    }
}

/// A position recorded in a media file.
package struct MediaLocation: Sendable, Equatable {
    package var latitude: Double
    package var longitude: Double
    package var altitude: Double?
    package var timestamp: Date?
    /// Speed in metres per second.
    package var speed: Double?
    /// Direction of travel or of the camera, in degrees from true north.
    package var course: Double?
    /// Horizontal error in metres.
    package var horizontalAccuracy: Double?

    package init(
        latitude: Double, longitude: Double, altitude: Double? = nil, timestamp: Date? = nil,
        speed: Double? = nil, course: Double? = nil, horizontalAccuracy: Double? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.timestamp = timestamp
        self.speed = speed
        self.course = course
        self.horizontalAccuracy = horizontalAccuracy
    }
}

/// Why a media file could not be read.
package struct MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    package var file: String
    package var reason: String
    /// The system's error number when writing a file failed (ENOSPC, say):
    /// then the library's storage failed, not the media.
    package var systemError: Int32?

    package init(file: String, reason: String, systemError: Int32? = nil) {
        self.file = file
        self.reason = reason
        self.systemError = systemError
    }

    /// Whether the disk or the user's quota is full.
    package var isOutOfSpace: Bool { systemError == ENOSPC || systemError == EDQUOT }

    package var description: String { "\(file): \(reason)" }
}
