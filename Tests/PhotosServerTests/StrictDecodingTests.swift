import Foundation
import Testing

@testable import PhotosServer

/// Strict decoding: the keys a type takes are its properties, and nothing else gets through.
@Suite struct StrictDecodingTests {
    struct Body: Decodable {
        let name: String
        let count: Int?
        let location: FieldUpdate<AssetRepresentation.Location>
    }

    static func decode(_ json: String) throws -> Body {
        try JSONDecoder().decode(Strict<Body>.self, from: Data(json.utf8)).value
    }

    @Test func theKeysATypeTakesAreItsPropertiesAndNoOthers() throws {
        #expect(try Self.decode(#"{"name": "a", "count": 2}"#).count == 2)
        #expect(try Self.decode(#"{"name": "a"}"#).count == nil)
        #expect(throws: DecodingError.self) { try Self.decode(#"{"name": "a", "cuont": 2}"#) }
        #expect(throws: DecodingError.self) { try Self.decode(#"{"count": 2}"#) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Strict<Body>.self, from: Data("[1]".utf8)) }
    }

    @Test func anUpdatedFieldIsLeftAloneClearedOrSetAndItsObjectIsStrictToo() throws {
        guard case .unchanged = try Self.decode(#"{"name": "a"}"#).location else {
            Issue.record("absent is unchanged")
            return
        }
        guard case .cleared = try Self.decode(#"{"name": "a", "location": null}"#).location else {
            Issue.record("null clears")
            return
        }
        guard case .set(let location) = try Self.decode(#"{"name": "a", "location": {"latitude": 1, "longitude": 2}}"#).location else {
            Issue.record("an object sets")
            return
        }
        #expect(location.latitude == 1 && location.longitude == 2 && location.altitude == nil)
        #expect(throws: DecodingError.self) { try Self.decode(#"{"name": "a", "location": {"latitude": 1, "longitude": 2, "lat": 3}}"#) }
    }
}
