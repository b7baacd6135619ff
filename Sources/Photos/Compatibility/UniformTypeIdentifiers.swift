import Foundation

// UniformTypeIdentifiers does not exist on Linux. PhotoKit reports content
// types as `UTType`, so `Photos` provides the part of it a photo library
// meets: the image, video and audio types and their conformance.

/// A uniform type identifier, such as `public.jpeg`, and what it conforms to.
public struct UTType: Hashable, Sendable, CustomStringConvertible {
    /// The identifier, such as `public.heic`.
    public let identifier: String

    private static let known: [String: (parent: String?, extensions: [String], mime: String?)] = [
        "public.item": (nil, [], nil),
        "public.content": ("public.item", [], nil),
        "public.data": ("public.item", [], "application/octet-stream"),
        "public.image": ("public.data", [], nil),
        "public.jpeg": ("public.image", ["jpeg", "jpg"], "image/jpeg"),
        "public.png": ("public.image", ["png"], "image/png"),
        "public.heic": ("public.heif-standard", ["heic"], "image/heic"),
        "public.heif-standard": ("public.image", ["heif"], "image/heif"),
        "public.heif": ("public.heif-standard", ["heif"], "image/heif"),
        "public.avif": ("public.image", ["avif"], "image/avif"),
        "com.compuserve.gif": ("public.image", ["gif"], "image/gif"),
        "public.tiff": ("public.image", ["tiff", "tif"], "image/tiff"),
        "org.webmproject.webp": ("public.image", ["webp"], "image/webp"),
        "com.microsoft.bmp": ("public.image", ["bmp"], "image/bmp"),
        "public.jpeg-xl": ("public.image", ["jxl"], "image/jxl"),
        "public.jpeg-2000": ("public.image", ["jp2"], "image/jp2"),
        "public.camera-raw-image": ("public.image", [], nil),
        "com.adobe.raw-image": ("public.camera-raw-image", ["dng"], "image/x-adobe-dng"),
        "public.audiovisual-content": ("public.data", [], nil),
        "public.movie": ("public.audiovisual-content", [], nil),
        "public.video": ("public.movie", [], nil),
        "com.apple.quicktime-movie": ("public.movie", ["mov", "qt"], "video/quicktime"),
        "public.mpeg-4": ("public.movie", ["mp4"], "video/mp4"),
        "com.apple.m4v-video": ("public.movie", ["m4v"], "video/x-m4v"),
        "public.3gpp": ("public.movie", ["3gp"], "video/3gpp"),
        "public.3gpp2": ("public.movie", ["3g2"], "video/3gpp2"),
        "public.avi": ("public.movie", ["avi"], "video/x-msvideo"),
        "org.matroska.mkv": ("public.movie", ["mkv"], "video/x-matroska"),
        "org.webmproject.webm": ("public.movie", ["webm"], "video/webm"),
        "public.mpeg-2-transport-stream": ("public.movie", ["mts", "m2ts", "ts"], "video/mp2t"),
        "public.audio": ("public.audiovisual-content", [], nil),
    ]

    /// The type with this identifier; nil when the identifier is empty.
    /// Identifiers this table does not know are types that conform to `data`.
    public init?(_ identifier: String) {
        guard !identifier.isEmpty else { return nil }
        self.identifier = identifier
    }

    /// The type a file extension (without its dot) stands for, when known.
    public init?(filenameExtension: String) {
        let ext = filenameExtension.lowercased()
        guard let match = Self.known.first(where: { $0.value.extensions.contains(ext) })?.key else { return nil }
        identifier = match
    }

    /// The usual file extension, without its dot.
    public var preferredFilenameExtension: String? { Self.known[identifier]?.extensions.first }
    /// The MIME type, when the type has one.
    public var preferredMIMEType: String? { Self.known[identifier]?.mime }

    /// Whether this type is `type` or one of its descendants.
    public func conforms(to type: UTType) -> Bool {
        var current: String? = identifier
        while let name = current {
            if name == type.identifier { return true }
            current = Self.known[name].map { $0.parent } ?? "public.data"
        }
        return false
    }

    /// The identifier.
    public var description: String { identifier }

    /// Any item.
    public static let item = UTType(unchecked: "public.item")
    /// Any stored bytes.
    public static let data = UTType(unchecked: "public.data")
    /// Any image.
    public static let image = UTType(unchecked: "public.image")
    /// JPEG.
    public static let jpeg = UTType(unchecked: "public.jpeg")
    /// PNG.
    public static let png = UTType(unchecked: "public.png")
    /// HEIC.
    public static let heic = UTType(unchecked: "public.heic")
    /// HEIF.
    public static let heif = UTType(unchecked: "public.heif")
    /// GIF.
    public static let gif = UTType(unchecked: "com.compuserve.gif")
    /// TIFF.
    public static let tiff = UTType(unchecked: "public.tiff")
    /// WebP.
    public static let webP = UTType(unchecked: "org.webmproject.webp")
    /// Any camera RAW format.
    public static let rawImage = UTType(unchecked: "public.camera-raw-image")
    /// Any audio or video.
    public static let audiovisualContent = UTType(unchecked: "public.audiovisual-content")
    /// Any movie.
    public static let movie = UTType(unchecked: "public.movie")
    /// Video without audio requirements.
    public static let video = UTType(unchecked: "public.video")
    /// QuickTime movie.
    public static let quickTimeMovie = UTType(unchecked: "com.apple.quicktime-movie")
    /// MPEG-4 movie.
    public static let mpeg4Movie = UTType(unchecked: "public.mpeg-4")
    /// Any audio.
    public static let audio = UTType(unchecked: "public.audio")

    private init(unchecked identifier: String) {
        self.identifier = identifier
    }
}
