import Foundation

/// Google's Motion Photos (`MVIMG_….jpg`, `PXL_….MP.jpg`, Samsung's in the
/// same format): a JPEG followed by the MP4 of the moments around it, which
/// the JPEG's XMP locates from the end of the file, in the GCamera schema
/// (`MicroVideoOffset`) or the Container schema (the `MotionPhoto` item's
/// `Length`). Imported as Apple keeps a Live Photo: the still, with the
/// video as its paired video.
package enum MotionPhoto {
    /// The byte range of the video the JPEG at `path` carries; nil when it
    /// is not a Motion Photo, or its XMP points at no MP4.
    /// Cost: one read of the file's head and of 16 bytes where the video starts.
    package static func videoRange(inFileAt path: String) -> Range<Int>? {
        guard let xmp = JPEGSegments.xmpPacket(fileAt: path), let length = videoLength(xmp: xmp), length > 16,
            let handle = FileHandle(forReadingAtPath: path)
        else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), Int(size) > length else { return nil }
        let start = Int(size) - length
        guard (try? handle.seek(toOffset: UInt64(start))) != nil, let head = try? handle.read(upToCount: 16),
            head.count == 16, head[head.startIndex + 4..<head.startIndex + 8] == Data("ftyp".utf8)
        else { return nil }
        return start..<Int(size)
    }

    /// Copies the video of the Motion Photo at `source` to `destination`.
    /// Throws when it is not one. Cost: a copy of the video's bytes.
    package static func extractVideo(from source: URL, to destination: URL) throws(MediaError) {
        guard let range = videoRange(inFileAt: source.path) else {
            throw MediaError(file: source.path, reason: "not a Motion Photo: its XMP locates no video after the image")
        }
        do {
            let handle = try FileHandle(forReadingFrom: source)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(range.lowerBound))
            guard let video = try handle.read(upToCount: range.count), video.count == range.count else {
                throw CocoaError(.fileReadCorruptFile)
            }
            try video.write(to: destination)
        } catch {
            throw MediaError(
                file: source.path, reason: "its video cannot be copied: \(error.localizedDescription)",
                systemError: (error as NSError).domain == NSPOSIXErrorDomain ? Int32((error as NSError).code) : nil)
        }
    }

    /// The video's length from the XMP: GCamera's `MicroVideoOffset` (with
    /// `MicroVideo` set), else the `Length` of the Container item whose
    /// `Semantic` is `MotionPhoto`. Attributes and elements alike.
    static func videoLength(xmp: String) -> Int? {
        if value(of: "GCamera:MicroVideo", in: xmp) == "1", let offset = value(of: "GCamera:MicroVideoOffset", in: xmp).flatMap(Int.init) {
            return offset
        }
        // Each Container item is an rdf:li holding its Item:Mime, Item:Semantic and Item:Length.
        for item in xmp.components(separatedBy: "<rdf:li").dropFirst() where value(of: "Item:Semantic", in: item) == "MotionPhoto" {
            return value(of: "Item:Length", in: item).flatMap(Int.init)
        }
        return nil
    }

    /// A property's value, written `name="value"` or `<name>value</name>`.
    private static func value(of name: String, in text: String) -> String? {
        if let start = text.range(of: name + "=\"") {
            return text[start.upperBound...].prefix { $0 != "\"" }.trimmingCharacters(in: .whitespaces)
        }
        if let start = text.range(of: "<" + name + ">") {
            return text[start.upperBound...].prefix { $0 != "<" }.trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
