import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Random libraries and random fetches, checked against a plain in-memory
/// evaluation of the same query with SQL's semantics: a comparison with nil
/// is unknown, NOT unknown is unknown, and only rows that are true are kept;
/// NULL sorts first ascending; ties break by insertion order.
@Suite struct FetchPropertyTests {
    typealias Random = SeededRandom

    /// One stored asset as the model sees it.
    struct Row {
        var index: Int
        var record: AssetRecord
        var identifier: String { LocalIdentifier(uuid: record.uuid, entity: .asset).description }
    }

    /// A three-valued truth: true, false or unknown (nil).
    typealias Truth = Bool?

    /// A predicate the model can evaluate, with the format that expresses it.
    struct Condition {
        var format: String
        var arguments: [Any]
        var evaluate: (Row) -> Truth
    }

    static let base = Date(timeIntervalSince1970: 1_700_000_000)
    static let dates: [Date?] = [nil, base, base.addingTimeInterval(60), base.addingTimeInterval(3600), base.addingTimeInterval(86_400)]
    static let bursts: [String?] = [nil, nil, "Été", "ete", "Burst*1", "burst?2"]

    static func randomRecord(_ random: inout Random) -> AssetRecord {
        let burst = random.pick(bursts)
        return AssetRecord(
            uuid: UUID().uuidString, mediaType: random.pick([.image, .image, .video, .audio]),
            mediaSubtypes: AssetMediaSubtypes(rawValue: random.pick([0, 1, 4, 8, 1 | 8, 131_072, 262_144])),
            pixelWidth: random.pick([100, 200, 300]), pixelHeight: random.pick([100, 200]),
            creationDate: random.pick(dates), modificationDate: base, addedDate: base,
            duration: random.pick([0, 1.5, 10]), isFavorite: random.chance(0.3), isHidden: random.chance(0.15),
            sourceType: AssetSourceTypes(rawValue: random.pick([1, 1, 1, 2, 4])), burstIdentifier: burst,
            burstSelectionTypes: AssetBurstSelectionTypes(rawValue: burst == nil ? 0 : random.pick([0, 1, 2])),
            representsBurst: burst != nil && random.chance(0.4), playbackStyle: .image,
            trashedDate: random.chance(0.1) ? Date() : nil)
    }

    // MARK: - Conditions

    static func compare<T: Comparable>(_ lhs: T?, _ op: String, _ rhs: T?) -> Truth {
        guard let lhs, let rhs else { return nil }
        switch op {
        case "==": return lhs == rhs
        case "!=": return lhs != rhs
        case "<": return lhs < rhs
        case "<=": return lhs <= rhs
        case ">": return lhs > rhs
        default: return lhs >= rhs
        }
    }

    static func condition(_ random: inout Random, depth: Int) -> Condition {
        if depth > 0 && random.chance(0.4) {
            let lhs = condition(&random, depth: depth - 1)
            let rhs = condition(&random, depth: depth - 1)
            switch random.next() % 3 {
            case 0:
                return Condition(format: "(\(lhs.format)) AND (\(rhs.format))", arguments: lhs.arguments + rhs.arguments) { row in
                    let (a, b) = (lhs.evaluate(row), rhs.evaluate(row))
                    if a == false || b == false { return false }
                    return a == true && b == true ? true : nil
                }
            case 1:
                return Condition(format: "(\(lhs.format)) OR (\(rhs.format))", arguments: lhs.arguments + rhs.arguments) { row in
                    let (a, b) = (lhs.evaluate(row), rhs.evaluate(row))
                    if a == true || b == true { return true }
                    return a == false && b == false ? false : nil
                }
            default:
                return Condition(format: "NOT (\(lhs.format))", arguments: lhs.arguments) { row in lhs.evaluate(row).map { !$0 } }
            }
        }
        let op = random.pick(["==", "!=", "<", "<=", ">", ">="])
        switch random.next() % 9 {
        case 0:
            let value = random.pick([1, 2, 3])
            return Condition(format: "mediaType \(op) %d", arguments: [value]) { compare($0.record.mediaType.rawValue, op, value) }
        case 1:
            let key = random.pick(["pixelWidth", "pixelHeight"])
            let value = random.pick([100, 150, 200, 300])
            return Condition(format: "\(key) \(op) \(value)", arguments: []) {
                compare(key == "pixelWidth" ? $0.record.pixelWidth : $0.record.pixelHeight, op, value)
            }
        case 2:
            let value = random.pick([0, 1.5, 5.0])
            return Condition(format: "duration \(op) %f", arguments: [value]) { compare($0.record.duration, op, value) }
        case 3:
            let key = random.pick(["favorite", "isFavorite", "hidden", "isHidden"])
            let value = random.chance(0.5)
            let literal = random.pick(value ? ["YES", "TRUE", "1"] : ["NO", "FALSE", "0"])
            let equality = random.pick(["==", "!="])
            return Condition(format: "\(key) \(equality) \(literal)", arguments: []) { row in
                let stored = key.lowercased().contains("favorite") ? row.record.isFavorite : row.record.isHidden
                return equality == "==" ? stored == value : stored != value
            }
        case 4:
            let value = random.pick(dates)
            if value == nil {
                let equality = random.pick(["==", "!="])
                return Condition(format: "creationDate \(equality) nil", arguments: []) { row in
                    equality == "==" ? row.record.creationDate == nil : row.record.creationDate != nil
                }
            }
            return Condition(format: "creationDate \(op) %@", arguments: [value!]) { compare($0.record.creationDate, op, value) }
        case 5:
            let mask = random.pick([1, 4, 8, 131_072])
            let equality = random.pick(["==", "!="])
            return Condition(format: "(mediaSubtypes & %d) \(equality) 0", arguments: [mask]) { row in
                let set = row.record.mediaSubtypes.rawValue & mask
                return equality == "==" ? set == 0 : set != 0
            }
        case 6:
            let values = (0..<random.pick([1, 2, 3])).map { _ in random.pick([1, 2, 3]) }
            return Condition(format: "mediaType IN %@", arguments: [values]) { values.contains($0.record.mediaType.rawValue) }
        case 7:
            let lower = random.pick([100, 200])
            let upper = random.pick([200, 300])
            return Condition(format: "pixelWidth BETWEEN {\(lower), \(upper)}", arguments: []) { row in
                row.record.pixelWidth >= lower && row.record.pixelWidth <= upper
            }
        default:
            return textCondition(&random)
        }
    }

