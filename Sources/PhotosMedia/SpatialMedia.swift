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

/// The boxes of an ISO base media file (ISO/IEC 14496-12: MP4, MOV, HEIF),
/// read by their headers through `read`, which returns up to `count` bytes
/// at an offset (fewer at the end). Bounded: at most ``boxLimit`` boxes
/// are visited in all; a box whose size runs past its parent, or is
/// smaller than its header, ends the listing of its parent.
struct ISOBoxes {
    /// A box: its four-character type and where its contents lie.
    struct Box: Equatable {
        var type: String
        /// The first byte after the box's header.
        var start: UInt64
        /// The byte after the box's last.
        var end: UInt64
    }

    /// The most boxes one file's reading visits.
    static let boxLimit = 1024

    let length: UInt64
    let read: (UInt64, Int) -> [UInt8]
    private(set) var visited = 0

    init(length: UInt64, read: @escaping (UInt64, Int) -> [UInt8]) {
        self.length = length
        self.read = read
    }

    /// The boxes inside `parent`, after its first `skipping` bytes of fields.
    mutating func children(of parent: Box, skipping: UInt64 = 0) -> [Box] {
        var boxes: [Box] = []
        let (start, overflow) = parent.start.addingReportingOverflow(skipping)
        guard !overflow else { return [] }
        var offset = start
        while parent.end >= 8, offset <= parent.end - 8, visited < Self.boxLimit {
            visited += 1
            let header = read(offset, 16)
            guard header.count >= 8 else { break }
            let compactSize = header[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            var headerSize: UInt64 = 8
            var size = compactSize
            if compactSize == 1 {
                guard header.count >= 16 else { break }
                size = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                headerSize = 16
            } else if compactSize == 0 {
                size = parent.end - offset
            }
            guard size >= headerSize, size <= parent.end - offset else { break }
            boxes.append(Box(type: type, start: offset + headerSize, end: offset + size))
            offset += size
        }
        return boxes
    }

    /// The box reached from `box` through the first child of each type of `path`; nil when one is missing.
    mutating func descend(from box: Box, through path: [String]) -> Box? {
        var current = box
        for type in path {
            guard let next = children(of: current).first(where: { $0.type == type }) else { return nil }
            current = next
        }
        return current
    }
}
