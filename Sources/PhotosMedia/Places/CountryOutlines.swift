import Foundation

/// The world's countries as simple outlines: the offline base map the
/// gallery draws its photos' places on, with nothing loaded from another
/// server.
///
/// The data is Natural Earth's 1:110m admin-0 countries (public domain),
/// the shapefile geopandas 0.12.2 ships for its examples; `script/bootstrap`
/// takes it from Debian's python3-geopandas into ``defaultFolder``. Reading
/// it parses two small files (180 kB of polygons, 50 kB of attributes) in a
/// few milliseconds; nothing of geopandas runs.
package struct CountryOutlines: Sendable {
    /// Where `script/bootstrap` puts the shapefile; `PHOTOS_COUNTRY_OUTLINES` names another folder.
    package static let defaultFolder = "/usr/local/share/openphotokit/naturalearth_lowres-0.12.2"

    /// The outlines installed on this machine; nil when they are not, or do
    /// not hold together.
    package static let installed: CountryOutlines? = {
        let folder = ProcessInfo.processInfo.environment["PHOTOS_COUNTRY_OUTLINES"] ?? defaultFolder
        return try? CountryOutlines(folder: URL(fileURLWithPath: folder, isDirectory: true))
    }()

    /// One country: its name, code and the rings that draw it.
    package struct Country: Sendable, Hashable {
        /// The country's English name (`France`).
        package var name: String
        /// Its ISO 3166-1 alpha-3 code (`FRA`); nil for the few places
        /// Natural Earth gives none (Kosovo, Northern Cyprus).
        package var code: String?
        /// Closed rings of longitude, latitude pairs, flattened
        /// (`[lon₀, lat₀, lon₁, lat₁, …]`): outer boundaries and holes alike,
        /// drawn with the even-odd rule.
        package var rings: [[Double]]
    }

    /// Why the files are not a country shapefile.
    package struct Malformed: Error, CustomStringConvertible {
        package let description: String
    }

    /// The countries, in the file's order.
    package let countries: [Country]

    /// The most points the whole file may hold: the 1:110m data has about
    /// 10,000, so a file claiming more than a million is not this data.
    private static let maximumPoints = 1_000_000

    /// Reads `naturalearth_lowres.shp` and `.dbf` from `folder`.
    package init(folder: URL) throws {
        let shapes = try Data(contentsOf: folder.appendingPathComponent("naturalearth_lowres.shp"))
        let attributes = try Data(contentsOf: folder.appendingPathComponent("naturalearth_lowres.dbf"))
        try self.init(shapes: shapes, attributes: attributes)
    }

    /// Parses a polygon shapefile's geometry (`.shp`) and attribute table
    /// (`.dbf`, Latin-1 text, with `name` and `iso_a3` columns). Throws
    /// ``Malformed`` for anything else, whatever the bytes; never traps.
    package init(shapes: Data, attributes: Data) throws(Malformed) {
        let polygons = try Self.polygons(ShapefileBytes(shapes))
        let rows = try Self.rows(ShapefileBytes(attributes), columns: ["name", "iso_a3"])
        guard rows.count == polygons.count else {
            throw Malformed(description: "the shapefile has \(polygons.count) shapes but \(rows.count) attribute rows")
        }
        countries = zip(rows, polygons).map { row, rings in
            let code = row["iso_a3"] ?? ""
            return Country(name: row["name"] ?? "", code: code.count == 3 && code.allSatisfy(\.isLetter) ? code : nil, rings: rings)
        }
    }

    /// The country whose outline holds the place (even-odd over its
    /// rings), or nil at sea. Cost: a pass over every point, about 10,000.
    package func country(containingLatitude latitude: Double, longitude: Double) -> Country? {
        countries.first { country in
            country.rings.reduce(false) { inside, ring in inside != Self.ring(ring, contains: longitude, latitude) }
        }
    }

    /// Whether a ray from the point eastwards crosses the ring an odd number of times.
    private static func ring(_ ring: [Double], contains x: Double, _ y: Double) -> Bool {
        var inside = false
        var previous = ring.count - 2
        for current in stride(from: 0, to: ring.count - 1, by: 2) {
            let (xi, yi, xj, yj) = (ring[current], ring[current + 1], ring[previous], ring[previous + 1])
            if (yi > y) != (yj > y), x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
            previous = current
        }
        return inside
    }

    // MARK: - Geometry (.shp)

    /// Each record's rings; a null shape has none. Coordinates are clamped
    /// to the globe (the file's own bounds overshoot 180° by 10⁻¹⁴).
    private static func polygons(_ file: ShapefileBytes) throws(Malformed) -> [[[Double]]] {
        guard file.count >= 100, try file.int32(at: 0, bigEndian: true) == 9994 else {
            throw Malformed(description: "the geometry file is not a shapefile")
        }
        guard try file.int32(at: 32) == 5 else { throw Malformed(description: "the shapefile does not hold polygons") }
        var polygons: [[[Double]]] = []
        var offset = 100
        var points = 0
        while offset < file.count {
            let length = Int(try file.int32(at: offset + 4, bigEndian: true)) * 2
            let content = offset + 8
            guard length >= 4, length <= file.count - content else { throw Malformed(description: "a shape record at byte \(offset) is cut short") }
            let end = content + length
            offset = end
            switch try file.int32(at: content) {
            case 0:
                polygons.append([])
            case 5:
                guard length >= 44 else { throw Malformed(description: "a polygon record is cut short") }
                let partCount = Int(try file.int32(at: content + 36))
                let pointCount = Int(try file.int32(at: content + 40))
                let partsStart = content + 44
                guard partCount >= 0, pointCount >= 0, pointCount <= maximumPoints - points, partCount <= pointCount,
                    partsStart + partCount * 4 + pointCount * 16 <= end
                else { throw Malformed(description: "a polygon record's counts do not fit it") }
                points += pointCount
                let pointsStart = partsStart + partCount * 4
                var starts: [Int] = []
                for part in 0..<partCount { starts.append(Int(try file.int32(at: partsStart + part * 4))) }
                guard starts.first.map({ $0 == 0 }) ?? (pointCount == 0), zip(starts, starts.dropFirst()).allSatisfy({ $0 < $1 }),
                    (starts.last ?? 0) < max(pointCount, 1)
                else { throw Malformed(description: "a polygon's parts are out of order") }
                var rings: [[Double]] = []
                for (index, start) in starts.enumerated() {
                    let stop = index + 1 < starts.count ? starts[index + 1] : pointCount
                    var ring: [Double] = []
                    ring.reserveCapacity((stop - start) * 2)
                    for point in start..<stop {
                        let x = try file.double(at: pointsStart + point * 16)
                        let y = try file.double(at: pointsStart + point * 16 + 8)
                        guard x.isFinite, y.isFinite else { throw Malformed(description: "a polygon has a coordinate that is not a number") }
                        ring.append(min(max(x, -180), 180))
                        ring.append(min(max(y, -90), 90))
                    }
                    rings.append(ring)
                }
                polygons.append(rings)
            case let type:
                throw Malformed(description: "a shape record is of type \(type), not a polygon")
            }
        }
        return polygons
    }

    // MARK: - Attributes (.dbf)

    /// The rows' text in `columns` (named case-insensitively), trimmed;
    /// deleted rows left out.
    private static func rows(_ file: ShapefileBytes, columns: Set<String>) throws(Malformed) -> [[String: String]] {
        guard file.count >= 32 else { throw Malformed(description: "the attribute file is cut short") }
        let rowCount = Int(try file.uint32(at: 4))
        let headerLength = Int(try file.uint16(at: 8))
        let rowLength = Int(try file.uint16(at: 10))
        guard headerLength >= 33, headerLength <= file.count, rowLength >= 1 else { throw Malformed(description: "the attribute file's header is malformed") }
        guard rowCount <= (file.count - headerLength) / rowLength else { throw Malformed(description: "the attribute file is cut short") }
        var fields: [(name: String, offset: Int, length: Int)] = []
        var descriptor = 32
        var fieldOffset = 1  // after each row's deletion flag
        while descriptor + 32 <= headerLength, try file.byte(at: descriptor) != 0x0D {
            let nameBytes = try (0..<11).map { index throws(Malformed) in try file.byte(at: descriptor + index) }.prefix { $0 != 0 }
            let length = Int(try file.byte(at: descriptor + 16))
            fields.append((String(decoding: nameBytes, as: UTF8.self).lowercased(), fieldOffset, length))
            fieldOffset += length
            descriptor += 32
        }
        guard fieldOffset <= rowLength else { throw Malformed(description: "the attribute file's fields are longer than its rows") }
        let wanted = fields.filter { columns.contains($0.name) }
        var rows: [[String: String]] = []
        for index in 0..<rowCount {
            let start = headerLength + index * rowLength
            if try file.byte(at: start) == UInt8(ascii: "*") { continue }
            var row: [String: String] = [:]
            for field in wanted {
                let bytes = try (0..<field.length).map { offset throws(Malformed) in try file.byte(at: start + field.offset + offset) }
                // Latin-1: each byte is the code point of the same number.
                let text = String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
                row[field.name] = text.trimmingCharacters(in: .whitespaces)
            }
            rows.append(row)
        }
        return rows
    }
}

