import Foundation

/// What exiftool reads from a file of any kind: EXIF wherever the container
/// keeps it (HEIF and AVIF items, WebP and PNG chunks, JPEG XL boxes, TIFF
/// directories), XMP and IPTC; an XMP sidecar (`.xmp`) reads the same way.
///
/// libexif reads JPEG's EXIF in-process and is enough for camera JPEGs;
/// this is asked when it is not, through the one running exiftool
/// (``ExifToolSession``), a library made for every container and its quirks.
package struct EmbeddedMetadata: Sendable, Equatable {
    /// EXIF's fields; where EXIF lacks a position, camera or comment, XMP's.
    package var exif = ExifFields()
    /// Capture times XMP and IPTC record, most trusted first: XMP's
    /// exif:DateTimeOriginal, photoshop:DateCreated, IPTC's DateCreated
    /// with TimeCreated, xmp:CreateDate.
    package var otherCaptureTimes: [CaptureTime] = []
    /// The rating, caption and keywords XMP and IPTC record.
    package var descriptive = DescriptiveMetadata()

    package init(exif: ExifFields = ExifFields(), otherCaptureTimes: [CaptureTime] = [], descriptive: DescriptiveMetadata = DescriptiveMetadata()) {
        self.exif = exif
        self.otherCaptureTimes = otherCaptureTimes
        self.descriptive = descriptive
    }

    /// The tags asked for, by exiftool's family-0 group.
    private static let tags = [
        "EXIF:DateTimeOriginal", "EXIF:OffsetTimeOriginal", "EXIF:SubSecTimeOriginal", "EXIF:CreateDate",
        "EXIF:OffsetTimeDigitized", "EXIF:ModifyDate", "EXIF:OffsetTime", "EXIF:Make", "EXIF:Model", "EXIF:LensModel",
        "EXIF:Software", "EXIF:UserComment", "EXIF:CustomRendered", "EXIF:ExposureTime",
        "Composite:GPSLatitude", "Composite:GPSLongitude", "Composite:GPSAltitude",
        "XMP:DateTimeOriginal", "XMP:DateCreated", "XMP:CreateDate", "IPTC:DateCreated", "IPTC:TimeCreated",
        "XMP:GPSLatitude", "XMP:GPSLongitude", "XMP:GPSAltitude", "XMP:GPSAltitudeRef", "XMP:UserComment", "XMP:Make", "XMP:Model",
    ]

    /// Reads the file at `path`. Cost: one request to the running exiftool,
    /// which reads the file's metadata, not its pixels.
    package static func read(fileAt path: String) throws(MediaError) -> EmbeddedMetadata {
        let fields = try ExifToolSession.shared.fields(
            ofFileAt: path, arguments: ["-n", "-G0"] + (tags + DescriptiveMetadata.tags).map { "-" + $0 })
        func text(_ tag: String) -> String? {
            guard let value = fields[tag] else { return nil }
            let text = (value as? String ?? "\(value)").trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : text
        }
        func number(_ tag: String) -> Double? {
            (fields[tag] as? NSNumber)?.doubleValue.finiteOrNil
        }
        var exif = ExifFields()
        exif.dateTimeOriginal = text("EXIF:DateTimeOriginal")
        exif.offsetTimeOriginal = text("EXIF:OffsetTimeOriginal")
        exif.subsecTimeOriginal = text("EXIF:SubSecTimeOriginal")
        exif.dateTimeDigitized = text("EXIF:CreateDate")
        exif.offsetTimeDigitized = text("EXIF:OffsetTimeDigitized")
        exif.dateTime = text("EXIF:ModifyDate")
        exif.offsetTime = text("EXIF:OffsetTime")
        exif.make = text("EXIF:Make") ?? text("XMP:Make")
        exif.model = text("EXIF:Model") ?? text("XMP:Model")
        exif.lensModel = text("EXIF:LensModel")
        exif.software = text("EXIF:Software")
        exif.userComment = text("EXIF:UserComment") ?? text("XMP:UserComment")
        exif.customRendered = number("EXIF:CustomRendered").map { Int($0) }
        exif.exposureTime = number("EXIF:ExposureTime").flatMap { $0 > 0 ? $0 : nil }
        if let latitude = number("Composite:GPSLatitude"), let longitude = number("Composite:GPSLongitude") {
            (exif.latitude, exif.longitude) = (latitude, longitude)
            exif.altitude = number("Composite:GPSAltitude")
        } else if let latitude = number("XMP:GPSLatitude"), let longitude = number("XMP:GPSLongitude") {
            (exif.latitude, exif.longitude) = (latitude, longitude)
            // XMP writes the altitude's size, and below sea level in its ref (1).
            exif.altitude = number("XMP:GPSAltitude").map { number("XMP:GPSAltitudeRef") == 1 ? -abs($0) : $0 }
        }
        if let latitude = exif.latitude, let longitude = exif.longitude, abs(latitude) > 90 || abs(longitude) > 180 {
            (exif.latitude, exif.longitude, exif.altitude) = (nil, nil, nil)
        }
        let iptcDay = text("IPTC:DateCreated")
        let otherTimes = [
            text("XMP:DateTimeOriginal"),
            text("XMP:DateCreated"),
            iptcDay.map { day in text("IPTC:TimeCreated").map { day + " " + $0 } ?? day },
            text("XMP:CreateDate"),
        ].compactMap { $0.flatMap { CaptureTime.parse($0) } }
        return EmbeddedMetadata(exif: exif, otherCaptureTimes: otherTimes, descriptive: DescriptiveMetadata(exifTool: fields))
    }
}

extension Double {
    /// The value when it is finite; nil for NaN and infinities.
    fileprivate var finiteOrNil: Double? { isFinite ? self : nil }
}
