import Foundation

/// Photos of known people, for the face tests: dlib's `examples/johns`
/// (five people, eleven photos each, from Debian's libdlib19.1, which
/// libdlib-dev brings), each face crop set in a grey frame as a photo would
/// hold it; and four whole photos of two more people from PyPI's
/// face_recognition 1.3.0 tests, which `script/bootstrap` unpacks.
package enum FaceSamples {
    /// A photo, and whose face it shows.
    package struct Sample: Sendable {
        package var url: URL
        package var person: String
    }

    static let johns = URL(fileURLWithPath: "/usr/share/doc/libdlib19.1/examples/johns")
    static let wholePhotos = URL(fileURLWithPath: "/usr/local/share/openphotokit/face_recognition-1.3.0")
    /// The people of the johns set.
    package static let johnsPeople = ["John_Salley", "John_Savage", "John_Schneider", "John_Shimkus", "John_Simm"]

    /// Up to `perPerson` photos of each of `people` from the johns set,
    /// framed, written into `directory`; in a fixed order.
    package static func johns(_ people: [String] = johnsPeople, perPerson: Int = 11, in directory: URL) throws -> [Sample] {
        try people.flatMap { person in
            let folder = johns.appendingPathComponent(person)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }.sorted().prefix(perPerson)
            return try files.map { file in
                let framed = directory.appendingPathComponent("\(person)-\(file)")
                // The 150-pixel crop in the middle of a 400-pixel grey photo: the
                // detector needs the face's surroundings, which a crop cuts off.
                try DebianTool.run(
                    "vips",
                    [
                        "embed", folder.appendingPathComponent(file).path, framed.path + "[Q=92]", "125", "125", "400", "400", "--extend", "background",
                        "--background", "128",
                    ])
                return Sample(url: framed, person: person)
            }
        }
    }

    /// The whole photos: three of Barack Obama, one of Joe Biden.
    package static var whole: [Sample] {
        [("obama.jpg", "Barack_Obama"), ("obama2.jpg", "Barack_Obama"), ("obama3.jpg", "Barack_Obama"), ("biden.jpg", "Joe_Biden")].map {
            Sample(url: wholePhotos.appendingPathComponent($0.0), person: $0.1)
        }
    }

    /// Pairwise precision, recall and F1 of a clustering: `clusters` gives
    /// each sample's cluster (nil: no face found, which counts against
    /// recall), `people` its true person.
    package static func pairwiseScores(clusters: [String?], people: [String]) -> (precision: Double, recall: Double, f1: Double) {
        var (together, rightlyTogether, belongTogether) = (0, 0, 0)
        for a in people.indices {
            for b in people.indices where a < b {
                let same = people[a] == people[b]
                let grouped = clusters[a] != nil && clusters[a] == clusters[b]
                if grouped { together += 1 }
                if same { belongTogether += 1 }
                if grouped && same { rightlyTogether += 1 }
            }
        }
        let precision = together == 0 ? 0 : Double(rightlyTogether) / Double(together)
        let recall = belongTogether == 0 ? 0 : Double(rightlyTogether) / Double(belongTogether)
        let f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
        return (precision, recall, f1)
    }
}
