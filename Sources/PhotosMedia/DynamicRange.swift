import Foundation

/// How a video's pixel values map to light: standard dynamic range, or one
/// of the two high-dynamic-range transfers phones and cameras record
/// (every iPhone video since the iPhone 12 is HLG). Shown as they are, HDR
/// values look grey and washed out on a standard screen and in a JPEG, so
/// posters and playable copies of HDR video are tone-mapped to BT.709.
package enum DynamicRange: String, Sendable, Equatable {
    case standard
    /// Hybrid log-gamma (ARIB STD-B67).
    case hlg
    /// Perceptual quantizer (SMPTE ST 2084).
    case pq

    /// The range of a transfer as ffprobe names it (`color_transfer`);
    /// anything but the two HDR transfers, or none, is standard.
    init(ffprobeTransfer name: String?) {
        self =
            switch name {
            case "arib-std-b67": .hlg
            case "smpte2084": .pq
            default: .standard
            }
    }

    /// The range of an ITU-T H.273 transfer characteristic (a `colr` box's,
    /// as exiftool reads it): 18 is HLG, 16 PQ; anything else, or none, is
    /// standard.
    init(transferCharacteristics code: Int?) {
        self =
            switch code {
            case 18: .hlg
            case 16: .pq
            default: .standard
            }
    }

    /// The ffmpeg filters that bring HDR frames to standard-range BT.709
    /// (nil for standard range): linear light with reference white at
    /// 203 cd/m² (ITU-R BT.2408), BT.709 primaries, Möbius tone mapping,
    /// which leaves values up to 60 % of that white as they are and rolls
    /// the rest off (HEIF and AVIF stills get the same curve, in nclx.c),
    /// then BT.709's transfer in 8 bits.
    package var toneMappingFilter: String? {
        guard self != .standard else { return nil }
        return "zscale=t=linear:npl=203,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=mobius:param=0.6:desat=0,"
            + "zscale=t=bt709:m=bt709:r=tv,format=yuv420p"
    }

    private static let ffprobe = ExternalTool(name: "ffprobe", package: "ffmpeg")

    /// The range of the first video stream of the file at `url`.
    /// Cost: one ffprobe process.
    package static func ofVideo(at url: URL) throws(MediaError) -> DynamicRange {
        let output = try ffprobe.run(
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=color_transfer",
                "-of", "default=noprint_wrappers=1:nokey=1", url.path,
            ], about: url.path)
        return DynamicRange(ffprobeTransfer: String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
