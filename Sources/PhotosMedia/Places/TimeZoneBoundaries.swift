import Foundation

/// The world's time zone boundaries, on land and at sea, as
/// timezone-boundary-builder draws them from OpenStreetMap, in the binary
/// form PyPI's timezonefinder 6.5.9 ships (its data files only; none of its
/// code runs): polygons of longitudes and latitudes in units of 10⁻⁷ degree,
/// each with its bounding box and its holes. `script/bootstrap` unpacks
/// them into ``defaultFolder``. A place's zone is the zone of the polygon
/// that holds it, so a photo taken near a border gets the zone of the side
/// it was taken on.
///
/// The polygon data (61 MB) is mapped, not read: a lookup touches only the
/// boxes (21 kB, read once) and the few polygons whose box holds the place.
struct TimeZoneBoundaries: Sendable {
    /// Where `script/bootstrap` puts the data; `PHOTOS_TIMEZONE_BOUNDARIES` names another folder.
    static let defaultFolder = "/usr/local/share/openphotokit/timezonefinder-6.5.9"

    /// The boundaries installed on this machine; nil when they are not, or
    /// do not hold together.
    static let installed: TimeZoneBoundaries? = {
        let folder = ProcessInfo.processInfo.environment["PHOTOS_TIMEZONE_BOUNDARIES"] ?? defaultFolder
        return try? TimeZoneBoundaries(folder: URL(fileURLWithPath: folder, isDirectory: true))
    }()

    /// A ring of a polygon: where its coordinates start in their file, and how many there are.
    private struct Ring {
        var offset: Int
        var count: Int
    }

    private struct Polygon {
        var zone: Int
        var outline: Ring
        var holes: [Ring]
        /// Longitude then latitude, highest and lowest, in 10⁻⁷ degree.
        var xMax: Int32, xMin: Int32, yMax: Int32, yMin: Int32
    }

    private let zones: [TimeZone?]
    /// The nautical zones (`Etc/GMT+5`...) of the open sea, which no camera's
    /// clock is set to: at sea, ``TimeZoneLocator`` takes the nearest shore's.
    private let isOcean: [Bool]
    private let polygons: [Polygon]
    private let polygonData: Data
    private let holeData: Data

    /// What the data files are not, when they do not hold together.
    struct Malformed: Error {
        let reason: String
    }

    init(folder: URL) throws {
        func file(_ name: String, mapped: Bool = false) throws -> Data {
            try Data(contentsOf: folder.appendingPathComponent(name), options: mapped ? .alwaysMapped : [])
        }
        func integers<T: FixedWidthInteger>(_ name: String, as type: T.Type) throws -> [T] {
            let data = try file(name)
            guard data.count % MemoryLayout<T>.size == 0 else { throw Malformed(reason: "\(name) is cut short") }
            return data.withUnsafeBytes { bytes in
                (0..<data.count / MemoryLayout<T>.size).map { T(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * MemoryLayout<T>.size, as: T.self)) }
            }
        }
        let names = try JSONDecoder().decode([String].self, from: try file("timezone_names.json"))
        let polygonZones = try integers("poly_zone_ids.bin", as: UInt16.self)
        let counts = try integers("poly_coord_amount.bin", as: UInt32.self)
        let offsets = try integers("poly_adr2data.bin", as: UInt32.self)
        let bounds = try integers("poly_bounds.bin", as: Int32.self)
        let holeCounts = try integers("hole_coord_amount.bin", as: UInt16.self)
        let holeOffsets = try integers("hole_adr2data.bin", as: UInt32.self)
        let registry = try JSONDecoder().decode([String: [Int]].self, from: try file("hole_registry.json"))
        let polygonData = try file("poly_data.bin", mapped: true)
        let holeData = try file("hole_data.bin", mapped: true)

        let count = polygonZones.count
        // The address files end with where the data ends: one entry more.
        guard counts.count == count, offsets.count >= count, bounds.count == 4 * count, holeOffsets.count >= holeCounts.count else {
            throw Malformed(reason: "the polygon files disagree on how many polygons there are")
        }
        func ring(offset: UInt32, count: Int, in data: Data) throws -> Ring {
            let ring = Ring(offset: Int(offset), count: count)
            guard count >= 3, ring.offset + 8 * count <= data.count else { throw Malformed(reason: "a ring lies outside its file") }
            return ring
        }
        var polygons: [Polygon] = []
        polygons.reserveCapacity(count)
        for index in 0..<count {
            guard Int(polygonZones[index]) < names.count else { throw Malformed(reason: "a polygon names no zone") }
            var holes: [Ring] = []
            if let entry = registry[String(index)] {
                guard entry.count == 2, entry[0] >= 0, entry[1] >= 0, entry[1] + entry[0] <= holeCounts.count else {
                    throw Malformed(reason: "a hole lies outside its file")
                }
                holes = try (entry[1]..<entry[1] + entry[0]).map { try ring(offset: holeOffsets[$0], count: Int(holeCounts[$0]), in: holeData) }
            }
            polygons.append(
                Polygon(
                    zone: Int(polygonZones[index]),
                    outline: try ring(offset: offsets[index], count: Int(counts[index]), in: polygonData), holes: holes,
                    xMax: bounds[4 * index], xMin: bounds[4 * index + 1], yMax: bounds[4 * index + 2], yMin: bounds[4 * index + 3]))
        }
        self.polygons = polygons
        self.polygonData = polygonData
        self.holeData = holeData
        zones = names.map { TimeZone(identifier: $0) }
        isOcean = names.map { $0.hasPrefix("Etc/") }
    }

    /// The zone of the land (or territorial water) at a latitude and
    /// longitude in degrees; nil off the globe, and at sea. Cost: a pass
    /// over the polygons' boxes (about 1,300), then a ray cast through each
    /// land polygon whose box holds the place: about a millisecond.
    func zone(latitude: Double, longitude: Double) -> TimeZone? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        let (x, y) = (Int32(longitude * 10_000_000), Int32(latitude * 10_000_000))
        for polygon in polygons
        where !isOcean[polygon.zone] && x <= polygon.xMax && x >= polygon.xMin && y <= polygon.yMax && y >= polygon.yMin
            && contains(polygon, x: x, y: y)
        {
            return zones[polygon.zone]
        }
        return nil
    }

    private func contains(_ polygon: Polygon, x: Int32, y: Int32) -> Bool {
        Self.ring(polygon.outline, in: polygonData, contains: x, y)
            && !polygon.holes.contains { Self.ring($0, in: holeData, contains: x, y) }
    }

    /// Ray casting on the ring's integer coordinates (all its longitudes,
    /// then all its latitudes), in 64-bit products, which cannot overflow.
    private static func ring(_ ring: Ring, in data: Data, contains x: Int32, _ y: Int32) -> Bool {
        data.withUnsafeBytes { bytes in
            func coordinate(_ index: Int) -> Int64 {
                Int64(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: ring.offset + 4 * index, as: Int32.self)))
            }
            let (px, py) = (Int64(x), Int64(y))
            var inside = false
            var previous = ring.count - 1
            for index in 0..<ring.count {
                let (xi, yi) = (coordinate(index), coordinate(ring.count + index))
                let (xj, yj) = (coordinate(previous), coordinate(ring.count + previous))
                if (yi > py) != (yj > py) {
                    // px < xi + (xj - xi) * (py - yi) / (yj - yi), without the division.
                    let left = (px - xi) * (yj - yi)
                    let right = (xj - xi) * (py - yi)
                    if yj > yi ? left < right : left > right { inside.toggle() }
                }
                previous = index
            }
            return inside
        }
    }
}
