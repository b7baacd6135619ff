import Foundation

/// Uniform type identifiers for the formats the library reads.
package enum UniformType {
    /// Camera raw formats keyed by file extension, which is also exiftool's
    /// name for the format, lowercased.
    private static let rawByExtension: [String: String] = [
        "dng": "com.adobe.raw-image", "cr2": "com.canon.cr2-raw-image", "cr3": "com.canon.cr3-raw-image",
        "crw": "com.canon.crw-raw-image", "nef": "com.nikon.raw-image", "nrw": "com.nikon.nrw-raw-image",
        "arw": "com.sony.arw-raw-image", "sr2": "com.sony.sr2-raw-image", "srf": "com.sony.raw-image",
        "orf": "com.olympus.raw-image", "raf": "com.fuji.raw-image", "rw2": "com.panasonic.rw2-raw-image",
        "raw": "com.panasonic.raw-image", "rwl": "com.leica.rwl-raw-image", "pef": "com.pentax.raw-image",
        "srw": "com.samsung.raw-image", "3fr": "com.hasselblad.3fr-raw-image", "iiq": "com.phaseone.raw-image",
        "erf": "com.epson.raw-image", "mrw": "com.konicaminolta.raw-image", "x3f": "com.sigma.raw-image",
        "dcr": "com.kodak.raw-image",
    ]

    private static let imageByLoader: [String: String] = [
        "jpegload": "public.jpeg", "pngload": "public.png", "webpload": "org.webmproject.webp",
        "tiffload": "public.tiff", "gifload": "com.compuserve.gif", "heifload": "public.heic",
        "jp2kload": "public.jpeg-2000", "svgload": "public.svg-image", "pdfload": "com.adobe.pdf",
        "jxlload": "public.jpeg-xl",
    ]

    private static let imageByExtension: [String: String] = [
        "jpg": "public.jpeg", "jpeg": "public.jpeg", "png": "public.png", "webp": "org.webmproject.webp",
        "tif": "public.tiff", "tiff": "public.tiff", "gif": "com.compuserve.gif", "heic": "public.heic",
        "heif": "public.heif", "avif": "public.avif", "bmp": "com.microsoft.bmp", "jxl": "public.jpeg-xl",
    ]

    private static let videoByExtension: [String: String] = [
        "mov": "com.apple.quicktime-movie", "qt": "com.apple.quicktime-movie", "mp4": "public.mpeg-4",
        "m4v": "com.apple.m4v-video", "3gp": "public.3gpp", "3g2": "public.3gpp2", "avi": "public.avi",
        "mkv": "org.matroska.mkv", "webm": "org.webmproject.webm", "mts": "public.mpeg-2-transport-stream",
        "m2ts": "public.mpeg-2-transport-stream", "ts": "public.mpeg-2-transport-stream",
    ]

    /// The type of an image read by the given libvips loader, whose first
    /// bytes are `head`: decided by the bytes, whatever the file's name (a
    /// HEIC named `.JPG` is a HEIC).
    package static func forImage(loader: String, head: Data, pathExtension: String) -> String {
        // heifload serves HEIC and AVIF alike; their brands tell them apart.
        if loader.hasPrefix("heifload") {
            let sniffed = sniffExtension(of: head)
            return imageByExtension[sniffed ?? ""] ?? imageByExtension[pathExtension.lowercased()].flatMap {
                ["public.heic", "public.heif", "public.avif"].contains($0) ? $0 : nil
            } ?? "public.heic"
        }
        let base = loader.replacingOccurrences(of: "_source", with: "").replacingOccurrences(of: "_buffer", with: "")
        return imageByLoader[base] ?? imageByExtension[pathExtension.lowercased()] ?? "public.image"
    }

    /// The image type a file's first bytes say, when they say one (JPEG,
    /// PNG, GIF, WebP, TIFF, HEIC, AVIF, JPEG XL); nil otherwise.
    package static func imageType(head: Data) -> String? {
        sniffExtension(of: head).flatMap { imageByExtension[$0] }
    }

    /// The video type a file's first bytes say, when they say one
    /// (QuickTime, MPEG-4, M4V, 3GPP, AVI, Matroska, WebM, MPEG transport
    /// stream); nil otherwise.
    package static func videoType(head: Data) -> String? {
        sniffExtension(of: head).flatMap { videoByExtension[$0] }
    }

    /// The type a file's first bytes say, image or video; nil when they say none.
    package static func type(head: Data) -> String? {
        imageType(head: head) ?? videoType(head: head)
    }

    /// The type a file extension names, if the library reads that format.
    package static func forExtension(_ pathExtension: String) -> String? {
        let ext = pathExtension.lowercased()
        return imageByExtension[ext] ?? videoByExtension[ext] ?? rawByExtension[ext]
    }

    /// The type of a video file whose first bytes are `head`: decided by the
    /// bytes (a 3GP named `.mp4` is a 3GP), else by its extension.
    package static func forVideo(head: Data, pathExtension: String) -> String {
        videoType(head: head) ?? videoByExtension[pathExtension.lowercased()] ?? "public.movie"
    }

    /// The type of a camera raw format, from exiftool's name for it ("CR2")
    /// or a file extension; nil when it is not a camera raw format.
    package static func forCameraRaw(_ format: String) -> String? {
        rawByExtension[format.lowercased()]
    }

    /// Whether the type is a camera RAW format.
    package static func isRAW(_ identifier: String) -> Bool {
        rawByExtension.values.contains(identifier)
    }

    /// Whether a file extension names a format the library reads (a photo,
    /// video or camera raw format), so that a stored file keeps it.
    package static func isKnown(pathExtension: String) -> Bool {
        let ext = pathExtension.lowercased()
        return imageByExtension[ext] != nil || videoByExtension[ext] != nil || rawByExtension[ext] != nil
    }

    /// The usual file extension for a type, for naming stored files.
    package static func preferredExtension(for identifier: String) -> String? {
        let all = imageByExtension.merging(videoByExtension, uniquingKeysWith: { first, _ in first })
            .merging(rawByExtension, uniquingKeysWith: { first, _ in first })
        let preferred: [String: String] = [
            "public.jpeg": "jpg", "public.tiff": "tiff", "com.apple.quicktime-movie": "mov",
            "public.mpeg-2-transport-stream": "mts",
        ]
        return preferred[identifier] ?? all.filter { $0.value == identifier }.keys.sorted().first
    }
}