/// Bounds-checked little- and big-endian reads from a file's bytes.
private struct ShapefileBytes {
    let bytes: [UInt8]
    var count: Int { bytes.count }

    init(_ data: Data) { bytes = [UInt8](data) }

    func byte(at offset: Int) throws(CountryOutlines.Malformed) -> UInt8 {
        guard offset >= 0, offset < bytes.count else { throw .init(description: "the file ends before byte \(offset)") }
        return bytes[offset]
    }

    private func integer(at offset: Int, size: Int, bigEndian: Bool) throws(CountryOutlines.Malformed) -> UInt64 {
        guard offset >= 0, size <= bytes.count, offset <= bytes.count - size else { throw .init(description: "the file ends before byte \(offset + size)") }
        var value: UInt64 = 0
        for index in 0..<size {
            let byte = UInt64(bytes[offset + (bigEndian ? index : size - 1 - index)])
            value = value << 8 | byte
        }
        return value
    }

    func int32(at offset: Int, bigEndian: Bool = false) throws(CountryOutlines.Malformed) -> Int32 {
        Int32(bitPattern: UInt32(truncatingIfNeeded: try integer(at: offset, size: 4, bigEndian: bigEndian)))
    }

    func uint32(at offset: Int) throws(CountryOutlines.Malformed) -> UInt32 {
        UInt32(truncatingIfNeeded: try integer(at: offset, size: 4, bigEndian: false))
    }

    func uint16(at offset: Int) throws(CountryOutlines.Malformed) -> UInt16 {
        UInt16(truncatingIfNeeded: try integer(at: offset, size: 2, bigEndian: false))
    }

    func double(at offset: Int) throws(CountryOutlines.Malformed) -> Double {
        Double(bitPattern: try integer(at: offset, size: 8, bigEndian: false))
    }
}
