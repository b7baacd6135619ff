import Foundation
import Photos

/// `/v1/people`, `/v1/faces` and an asset's faces: the people the faces
/// indexer found, as the token sees them, and naming, hiding, merging and
/// moving faces, which need a token with the whole library (the library
/// refuses others with 403; a read-only token never reaches here).
extension JSONRoutes {
    /// The most faces one list gives when the request names no limit.
    static let defaultFaceListLimit = 200
    /// The most people one merge takes, and faces one move (the document's `maxItems`).
    static let maximumPeopleMerged = 100
    static let maximumFacesMoved = 1000

    /// `value`, refused with 400 outside `range` (the generated decoding checks no bound).
    private static func checked(_ value: Int?, _ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value else { return nil }
        guard range.contains(value) else { throw Problem.badRequest("\(name) must be from \(range.lowerBound) to \(range.upperBound)") }
        return value
    }

    func listPeople(_ input: Operations.ListPeople.Input) async throws -> Operations.ListPeople.Output {
        let minimum = try Self.checked(input.query.minimum, "minimum", in: 1...Page<Components.Schemas.Face>.maximumLimit)
        let (library, _) = try await library()
        let people = try await blocking {
            try library.people(
                includingHidden: input.query.hidden ?? false, minimumAssetCount: minimum ?? PHPhotoLibrary.defaultMinimumAssetsPerPerson)
        }
        return .ok(.init(body: .json(.init(items: people.map(Self.person)))))
    }

    func getPerson(_ input: Operations.GetPerson.Input) async throws -> Operations.GetPerson.Output {
        let (library, _) = try await library()
        let id = input.path.id
        return .ok(.init(body: .json(Self.person(try await blocking { try library.person(withLocalIdentifier: id) }))))
    }

    func updatePerson(_ input: Operations.UpdatePerson.Input) async throws -> Operations.UpdatePerson.Output {
        guard case .json(let change) = input.body else { throw Problem.badRequest("the body must be JSON") }
        let (library, _) = try await library()
        let id = input.path.id
        let person = try await blocking {
            try Self.clientMistakes {
                if let name = change.name { try library.setName(name, ofPersonWithLocalIdentifier: id) }
                if let hidden = change.hidden { try library.setHidden(hidden, ofPersonWithLocalIdentifier: id) }
                return try library.person(withLocalIdentifier: id)
            }
        }
        return .ok(.init(body: .json(Self.person(person))))
    }

    func listPersonFaces(_ input: Operations.ListPersonFaces.Input) async throws -> Operations.ListPersonFaces.Output {
        let (library, _) = try await library()
        let id = input.path.id
        let limit = try Self.checked(input.query.limit, "limit", in: 1...Page<Components.Schemas.Face>.maximumLimit) ?? Self.defaultFaceListLimit
        let faces = try await blocking {
            _ = try library.person(withLocalIdentifier: id)
            return try library.faces(ofPersonWithLocalIdentifier: id)
        }
        return .ok(.init(body: .json(.init(items: faces.prefix(limit).map(Self.face), total: faces.count))))
    }

    func listPersonAssets(_ input: Operations.ListPersonAssets.Input) async throws -> Operations.ListPersonAssets.Output {
        let (library, _) = try await library()
        let id = input.path.id
        // An unknown person, or one whose faces are all outside the grant, is not found rather than empty.
        _ = try await blocking { try library.person(withLocalIdentifier: id) }
        let query = input.query
        return .ok(
            .init(
                body: .json(
                    try await assetPage(query, hidden: query.hidden?.rawValue, defaultSort: nil) {
                        PHAsset.fetchAssets(showingPersonWithLocalIdentifier: id, options: $0)
                    })))
    }

    func mergePeople(_ input: Operations.MergePeople.Input) async throws -> Operations.MergePeople.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("the body must be JSON") }
        _ = try Self.checked(body.people.count, "the number of people", in: 1...Self.maximumPeopleMerged)
        let (library, _) = try await library()
        let id = input.path.id
        let person = try await blocking {
            try Self.clientMistakes {
                try library.mergePeople(withLocalIdentifiers: body.people, into: id)
                return try library.person(withLocalIdentifier: id)
            }
        }
        return .ok(.init(body: .json(Self.person(person))))
    }

    func moveFaces(_ input: Operations.MoveFaces.Input) async throws -> Operations.MoveFaces.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("the body must be JSON") }
        _ = try Self.checked(body.faces.count, "the number of faces", in: 1...Self.maximumFacesMoved)
        let (library, _) = try await library()
        let person = try await blocking {
            try Self.clientMistakes { try library.moveFaces(withLocalIdentifiers: body.faces, toPersonWithLocalIdentifier: body.person) }
        }
        return .ok(.init(body: .json(.init(person: person))))
    }

    func listAssetFaces(_ input: Operations.ListAssetFaces.Input) async throws -> Operations.ListAssetFaces.Output {
        guard let identifier = ObjectID.localIdentifier(input.path.id, of: .asset) else { throw Problem.notFound("no asset \(input.path.id)") }
        let (library, _) = try await library()
        let faces = try await blocking {
            try library.withCurrentLibrary {
                guard let asset = PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject else {
                    throw Problem.notFound("no asset \(input.path.id)")
                }
                return try library.faces(in: asset)
            }
        }
        return .ok(.init(body: .json(.init(items: faces.map(Self.face), total: faces.count))))
    }

    // MARK: - Representations

    private static func person(_ person: RecognizedPerson) -> Components.Schemas.Person {
        .init(
            id: person.localIdentifier, name: person.name, hidden: person.isHidden, faces: person.faceCount, assets: person.assetCount,
            keyFace: face(person.keyFace))
    }

    private static func face(_ face: RecognizedFace) -> Components.Schemas.Face {
        let box = face.normalizedBoundingBox
        return .init(
            id: face.localIdentifier, asset: ObjectID.urlForm(face.assetLocalIdentifier), person: face.personLocalIdentifier,
            box: .init(x: box.minX, y: box.minY, width: box.width, height: box.height), confidence: face.confidence,
            placedByHand: face.isPlacedByHand)
    }
}
