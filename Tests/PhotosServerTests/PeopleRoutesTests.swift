import Foundation
import HummingbirdTesting
import Photos
import PhotosIndexing
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// `/v1/people`, `/v1/faces/move` and `/v1/assets/{id}/faces`: people over
/// HTTP, as each token sees them; edits only with the whole library.
@Suite struct PeopleRoutesTests {
    /// Three photos each of two of dlib's johns, faces indexed; their identifiers, Salley's first.
    static func importPeople(into fixture: ServerFixture) throws -> [String] {
        let samples = try FaceSamples.johns(["John_Salley", "John_Simm"], perPerson: 3, in: fixture.directory)
        var created: [String] = []
        try fixture.library.performChangesAndWait {
            for sample in samples {
                created.append(PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: sample.url)!.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        try LibraryIndexer(library: fixture.library, kinds: [.faces]).catchUp()
        return created
    }

    @Test func peopleAreTheTokensAndOnlyAWholeLibraryTokenChangesThem() async throws {
        let fixture = try ServerFixture(photos: 1)
        let ids = try Self.importPeople(into: fixture)
        let limited = try fixture.clientToken("org.example.faces", grant: .limited, selection: [ids[0]])
        let reader = try fixture.clientToken("org.example.look", grant: .readWrite, readOnly: true)
        let writer = try fixture.clientToken("org.example.edit", grant: .readWrite)
        try await fixture.withRouter { client in
            let listed = try await client.get("/v1/people", token: fixture.ownerToken)
            #expect(listed.status == .ok, "\(listed.text)")
            let people = try #require(listed.json["items"] as? [[String: Any]])
            #expect(people.count == 2 && people.allSatisfy { $0["assets"] as? Int == 3 }, "\(people)")
            let salleyPhotos = Set(ids[0..<3].map(urlID))
            let salley = try #require(
                people.first { person in
                    let face = person["keyFace"] as? [String: Any]
                    return salleyPhotos.contains(face?["asset"] as? String ?? "")
                })
            let salleyID = try #require(salley["id"] as? String)
            let simmID = try #require(people.first { $0["id"] as? String != salleyID }?["id"] as? String)
            // The limited token sees Salley's one photo, and nothing of Simm.
            let mine = try await client.get("/v1/people?minimum=1", token: limited)
            #expect((mine.json["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [salleyID], "\(mine.text)")
            #expect((mine.json["items"] as? [[String: Any]])?.first?["assets"] as? Int == 1)
            #expect(try await client.get("/v1/people/\(simmID)", token: limited).status == .notFound)
            let theirFaces = try await client.get("/v1/people/\(salleyID)/faces", token: limited)
            #expect((theirFaces.json["items"] as? [[String: Any]])?.map { $0["asset"] as? String } == [urlID(ids[0])])
            #expect(try await client.get("/v1/assets/\(urlID(ids[3]))/faces", token: limited).status == .notFound)
            let photos = try await client.get("/v1/people/\(salleyID)/assets", token: fixture.ownerToken)
            #expect(Set((photos.json["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []) == salleyPhotos, "\(photos.text)")
            let theirPhotos = try await client.get("/v1/people/\(salleyID)/assets", token: limited)
            #expect((theirPhotos.json["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [urlID(ids[0])])
            #expect(try await client.get("/v1/people/\(simmID)/assets", token: limited).status == .notFound)
            let faces = try await client.get("/v1/assets/\(urlID(ids[3]))/faces", token: fixture.ownerToken)
            let face = try #require((faces.json["items"] as? [[String: Any]])?.first)
            #expect(face["person"] as? String == simmID)
            let box = try #require(face["box"] as? [String: Double])
            #expect(box["x"]! > 0.2 && box["x"]! < 0.5 && box["width"]! > 0.1, "\(box)")
            // Only a token with the whole library changes people.
            for token in [limited, reader] {
                let refused = try await client.send(.patch, "/v1/people/\(salleyID)", token: token, json: ["name": "Anna"])
                #expect(refused.status == .forbidden, "\(refused.text)")
            }
            let named = try await client.send(.patch, "/v1/people/\(salleyID)", token: writer, json: ["name": "John Salley"])
            #expect(named.status == .ok && named.json["name"] as? String == "John Salley", "\(named.text)")
            #expect(
                try await client.send(.patch, "/v1/people/\(salleyID)", token: writer, json: ["name": String(repeating: "a", count: 201)]).status == .badRequest
            )
            #expect(try await client.send(.patch, "/v1/people/\(salleyID)", token: writer, json: ["nom": "x"]).status == .badRequest)
            #expect(try await client.send(.patch, "/v1/people/../etc", token: writer, json: ["name": "x"]).status == .notFound)
            let found = try await client.get("/v1/search?q=person:salley", token: limited)
            #expect((found.json["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [urlID(ids[0])], "\(found.text)")
            // Split one of Simm's faces off, then merge it back.
            let faceID = try #require(face["id"] as? String)
            let split = try await client.send(.post, "/v1/faces/move", token: writer, json: ["faces": [faceID]])
            #expect(split.status == .ok, "\(split.text)")
            let newID = try #require(split.json["person"] as? String)
            #expect(try await client.get("/v1/people/\(simmID)", token: fixture.ownerToken).json["faces"] as? Int == 2)
            #expect(try await client.send(.post, "/v1/faces/move", token: writer, json: ["faces": ["no-such-face"]]).status == .notFound)
            #expect(try await client.send(.post, "/v1/faces/move", token: writer, json: ["faces": []]).status == .badRequest)
            let merged = try await client.send(.post, "/v1/people/\(simmID)/merge", token: writer, json: ["people": [newID]])
            #expect(merged.status == .ok && merged.json["faces"] as? Int == 3, "\(merged.text)")
            #expect(try await client.get("/v1/people/\(newID)", token: fixture.ownerToken).status == .notFound)
            let hidden = try await client.send(.patch, "/v1/people/\(simmID)", token: fixture.ownerToken, json: ["hidden": true])
            #expect(hidden.json["hidden"] as? Bool == true)
            #expect((try await client.get("/v1/people", token: fixture.ownerToken).json["items"] as? [[String: Any]])?.count == 1)
            #expect((try await client.get("/v1/people?hidden=true", token: fixture.ownerToken).json["items"] as? [[String: Any]])?.count == 2)
        }
    }

