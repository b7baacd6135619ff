import Foundation

/// An XMP sidecar as darktable and digiKam write one beside a photo
/// (`IMG_1234.JPG.xmp`), and Lightroom beside a raw file: the photo's
/// rating, caption, keywords, capture time and place, in the properties
/// those editors read back (`xmp:Rating`, `dc:description`, `dc:subject`,
/// `exif:DateTimeOriginal`, `photoshop:DateCreated`, `exif:GPS…`).
/// ``Sidecar/read(_:)`` reads what this writes.
package struct XMPSidecar: Sendable, Equatable {
    /// Stars, 1 to 5; nil or 0 writes none.
    package var rating: Int?
    package var caption: String?
    package var keywords: [String]
    package var captureDate: Date?
    /// Seconds east of UTC of the capture time; nil writes it in UTC.
    package var utcOffset: Int?
    package var location: MediaLocation?

    package init(
        rating: Int? = nil, caption: String? = nil, keywords: [String] = [], captureDate: Date? = nil, utcOffset: Int? = nil,
        location: MediaLocation? = nil
    ) {
        self.rating = rating
        self.caption = caption
        self.keywords = keywords
        self.captureDate = captureDate
        self.utcOffset = utcOffset
        self.location = location
    }

    /// The sidecar's name beside a file named `filename`: the whole name
    /// and `.xmp`, as darktable and digiKam look for it.
    package static func name(besideFileNamed filename: String) -> String {
        filename + ".xmp"
    }

    /// The XMP packet, UTF-8 XML. Cost: building the text.
    package var document: String {
        var attributes: [String] = []
        if let rating, (1...5).contains(rating) { attributes.append("xmp:Rating=\"\(rating)\"") }
        if let captureDate {
            let time = Self.timestamp(captureDate, utcOffset: utcOffset)
            attributes.append("exif:DateTimeOriginal=\"\(time)\"")
            attributes.append("photoshop:DateCreated=\"\(time)\"")
        }
        if let location, (-90...90).contains(location.latitude), (-180...180).contains(location.longitude) {
            attributes.append("exif:GPSLatitude=\"\(Self.coordinate(location.latitude, positive: "N", negative: "S"))\"")
            attributes.append("exif:GPSLongitude=\"\(Self.coordinate(location.longitude, positive: "E", negative: "W"))\"")
            if let altitude = location.altitude, altitude.isFinite {
                attributes.append("exif:GPSAltitude=\"\(Int((abs(altitude) * 100).rounded()))/100\"")
                attributes.append("exif:GPSAltitudeRef=\"\(altitude < 0 ? 1 : 0)\"")
            }
        }
        var elements: [String] = []
        if let caption, !caption.isEmpty {
            elements.append(
                """
                   <dc:description>
                    <rdf:Alt>
                     <rdf:li xml:lang="x-default">\(Self.escaped(caption))</rdf:li>
                    </rdf:Alt>
                   </dc:description>
                """)
        }
        if !keywords.isEmpty {
            let items = keywords.map { "     <rdf:li>\(Self.escaped($0))</rdf:li>" }.joined(separator: "\n")
            elements.append(
                """
                   <dc:subject>
                    <rdf:Bag>
                \(items)
                    </rdf:Bag>
                   </dc:subject>
                """)
        }
        let namespaces = [
            "xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\"", "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"",
            "xmlns:exif=\"http://ns.adobe.com/exif/1.0/\"", "xmlns:photoshop=\"http://ns.adobe.com/photoshop/1.0/\"",
        ]
        let opening = (["rdf:about=\"\""] + namespaces + attributes).map { "    " + $0 }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="OpenPhotoKit">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description
            \(opening)>
            \(elements.joined(separator: "\n"))
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>

            """
    }

    /// `date` as XMP's date-time, in the zone of `utcOffset` (UTC when nil).
    static func timestamp(_ date: Date, utcOffset: Int?) -> String {
        let offset = utcOffset ?? 0
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offset) ?? TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let zone =
            utcOffset == nil
            ? "Z" : String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) % 3600 / 60)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0,
            parts.second ?? 0) + zone
    }

    /// A coordinate as XMP's GPS text: degrees, decimal minutes, hemisphere (`48,51.000000N`).
    static func coordinate(_ value: Double, positive: String, negative: String) -> String {
        let magnitude = abs(value)
        let degrees = Int(magnitude)
        let minutes = (magnitude - Double(degrees)) * 60
        return String(format: "%d,%.6f", degrees, minutes) + (value < 0 ? negative : positive)
    }

    /// `text` as XML character data: markup escaped, and characters XML
    /// cannot hold (control characters but tab and line breaks) left out.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): break
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