extension UniformType {
    /// The file extension for encoded image or video data, from its first
    /// bytes (up to 256 are looked at); nil when the format is not recognised.
    package static func sniffExtension(of data: Data) -> String? {
        let bytes = [UInt8](data.prefix(256))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return "jpg" }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if starts(Array("GIF8".utf8)) { return "gif" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "webp" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "tiff" }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return "jxl" }
        if starts(Array("ftyp".utf8), at: 4) {
            let brand = String(decoding: bytes.count >= 12 ? Array(bytes[8..<12]) : [], as: UTF8.self)
            switch brand {
            case "heic", "heix", "hevc", "heim", "heis", "mif1", "msf1": return "heic"
            case "avif", "avis": return "avif"
            case "qt  ": return "mov"
            case "M4V ", "M4VH", "M4VP": return "m4v"
            case _ where brand.hasPrefix("3gp") || brand.hasPrefix("3gg") || brand.hasPrefix("3gs"): return "3gp"
            case _ where brand.hasPrefix("3g2"): return "3g2"
            default: return "mp4"
            }
        }
        if starts(Array("RIFF".utf8)), starts(Array("AVI ".utf8), at: 8) { return "avi" }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) {
            // EBML: the DocType element (0x42 0x82) says "webm" or "matroska".
            let header = bytes.prefix(64)
            let webm = Array("webm".utf8)
            return header.indices.contains { header[$0...].starts(with: webm) } ? "webm" : "mkv"
        }
        // MPEG transport streams: a sync byte every 188 bytes, or every 192
        // in Blu-ray and AVCHD's .mts/.m2ts (a 4-byte timecode before each packet).
        if starts([0x47]) && starts([0x47], at: 188) || starts([0x47], at: 4) && starts([0x47], at: 196) { return "mts" }
        return nil
    }
}