    /// Random selections: a limited token's answers about people never name
    /// an asset outside its selection, nor count one.
    @Test func randomGrantsNeverLeakPeople() async throws {
        let fixture = try ServerFixture(photos: 0)
        let ids = try Self.importPeople(into: fixture)
        let people = try fixture.library.people(minimumAssetCount: 1).map(\.localIdentifier)
        for seed in UInt64(1)...6 {
            var random = SeededRandom(seed: seed)
            let selection = ids.filter { _ in Bool.random(using: &random) }
            let outside = Set(ids).subtracting(selection)
            let token = try fixture.clientToken("org.example.people\(seed)", grant: .limited, selection: selection)
            try await fixture.withRouter { client in
                let uris =
                    ["/v1/people", "/v1/people?minimum=1", "/v1/people?hidden=true&minimum=1"]
                    + people.flatMap { ["/v1/people/\($0)", "/v1/people/\($0)/faces", "/v1/people/\($0)/assets"] } + ids.map { "/v1/assets/\(urlID($0))/faces" }
                var counted = 0
                for uri in uris {
                    let response = try await client.get(uri, token: token)
                    for identifier in outside where !uri.contains(urlID(identifier)) {
                        #expect(!response.text.contains(urlID(identifier)), "seed \(seed): \(uri) names \(identifier)")
                    }
                    if uri == "/v1/people?minimum=1" {
                        counted = (response.json["items"] as? [[String: Any]])?.reduce(0) { $0 + ($1["assets"] as? Int ?? 0) } ?? -1
                    }
                }
                #expect(counted == selection.count, "seed \(seed): each selected photo holds one person's face")
            }
        }
    }
}
