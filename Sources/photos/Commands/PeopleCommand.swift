import ArgumentParser
import Foundation
import Photos
import PhotosIndexing

/// `photos people`: the people the faces indexer found, and naming,
/// hiding, merging and splitting them.
struct PeopleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "List the people found in photos; name, hide, merge or split them.",
        discussion: """
            Faces are found and grouped into people by the library's indexer (dlib,
            on the CPU, offline): `photos index run --kind faces`, or `photos serve`
            in the background. A person is listed once they are in three photos, or
            named. Named people are found by search: `photos search person:anna`.

            Examples:
              photos people
              photos people show 6A1F...              # their faces and photos
              photos people name 6A1F... "Anna Smith"
              photos people merge 6A1F... 0B3C...     # 0B3C... becomes 6A1F...
              photos people split 77D0...             # that face to a person of its own
              photos people hide 0B3C...
            """,
        subcommands: [List.self, Show.self, Name.self, Hide.self, Unhide.self, Merge.self, Split.self, Move.self],
        defaultSubcommand: List.self)

    static func json(_ person: RecognizedPerson) -> [String: Any] {
        [
            "id": person.localIdentifier, "name": person.name ?? NSNull(), "hidden": person.isHidden, "faces": person.faceCount,
            "assets": person.assetCount, "keyFace": json(person.keyFace),
        ]
    }

    static func json(_ face: RecognizedFace) -> [String: Any] {
        let box = face.normalizedBoundingBox
        return [
            "id": face.localIdentifier, "asset": face.assetLocalIdentifier, "person": face.personLocalIdentifier,
            "box": ["x": Double(box.minX), "y": Double(box.minY), "width": Double(box.width), "height": Double(box.height)], "confidence": face.confidence,
            "placedByHand": face.isPlacedByHand,
        ]
    }

    /// Runs `body`, saying a missing person or face in the user's terms.
    @discardableResult
    static func editing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PHPhotosError where [.identifierNotFound, .limitExceeded, .accessUserDenied].contains(error.code) {
            throw CLIError.user(error.localizedDescription)
        }
    }

    /// Hides the person or shows them again, and says so.
    static func setHidden(_ hidden: Bool, _ person: String, _ options: LibraryOptions) throws {
        let library = try options.open()
        try editing { try library.setHidden(hidden, ofPersonWithLocalIdentifier: person) }
        if !options.quiet { Output.line("\(person) is \(hidden ? "hidden" : "shown")") }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the people found, named ones first.")

        @Flag(help: "Also list hidden people.") var hidden = false
        @Option(help: "List unnamed people once they are in this many photos.")
        var minimum = PHPhotoLibrary.defaultMinimumAssetsPerPerson
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let people = try library.people(includingHidden: hidden, minimumAssetCount: minimum)
            if options.json {
                Output.json(people.map(PeopleCommand.json))
            } else if !options.quiet {
                Output.line("\(people.count) people")
                Output.table(
                    ["ID", "NAME", "PHOTOS", "FACES", "HIDDEN"],
                    people.map {
                        [$0.localIdentifier, $0.name.map(Output.escaped) ?? "-", String($0.assetCount), String($0.faceCount), $0.isHidden ? "yes" : ""]
                    })
            }
            try options.requireAvailable(library)
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a person's faces and the photos they are in.")

        @Argument(help: "The person's identifier.") var person: String
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            let found = try PeopleCommand.editing { try library.person(withLocalIdentifier: person) }
            let faces = try library.faces(ofPersonWithLocalIdentifier: person)
            if options.json {
                var description = PeopleCommand.json(found)
                description["allFaces"] = faces.map(PeopleCommand.json)
                Output.json(description)
            } else if !options.quiet {
                Output.line("\(found.name.map(Output.escaped) ?? "unnamed") (\(found.localIdentifier)): \(found.faceCount) faces in \(found.assetCount) photos")
                Output.table(
                    ["FACE", "PHOTO", "BOX (x y width height)", "BY HAND"],
                    faces.map { face in
                        let box = face.normalizedBoundingBox
                        return [
                            face.localIdentifier, face.assetLocalIdentifier,
                            [box.minX, box.minY, box.width, box.height].map { String(format: "%.3f", $0) }.joined(separator: " "),
                            face.isPlacedByHand ? "yes" : "",
                        ]
                    })
            }
        }
    }

    struct Name: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "name", abstract: "Name a person (an empty name removes it).")

        @Argument(help: "The person's identifier.") var person: String
        @Argument(help: "Their name, up to 200 characters.") var name: String
        @OptionGroup var options: LibraryOptions

        func run() throws {
            let library = try options.open()
            try PeopleCommand.editing { try library.setName(name, ofPersonWithLocalIdentifier: person) }
            if !options.quiet {
                Output.line(name.trimmingCharacters(in: .whitespaces).isEmpty ? "\(person) has no name" : "\(person) is \(Output.escaped(name))")
            }
        }
    }

    struct Hide: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "hide", abstract: "Hide a person from People, and their name from search.")

        @Argument(help: "The person's identifier.") var person: String
        @OptionGroup var options: LibraryOptions

        func run() throws { try PeopleCommand.setHidden(true, person, options) }
    }

    struct Unhide: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unhide", abstract: "Show a hidden person again.")

        @Argument(help: "The person's identifier.") var person: String
        @OptionGroup var options: LibraryOptions

        func run() throws { try PeopleCommand.setHidden(false, person, options) }
    }

    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge", abstract: "Merge people into the first: their faces become theirs, and the others' identifiers are gone.")

        @Argument(help: "The person who stays.") var person: String
        @Argument(help: "The people merged into them.") var others: [String]
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard !others.isEmpty else { throw ValidationError("name at least one person to merge into \(person)") }
        }

        func run() throws {
            let library = try options.open()
            try PeopleCommand.editing { try library.mergePeople(withLocalIdentifiers: others, into: person) }
            if !options.quiet { Output.line("merged \(others.count) into \(person)") }
        }
    }

    struct Split: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "split", abstract: "Move faces (see `photos people show`) from whoever they are with to a new person.")

        @Argument(help: "The faces' identifiers.") var faces: [String]
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard !faces.isEmpty else { throw ValidationError("name at least one face") }
        }

        func run() throws {
            let library = try options.open()
            let person = try PeopleCommand.editing { try library.moveFaces(withLocalIdentifiers: faces, toPersonWithLocalIdentifier: nil) }
            if options.json {
                Output.json(["person": person])
            } else if !options.quiet {
                Output.line("\(faces.count) faces are now \(person)")
            }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move", abstract: "Move faces to another person.")

        @Argument(help: "The faces' identifiers.") var faces: [String]
        @Option(help: "The person they belong to.") var to: String
        @OptionGroup var options: LibraryOptions

        func validate() throws {
            guard !faces.isEmpty else { throw ValidationError("name at least one face") }
        }

        func run() throws {
            let library = try options.open()
            try PeopleCommand.editing { try library.moveFaces(withLocalIdentifiers: faces, toPersonWithLocalIdentifier: to) }
            if !options.quiet { Output.line("\(faces.count) faces are now \(to)") }
        }
    }
}
