import CPhotosMedia
import Foundation

/// The EXIF fields OpenPhotoKit reads from and writes to image files.
package struct ExifFields: Sendable, Equatable {
    /// DateTimeOriginal as written, "YYYY:MM:DD HH:MM:SS".
    package var dateTimeOriginal: String?
    /// OffsetTimeOriginal as written, "+02:00".
    package var offsetTimeOriginal: String?
    package var subsecTimeOriginal: String?
    package var dateTimeDigitized: String?
    package var offsetTimeDigitized: String?
    package var dateTime: String?
    package var offsetTime: String?
    package var make: String?
    package var model: String?
    package var lensModel: String?
    package var software: String?
    package var orientation: Int?
    package var customRendered: Int?
    /// ExposureTime, in seconds.
    package var exposureTime: Double?
    package var latitude: Double?
    package var longitude: Double?
    package var altitude: Double?
    /// GPSDateStamp and GPSTimeStamp combined, in UTC.
    package var gpsTimestamp: Date?
    /// GPS speed converted to metres per second.
    package var gpsSpeed: Double?
    package var gpsDirection: Double?
    package var horizontalError: Double?
    /// EXIF's UserComment, when written in ASCII; iOS writes "Screenshot" in screenshots.
    package var userComment: String?
    /// The identifier Apple's cameras write in their MakerNote to pair a Live
    /// Photo's still with its video.
    package var contentIdentifier: String?
    /// The burst Apple's cameras record a photo as part of, in their MakerNote.
    package var burstIdentifier: String?

    package init() {}

    /// Parses a raw EXIF block; nil when it cannot be parsed.
    package init?(block: UnsafeRawBufferPointer) {
        var raw = pm_exif()
        guard pm_exif_parse(block.baseAddress, block.count, &raw) == 0 else { return nil }
        self.init(raw)
    }

    private init(_ raw: pm_exif) {
        dateTimeOriginal = Self.string(raw.date_time_original)
        offsetTimeOriginal = Self.string(raw.offset_time_original)
        subsecTimeOriginal = Self.string(raw.subsec_time_original)
        dateTimeDigitized = Self.string(raw.date_time_digitized)
        offsetTimeDigitized = Self.string(raw.offset_time_digitized)
        dateTime = Self.string(raw.date_time)
        offsetTime = Self.string(raw.offset_time)
        make = Self.string(raw.make)
        model = Self.string(raw.model)
        lensModel = Self.string(raw.lens_model)
        software = Self.string(raw.software)
        orientation = raw.orientation > 0 ? Int(raw.orientation) : nil
        customRendered = raw.custom_rendered >= 0 ? Int(raw.custom_rendered) : nil
        exposureTime = raw.has_exposure_time != 0 && raw.exposure_time > 0 ? raw.exposure_time : nil
        if raw.has_location != 0 {
            latitude = raw.latitude
            longitude = raw.longitude
        }
        altitude = raw.has_altitude != 0 ? raw.altitude : nil
        if raw.has_gps_timestamp != 0, let day = Self.string(raw.gps_date_stamp) {
            let (hours, minutes, seconds) = raw.gps_time_stamp
            gpsTimestamp = CaptureTime.parse(day + " 00:00:00", offset: "+00:00")?
                .date.addingTimeInterval(hours * 3600 + minutes * 60 + seconds)
        }
        if raw.has_gps_speed != 0 {
            let unit = Self.string(raw.gps_speed_ref) ?? "K"
            let metresPerUnit = unit == "M" ? 1609.344 / 3600 : unit == "N" ? 1852.0 / 3600 : 1000.0 / 3600
            gpsSpeed = raw.gps_speed * metresPerUnit
        }
        gpsDirection = raw.has_gps_direction != 0 ? raw.gps_direction : nil
        horizontalError = raw.has_horizontal_error != 0 ? raw.horizontal_error : nil
        userComment = Self.string(raw.user_comment)
        contentIdentifier = Self.string(raw.content_identifier)
        burstIdentifier = Self.string(raw.burst_identifier)
    }

    /// When the picture was taken, as EXIF records it: DateTimeOriginal
    /// (with its fraction of a second), else DateTimeDigitized, each with
    /// its OffsetTime when written.
    package var captureTime: CaptureTime? {
        if let text = dateTimeOriginal, var time = CaptureTime.parse(text, offset: offsetTimeOriginal) {
            time.date += subsecTimeOriginal.flatMap { Double("0." + $0) } ?? 0
            return time
        }
        return dateTimeDigitized.flatMap { CaptureTime.parse($0, offset: offsetTimeDigitized) }
    }

    /// When the file was last changed, as EXIF's DateTime records it: the
    /// capture time for cameras that write no other.
    package var modificationTime: CaptureTime? {
        dateTime.flatMap { CaptureTime.parse($0, offset: offsetTime) }
    }

    /// Each field that is set here, else the other's: what libexif read,
    /// completed with what exiftool found elsewhere in the file.
    package func filling(from other: ExifFields) -> ExifFields {
        var merged = self
        let texts: [WritableKeyPath<ExifFields, String?>] = [
            \.dateTimeOriginal, \.offsetTimeOriginal, \.subsecTimeOriginal, \.dateTimeDigitized, \.offsetTimeDigitized,
            \.dateTime, \.offsetTime, \.make, \.model, \.lensModel, \.software, \.userComment, \.contentIdentifier, \.burstIdentifier,
        ]
        for field in texts where merged[keyPath: field] == nil { merged[keyPath: field] = other[keyPath: field] }
        let numbers: [WritableKeyPath<ExifFields, Double?>] = [
            \.exposureTime, \.altitude, \.gpsSpeed, \.gpsDirection, \.horizontalError,
        ]
        for field in numbers where merged[keyPath: field] == nil { merged[keyPath: field] = other[keyPath: field] }
        if merged.latitude == nil || merged.longitude == nil {
            (merged.latitude, merged.longitude) = (other.latitude, other.longitude)
        }
        merged.orientation = merged.orientation ?? other.orientation
        merged.customRendered = merged.customRendered ?? other.customRendered
        merged.gpsTimestamp = merged.gpsTimestamp ?? other.gpsTimestamp
        return merged
    }

    /// Encodes the fields that are set into a raw EXIF block.
    package func encoded() -> Data? {
        var raw = pm_exif()
        raw.custom_rendered = -1
        Self.copy(dateTimeOriginal, into: &raw.date_time_original)
        Self.copy(offsetTimeOriginal, into: &raw.offset_time_original)
        Self.copy(subsecTimeOriginal, into: &raw.subsec_time_original)
        Self.copy(dateTimeDigitized, into: &raw.date_time_digitized)
        Self.copy(offsetTimeDigitized, into: &raw.offset_time_digitized)
        Self.copy(dateTime, into: &raw.date_time)
        Self.copy(offsetTime, into: &raw.offset_time)
        Self.copy(make, into: &raw.make)
        Self.copy(model, into: &raw.model)
        Self.copy(lensModel, into: &raw.lens_model)
        Self.copy(software, into: &raw.software)
        Self.copy(userComment, into: &raw.user_comment)
        Self.copy(contentIdentifier, into: &raw.content_identifier)
        Self.copy(burstIdentifier, into: &raw.burst_identifier)
        raw.orientation = Int32(orientation ?? 0)
        raw.custom_rendered = Int32(customRendered ?? -1)
        if let exposureTime {
            raw.has_exposure_time = 1
            raw.exposure_time = exposureTime
        }
        if let latitude, let longitude {
            raw.has_location = 1
            raw.latitude = latitude
            raw.longitude = longitude
        }
        if let altitude {
            raw.has_altitude = 1
            raw.altitude = altitude
        }
        if let gpsDirection {
            raw.has_gps_direction = 1
            raw.gps_direction = gpsDirection
        }
        if let horizontalError {
            raw.has_horizontal_error = 1
            raw.horizontal_error = horizontalError
        }
        if let gpsTimestamp {
            let parts = Calendar.utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: gpsTimestamp)
            raw.has_gps_timestamp = 1
            Self.copy(String(format: "%04d:%02d:%02d", parts.year!, parts.month!, parts.day!), into: &raw.gps_date_stamp)
            raw.gps_time_stamp = (Double(parts.hour!), Double(parts.minute!), Double(parts.second!))
        }
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        guard pm_exif_build(&raw, &bytes, &length) == 0, let bytes else { return nil }
        defer { pm_free(bytes) }
        return Data(bytes: bytes, count: length)
    }

    /// Formats a date the way EXIF writes it, in the given UTC offset.
    package static func exifDateTime(_ date: Date, utcOffset: Int) -> (dateTime: String, offset: String) {
        var calendar = Calendar.utc
        calendar.timeZone = TimeZone(secondsFromGMT: utcOffset) ?? .gmt
        let p = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let text = String(format: "%04d:%02d:%02d %02d:%02d:%02d", p.year!, p.month!, p.day!, p.hour!, p.minute!, p.second!)
        let sign = utcOffset < 0 ? "-" : "+"
        let minutes = abs(utcOffset) / 60
        return (text, String(format: "%@%02d:%02d", sign, minutes / 60, minutes % 60))
    }

    private static func string<T>(_ tuple: T) -> String? {
        let text = withUnsafeBytes(of: tuple) { buffer in
            String(decoding: buffer.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return text.isEmpty ? nil : text
    }

    private static func copy<T>(_ value: String?, into tuple: inout T) {
        guard let value else { return }
        withUnsafeMutableBytes(of: &tuple) { buffer in
            let bytes = Array(value.utf8.prefix(buffer.count - 1))
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
    }
}

extension Calendar {
    /// A Gregorian calendar in UTC.
    package static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }
}
