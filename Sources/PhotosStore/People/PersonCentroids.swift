/// How faces join people as the indexer finds them: each face joins the
/// person whose mean descriptor (centroid) is nearest, when it is within
/// ``joiningDistance``, and starts a person of its own otherwise; the
/// person's centroid moves to include it. A face never changes person
/// afterwards on its own: people only merge or split when someone says so,
/// so a name given stays on the faces it was given to.
///
/// Pure and in memory: the store loads every person's centroid once a
/// batch (512 bytes each) and writes back the ones that changed. Cost: a
/// face compares with every person, 128 multiplications each: about a
/// millisecond a face at 10,000 people.
package struct PersonCentroids: Sendable {
    /// Within this distance of a person's centroid, a face is theirs. dlib
    /// puts two faces of one person within 0.6 of each other; a centroid
    /// lies closer to its faces than they to each other, and a stricter
    /// bound keeps strangers apart, which a merge repairs more easily than a
    /// split. Measured on dlib's johns set: see `FaceClusteringAccuracyTests`.
    package static let joiningDistance: Float = 0.5

    /// One person as clustering sees them.
    package struct Person: Sendable, Hashable {
        /// The person's row id; nil until the store inserts them.
        package var id: Int64?
        package var centroid: FaceDescriptor
        package var faceCount: Int
        /// Whether it changed since it was loaded.
        package var changed: Bool
    }

    package private(set) var people: [Person]

    package init(_ people: [Person] = []) {
        self.people = people
    }

    /// The index of the person `face` joins, a new one when none is near
    /// enough; that person's centroid and count include it afterwards.
    package mutating func add(_ face: FaceDescriptor) -> Int {
        var nearest: (index: Int, distance: Float)?
        for (index, person) in people.enumerated() where person.faceCount > 0 {
            let distance = person.centroid.distance(to: face)
            if distance <= Self.joiningDistance, distance < nearest?.distance ?? .infinity {
                nearest = (index, distance)
            }
        }
        guard let index = nearest?.index else {
            people.append(Person(id: nil, centroid: face, faceCount: 1, changed: true))
            return people.count - 1
        }
        let person = people[index]
        people[index].centroid = FaceDescriptor.mean([person.centroid, face], weights: [person.faceCount, 1])!
        people[index].faceCount += 1
        people[index].changed = true
        return index
    }

    /// Takes `face` out of the person with row id `id`: their centroid
    /// moves away from it. A person left with no face keeps their last
    /// centroid (a named one still gathers new photos of them).
    package mutating func remove(_ face: FaceDescriptor, fromPerson id: Int64) {
        guard let index = people.firstIndex(where: { $0.id == id }) else { return }
        let person = people[index]
        if person.faceCount > 1 {
            people[index].centroid = FaceDescriptor.mean([person.centroid, face], weights: [person.faceCount, -1])!
        }
        people[index].faceCount = max(0, person.faceCount - 1)
        people[index].changed = true
    }

    /// Records the row id the store gave the person at `index`.
    package mutating func setID(_ id: Int64, at index: Int) {
        people[index].id = id
    }
}
