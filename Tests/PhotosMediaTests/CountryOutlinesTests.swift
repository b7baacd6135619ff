import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosMedia

/// The offline base map's country outlines, read from the Natural Earth
/// shapefile `script/bootstrap` installs, and the parser's refusal of
/// anything else.
@Suite struct CountryOutlinesTests {
    private var installed: URL { URL(fileURLWithPath: CountryOutlines.defaultFolder, isDirectory: true) }

    private func files() throws -> (shapes: Data, attributes: Data) {
        (
            try Data(contentsOf: installed.appendingPathComponent("naturalearth_lowres.shp")),
            try Data(contentsOf: installed.appendingPathComponent("naturalearth_lowres.dbf"))
        )
    }

    /// Every country is read with its name, code and rings, names decoded
    /// from Latin-1, and known places fall in their countries.
    @Test func theWorldsCountriesAreRead() throws {
        let outlines = try #require(CountryOutlines.installed, "script/bootstrap installs the country outlines")
        #expect(outlines.countries.count == 177)
        let points = outlines.countries.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count / 2 } }
        #expect((5_000...20_000).contains(points))
        let france = try #require(outlines.countries.first { $0.name == "France" })
        #expect(france.code == "FRA")
        #expect(france.rings.count >= 2, "mainland and Corsica (and French Guiana)")
        #expect(outlines.countries.contains { $0.name == "Côte d'Ivoire" })
        for ring in outlines.countries.flatMap(\.rings) {
            #expect(ring.count % 2 == 0 && ring.count >= 8)
            #expect(stride(from: 0, to: ring.count, by: 2).allSatisfy { (-180...180).contains(ring[$0]) && (-90...90).contains(ring[$0 + 1]) })
        }
        let places: [(Double, Double, String?)] = [
            (48.85, 2.35, "FRA"), (35.68, 139.69, "JPN"), (40.71, -74.0, "USA"), (-33.87, 151.21, "AUS"),
            (-22.91, -43.17, "BRA"), (52.52, 13.40, "DEU"), (10.0, -30.0, nil), (0, 0, nil),
        ]
        for (latitude, longitude, code) in places {
            #expect(outlines.country(containingLatitude: latitude, longitude: longitude)?.code == code, "\(latitude), \(longitude)")
        }
    }

    /// Files cut short, with bytes changed at random, or of another kind are
    /// refused with `Malformed` (or read, when the change was harmless); no
    /// input traps. Seeded: a failure names the seed that replays it.
    @Test func damagedFilesAreRefusedNeverTrap() throws {
        let (shapes, attributes) = try files()
        var random = SeededRandom.fromEnvironment()
        #expect(throws: CountryOutlines.Malformed.self) { try CountryOutlines(shapes: Data(), attributes: attributes) }
        #expect(throws: CountryOutlines.Malformed.self) { try CountryOutlines(shapes: shapes, attributes: Data()) }
        #expect(throws: CountryOutlines.Malformed.self) { try CountryOutlines(shapes: attributes, attributes: shapes) }
        #expect(throws: CountryOutlines.Malformed.self) { try CountryOutlines(shapes: shapes.prefix(shapes.count - 7), attributes: attributes) }
        for _ in 0..<300 {
            var damagedShapes = [UInt8](shapes)
            var damagedAttributes = [UInt8](attributes)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                if random.chance(0.5) {
                    damagedShapes[Int.random(in: 0..<damagedShapes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                } else {
                    damagedAttributes[Int.random(in: 0..<damagedAttributes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            }
            if random.chance(0.2) { damagedShapes.removeLast(Int.random(in: 1...damagedShapes.count, using: &random)) }
            if random.chance(0.2) { damagedAttributes.removeLast(Int.random(in: 1...damagedAttributes.count, using: &random)) }
            do {
                let outlines = try CountryOutlines(shapes: Data(damagedShapes), attributes: Data(damagedAttributes))
                #expect(outlines.countries.allSatisfy { $0.rings.allSatisfy { $0.count % 2 == 0 } })
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }
}
