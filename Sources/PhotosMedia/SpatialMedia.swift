import Foundation

/// Whether a file holds spatial (stereoscopic) media as Apple's devices
/// record it, which makes the asset `PHAssetMediaSubtype.spatialMedia`:
/// a HEIF photo whose `meta` box groups its left and right images (a
/// `grpl` box holding a `ster` entity group), or an MV-HEVC video whose
/// sample entry carries a layered HEVC configuration (`lhvC`) or the
/// video extended usage box (`vexu`) that names its eyes. Neither libheif
/// nor ffmpeg, as Debian ships them, reports either, so the boxes are read
/// here.
///
/// Cost: only box headers are read, each with one `pread` of 16 bytes; at
/// most ``ISOBoxes/boxLimit`` boxes are visited, so a damaged or hostile
/// file costs a few hundred small reads and answers false.
package enum SpatialMedia {
    /// Whether the file at `path` is spatial media; false for anything
    /// that is not an ISO media file, or cannot be read.
    package static func isSpatial(fileAt path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let length = try? handle.seekToEnd() else { return false }
        var boxes = ISOBoxes(length: length) { offset, count in
            guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count) else { return [] }
            return [UInt8](data)
        }
        return isSpatial(&boxes)
    }

    /// Whether `bytes` are spatial media, as ``isSpatial(fileAt:)`` reads a file.
    package static func isSpatial(bytes: [UInt8]) -> Bool {
        var boxes = ISOBoxes(length: UInt64(bytes.count)) { offset, count in
            guard offset < UInt64(bytes.count) else { return [] }
            let start = Int(offset)
            return Array(bytes[start..<min(bytes.count, start + count)])
        }
        return isSpatial(&boxes)
    }

    /// The sample entries of HEVC video, whose children may carry `lhvC` or `vexu`.
    private static let hevcSampleEntries: Set<String> = ["hvc1", "hev1", "hvc2", "hev2", "dvh1", "dvhe"]
    /// A visual sample entry's own fields, before its child boxes (ISO/IEC 14496-12, 12.1.3).
    private static let visualSampleEntryFields: UInt64 = 78

    private static func isSpatial(_ boxes: inout ISOBoxes) -> Bool {
        let top = boxes.children(of: ISOBoxes.Box(type: "", start: 0, end: boxes.length))
        guard top.first?.type == "ftyp" else { return false }
        for box in top {
            switch box.type {
            case "meta":
                // A full box: four bytes of version and flags before its children.
                for groups in boxes.children(of: box, skipping: 4) where groups.type == "grpl" {
                    if boxes.children(of: groups).contains(where: { $0.type == "ster" }) { return true }
                }
            case "moov":
                for track in boxes.children(of: box) where track.type == "trak" {
                    guard let table = boxes.descend(from: track, through: ["mdia", "minf", "stbl", "stsd"]) else { continue }
                    // A full box, then a 32-bit count of entries.
                    for entry in boxes.children(of: table, skipping: 8) where hevcSampleEntries.contains(entry.type) {
                        let extensions = boxes.children(of: entry, skipping: visualSampleEntryFields)
                        if extensions.contains(where: { $0.type == "lhvC" || $0.type == "vexu" }) { return true }
                    }
                }
            default:
                continue
            }
        }
        return false
    }
}
