import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// How faces join people, against the obvious model: every person's
/// centroid is the plain mean of the faces they hold, a face joins the
/// nearest centroid within the joining distance, and taking faces out
/// leaves the mean of the rest.
@Suite struct PersonCentroidsTests {
    static func randomDescriptor(near center: [Float]? = nil, spread: Float, _ random: inout SeededRandom) -> FaceDescriptor {
        FaceDescriptor(
            (0..<FaceDescriptor.length).map { index in
                (center?[index] ?? 0) + Float.random(in: -spread...spread, using: &random)
            })
    }

    @Test(arguments: [1, 2, 3]) func incrementalCentroidsAgreeWithTheModel(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        // Five people far apart (about 1.3 between centres); faces within about 0.2 of theirs.
        let centres = (0..<5).map { _ in Self.randomDescriptor(spread: 0.2, &random).values }
        var clustering = PersonCentroids()
        var members: [Int: [FaceDescriptor]] = [:]
        var truth: [Int: Int] = [:]
        for step in 0..<200 {
            let person = Int.random(in: 0..<centres.count, using: &random)
            let face = Self.randomDescriptor(near: centres[person], spread: 0.03, &random)
            // The model's choice: the nearest mean within the distance.
            let nearest = members.filter { !$0.value.isEmpty }.map { index, faces in
                (index, FaceDescriptor.mean(faces, weights: faces.map { _ in 1 })!.distance(to: face))
            }.filter { $0.1 <= PersonCentroids.joiningDistance }.min { $0.1 < $1.1 }?.0
            let index = clustering.add(face)
            if let nearest { #expect(index == nearest, "step \(step)") } else { #expect(index == clustering.people.count - 1) }
            members[index, default: []].append(face)
            if truth[index] == nil { truth[index] = person }
            #expect(truth[index] == person, "a person gathers one true person's faces")
            if index == clustering.people.count - 1, clustering.people[index].id == nil { clustering.setID(Int64(index + 1), at: index) }
        }
        #expect(clustering.people.count == centres.count, "one person each")
        for (index, faces) in members {
            let model = FaceDescriptor.mean(faces, weights: faces.map { _ in 1 })!
            #expect(clustering.people[index].faceCount == faces.count)
            #expect(clustering.people[index].centroid.distance(to: model) < 1e-4)
        }
        // Taking half the faces out leaves the mean of the others.
        for (index, faces) in members {
            for face in faces.prefix(faces.count / 2) { clustering.remove(face, fromPerson: Int64(index + 1)) }
            let rest = Array(faces.dropFirst(faces.count / 2))
            #expect(clustering.people[index].faceCount == rest.count)
            #expect(clustering.people[index].centroid.distance(to: FaceDescriptor.mean(rest, weights: rest.map { _ in 1 })!) < 1e-3)
        }
    }

    @Test func descriptorsRoundTripTheirBytes() {
        var random = SeededRandom(seed: 9)
        let descriptor = Self.randomDescriptor(spread: 1, &random)
        #expect(FaceDescriptor(bytes: descriptor.bytes) == descriptor)
        #expect(FaceDescriptor(bytes: Data([1, 2, 3])) == nil)
    }
}