    static func textCondition(_ random: inout Random) -> Condition {
        let op = random.pick(["==", "!=", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE"])
        let options = random.pick(["", "[c]", "[d]", "[cd]"])
        let pattern = op == "LIKE" ? random.pick(["*t*", "?te", "É*", "burst*", "*\\*1"]) : random.pick(["Été", "ete", "te", "E", "Burst", "2"])
        let fold: (String) -> String = { text in
            var folding: String.CompareOptions = []
            if options.contains("c") { folding.insert(.caseInsensitive) }
            if options.contains("d") { folding.insert(.diacriticInsensitive) }
            return text.folding(options: folding, locale: nil)
        }
        return Condition(format: "burstIdentifier \(op)\(options) %@", arguments: [pattern]) { row in
            guard let value = row.record.burstIdentifier else { return nil }
            let (text, wanted) = (fold(value), fold(pattern))
            switch op {
            case "==": return text == wanted
            case "!=": return text != wanted
            case "CONTAINS": return text.contains(wanted)
            case "BEGINSWITH": return text.hasPrefix(wanted)
            case "ENDSWITH": return text.hasSuffix(wanted)
            default: return likeMatches(text, wanted)
            }
        }
    }

    /// LIKE through a regular expression: `*` any run, `?` one character, `\` escapes.
    static func likeMatches(_ text: String, _ pattern: String) -> Bool {
        var regex = "^"
        var escaped = false
        for character in pattern {
            if escaped {
                regex += NSRegularExpression.escapedPattern(for: String(character))
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "*" {
                regex += ".*"
            } else if character == "?" {
                regex += "."
            } else {
                regex += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        regex += "$"
        return text.range(of: regex, options: .regularExpression) != nil
    }

    // MARK: - Sorting

    struct SortKey {
        var key: String
        var ascending: Bool
        var value: (Row) -> Double?
    }

    static func sortKeys(_ random: inout Random) -> [SortKey] {
        let keys: [(String, (Row) -> Double?)] = [
            ("creationDate", { $0.record.creationDate?.timeIntervalSince1970 }),
            ("pixelWidth", { Double($0.record.pixelWidth) }),
            ("mediaType", { Double($0.record.mediaType.rawValue) }),
            ("duration", { $0.record.duration }),
            ("favorite", { $0.record.isFavorite ? 1 : 0 }),
        ]
        return (0..<random.pick([0, 0, 1, 2])).map { _ in
            let (key, value) = random.pick(keys)
            return SortKey(key: key, ascending: random.chance(0.5), value: value)
        }
    }

    /// SQL order: NULL first ascending, then the row id in the direction of the last key.
    static func ordered(_ rows: [Row], by keys: [SortKey], natural: (Row, Row) -> Bool) -> [Row] {
        guard let last = keys.last else { return rows.sorted(by: natural) }
        return rows.sorted { a, b in
            for key in keys {
                let (x, y) = (key.value(a), key.value(b))
                if x == y { continue }
                guard let x else { return key.ascending }
                guard let y else { return !key.ascending }
                return key.ascending ? x < y : x > y
            }
            return last.ascending ? a.index < b.index : a.index > b.index
        }
    }

    // MARK: - The property

    @Test(arguments: 0..<24)
    func randomFetchesAgreeWithTheModel(seed: UInt64) throws {
        var random = Random(seed: seed &* 7919 &+ 17)
        let test = try TestLibrary()
        let records = (0..<random.pick([0, 12, 30, 45])).map { _ in Self.randomRecord(&random) }
        try test.insert(records)
        let rows = records.enumerated().map { Row(index: $0.offset, record: $0.element) }
        let members = rows.filter { _ in random.chance(0.5) }.shuffled(using: &random)
        var albumID = ""
        try test.library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Random")
            album.addAssets(members.map { PHObjectPlaceholder(localIdentifier: $0.identifier, library: nil) } as NSArray)
            albumID = album.placeholderForCreatedAssetCollection.localIdentifier
        }
        let album = try #require(test.fetch { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil) }.firstObject)

        for query in 0..<30 {
            let condition: Condition? = random.chance(0.85) ? Self.condition(&random, depth: 2) : nil
            let keys = Self.sortKeys(&random)
            let options = PHFetchOptions()
            options.predicate = condition.map { NSPredicate(format: $0.format, argumentArray: $0.arguments) }
            options.sortDescriptors = keys.isEmpty && random.chance(0.5) ? nil : keys.map { NSSortDescriptor(key: $0.key, ascending: $0.ascending) }
            options.includeHiddenAssets = random.chance(0.3)
            options.includeAllBurstAssets = random.chance(0.3)
            options.includeAssetSourceTypes = random.pick([
                [], [], [.typeUserLibrary], [.typeCloudShared, .typeiTunesSynced],
                [.typeUserLibrary, .typeCloudShared, .typeiTunesSynced],
            ])
            options.fetchLimit = random.pick([0, 0, 0, 1, 5])
            let inAlbum = random.chance(0.3)

            let sourceTypes = options.includeAssetSourceTypes.isEmpty ? (inAlbum ? 7 : 1) : Int(options.includeAssetSourceTypes.rawValue)
            let candidates = (inAlbum ? members : rows).filter { row in
                row.record.trashedDate == nil
                    && (options.includeHiddenAssets || !row.record.isHidden)
                    && (options.includeAllBurstAssets || row.record.burstIdentifier == nil || row.record.representsBurst
                        || row.record.burstSelectionTypes.contains(.userPick))
                    && row.record.sourceType.rawValue & sourceTypes != 0
                    && (condition.map { $0.evaluate(row) == true } ?? true)
            }
            let albumOrder = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($0.element.index, $0.offset) })
            var expected = Self.ordered(candidates, by: keys) { a, b in
                if inAlbum { return albumOrder[a.index]! < albumOrder[b.index]! }
                let (x, y) = (a.record.creationDate, b.record.creationDate)
                if x != y { return x == nil || (y != nil && x! < y!) }
                return a.index < b.index
            }.map(\.identifier)
            if options.fetchLimit > 0 { expected = Array(expected.prefix(options.fetchLimit)) }

            let actual =
                inAlbum
                ? PHAsset.fetchAssets(in: album, options: options).identifiers
                : test.fetch { PHAsset.fetchAssets(with: options) }.identifiers
            let differing = rows.filter { expected.contains($0.identifier) != actual.contains($0.identifier) }.map { row in
                "\(row.identifier.prefix(8)) burst=\(row.record.burstIdentifier ?? "nil") date=\(row.record.creationDate.map { "\($0.timeIntervalSince1970)" } ?? "nil") "
                    + "type=\(row.record.mediaType) hidden=\(row.record.isHidden) source=\(row.record.sourceType) trashed=\(row.record.trashedDate != nil) "
                    + "model=\(String(describing: condition?.evaluate(row)))"
            }
            #expect(
                actual == expected,
                """
                rows in one list only: \(differing)
                seed \(seed) query \(query): \(condition?.format ?? "no predicate") \(condition?.arguments ?? []) \
                sort \(keys.map { "\($0.key) \($0.ascending)" }) album \(inAlbum) hidden \(options.includeHiddenAssets) \
                bursts \(options.includeAllBurstAssets) sources \(sourceTypes) limit \(options.fetchLimit)
                """)
        }
    }
}
