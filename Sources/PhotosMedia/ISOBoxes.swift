import Foundation

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
