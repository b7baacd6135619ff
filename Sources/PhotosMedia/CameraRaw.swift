import Foundation

/// Camera raw files (DNG, CR2, NEF, ARW...), which libvips 8.14 cannot
/// develop. exiftool reads their metadata, and what is shown of them is
/// the largest JPEG the camera embedded: every raw format carries one, and
/// it is what the camera's own screen showed.
package enum CameraRaw {
    /// The embedded images cameras write, from the usually largest to the smallest.
    private static let previewTags = ["JpgFromRaw", "PreviewImage", "OtherImage", "ThumbnailImage"]

    /// Whether the file's extension names a camera raw format.
    package static func isCandidate(_ url: URL) -> Bool {
        UniformType.forCameraRaw(url.pathExtension) != nil
    }

    /// The metadata of a camera raw file. The pixel size is the raw image's
    /// (upright), which can exceed what its embedded preview shows.
    /// Cost: one request to the running exiftool (``ExifToolSession``).
    static func probe(fileAt url: URL, name: String) throws(MediaError) -> MediaMetadata {
        let fields = try read(
            url,
            [
                "-n", "-FileType", "-ExifImageWidth", "-ExifImageHeight", "-ImageSize", "-Orientation", "-DateTimeOriginal",
                "-OffsetTimeOriginal", "-SubSecTimeOriginal", "-CreateDate", "-OffsetTimeDigitized",
                "-ModifyDate", "-OffsetTime", "-Make", "-Model", "-LensModel", "-Software", "-ExposureTime",
                "-Composite:GPSLatitude", "-Composite:GPSLongitude", "-Composite:GPSAltitude",
            ])
        guard let format = fields["FileType"].map(text), let uniformType = UniformType.forCameraRaw(format) else {
            throw MediaError(file: url.path, reason: "not a camera raw file that can be read")
        }
        // EXIF's pixel dimensions are the developed image's when the camera
        // wrote them; exiftool's ImageSize is the raw data's otherwise.
        let exifSize = [fields["ExifImageWidth"], fields["ExifImageHeight"]].compactMap { $0 as? Int }
        let size =
            exifSize.count == 2 && !exifSize.contains(0)
            ? exifSize
            : fields["ImageSize"].map(text)?.split(whereSeparator: { $0 == " " || $0 == "x" }).compactMap { Int($0) } ?? []
        guard size.count == 2, size[0] > 0, size[1] > 0 else {
            throw MediaError(file: url.path, reason: "the \(format) file records no image size")
        }
        var exif = ExifFields()
        exif.dateTimeOriginal = fields["DateTimeOriginal"].map(text)
        exif.offsetTimeOriginal = fields["OffsetTimeOriginal"].map(text)
        exif.subsecTimeOriginal = fields["SubSecTimeOriginal"].map(text)
        exif.dateTimeDigitized = fields["CreateDate"].map(text)
        exif.offsetTimeDigitized = fields["OffsetTimeDigitized"].map(text)
        exif.dateTime = fields["ModifyDate"].map(text)
        exif.offsetTime = fields["OffsetTime"].map(text)
        exif.make = fields["Make"].map(text)
        exif.model = fields["Model"].map(text)
        exif.lensModel = fields["LensModel"].map(text)
        exif.software = fields["Software"].map(text)
        exif.exposureTime = fields["ExposureTime"] as? Double
        exif.latitude = fields["GPSLatitude"] as? Double
        exif.longitude = fields["GPSLongitude"] as? Double
        exif.altitude = fields["GPSAltitude"] as? Double
        let orientation = (fields["Orientation"] as? Int).flatMap { (1...8).contains($0) ? $0 : nil } ?? 1
        return MediaProbe.stillImage(
            storedWidth: size[0], storedHeight: size[1], orientation: orientation, exif: exif,
            frameCount: 1, hasAlpha: false, uniformTypeIdentifier: uniformType, name: name)
    }

    /// The largest JPEG embedded in the raw file, tagged with the raw's
    /// orientation when it records none of its own, so that rendering it
    /// shows it upright. Throws when the file embeds no JPEG.
    /// Cost: one request to the running exiftool and a copy of the previews.
    package static func preview(ofFileAt url: URL) throws(MediaError) -> Data {
        let fields = try read(url, ["-b", "-n", "-Orientation"] + previewTags.map { "-" + $0 })
        let previews = previewTags.compactMap { tag -> Data? in
            guard let encoded = fields[tag] as? String, encoded.hasPrefix("base64:"),
                let data = Data(base64Encoded: String(encoded.dropFirst(7))),
                data.starts(with: [0xFF, 0xD8])
            else { return nil }
            return data
        }
        guard let largest = previews.max(by: { $0.count < $1.count }) else {
            throw MediaError(file: url.path, reason: "the raw file embeds no preview to show, and libvips cannot develop it")
        }
        let orientation = fields["Orientation"] as? Int ?? 1
        let ownEXIF = JPEGSegments.exif(in: largest).flatMap { exif in
            exif.block.withUnsafeBytes { ExifFields(block: $0) }
        }
        guard (2...8).contains(orientation), ownEXIF?.orientation == nil else { return largest }
        var exif = ExifFields()
        exif.orientation = orientation
        guard let block = exif.encoded() else { return largest }
        return JPEGSegments.replacingEXIF(with: block, in: largest)
    }

    /// exiftool's JSON for one file: tag name to value.
    private static func read(_ url: URL, _ arguments: [String]) throws(MediaError) -> [String: Any] {
        try ExifToolSession.shared.fields(ofFileAt: url.path, arguments: arguments)
    }

    /// A value exiftool printed as text or as a number ("Model": 5 for a model named 5).
    private static func text(_ value: Any) -> String {
        value as? String ?? "\(value)"
    }
}
