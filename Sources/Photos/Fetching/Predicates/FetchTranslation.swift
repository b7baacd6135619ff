import Foundation
import PhotosStore

/// Turns a fetch's predicate and sort descriptors into the engine's filter
/// and order, for the keys PhotoKit supports on one class of object.
struct FetchTranslation<Attribute: StoreAttribute> {
    /// What a key holds, which decides the values it can be compared with.
    enum ValueKind {
        case date, integer, real, boolean, string
        /// A list of strings per object (an asset's keywords): compared
        /// element by element, with `ANY`, `NONE` or `CONTAINS`.
        case stringList
        /// `localIdentifier`: strings, compared as the stored UUID when possible.
        case identifier
        /// `SELF`: PhotoKit objects.
        case object
    }

    let className: String
    let keys: [String: (attribute: Attribute, kind: ValueKind)]
    /// The attribute holding the identifier's UUID, for fast identifier comparisons.
    let uuidAttribute: Attribute
    /// The object kinds an identifier may name in this fetch.
    let entities: Set<StoreEntity>

    // MARK: - Per class

    static var assets: FetchTranslation<AssetAttribute> {
        FetchTranslation<AssetAttribute>(
            className: "PHAsset",
            keys: [
                "SELF": (.localIdentifier, .object), "localIdentifier": (.localIdentifier, .identifier),
                "creationDate": (.creationDate, .date), "modificationDate": (.modificationDate, .date),
                "addedDate": (.addedDate, .date),
                "mediaType": (.mediaType, .integer), "mediaSubtypes": (.mediaSubtypes, .integer),
                // Clients write the singular too (photo_manager, TLPhotoPicker); Apple's store takes it.
                "mediaSubtype": (.mediaSubtypes, .integer), "playbackStyle": (.playbackStyle, .integer),
                "duration": (.duration, .real), "pixelWidth": (.pixelWidth, .integer), "pixelHeight": (.pixelHeight, .integer),
                "favorite": (.isFavorite, .boolean), "isFavorite": (.isFavorite, .boolean),
                "hidden": (.isHidden, .boolean), "isHidden": (.isHidden, .boolean),
                "burstIdentifier": (.burstIdentifier, .string),
                // Added with iOS 18's descriptive metadata; `caption` and `keywords`
                // are OpenPhotoKit's spellings of PHAssetExtendedMetadata's properties.
                "rating": (.rating, .integer), "caption": (.caption, .string), "keywords": (.keywords, .stringList),
            ],
            uuidAttribute: .uuid, entities: [.asset])
    }

    static func collections(for objectClass: PHObject.Type) -> FetchTranslation<CollectionAttribute> {
        var keys: [String: (attribute: CollectionAttribute, kind: FetchTranslation<CollectionAttribute>.ValueKind)] = [
            "SELF": (.localIdentifier, .object), "localIdentifier": (.localIdentifier, .identifier),
            "localizedTitle": (.title, .string), "title": (.title, .string),
            "startDate": (.startDate, .date), "endDate": (.endDate, .date),
        ]
        let name: String
        let entities: Set<StoreEntity>
        if objectClass is PHAssetCollection.Type {
            keys["estimatedAssetCount"] = (.estimatedAssetCount, .integer)
            name = "PHAssetCollection"
            entities = [.assetCollection]
        } else if objectClass is PHCollectionList.Type {
            name = "PHCollectionList"
            entities = [.collectionList]
        } else {
            name = "PHCollection"
            entities = [.assetCollection, .collectionList]
        }
        return FetchTranslation<CollectionAttribute>(className: name, keys: keys, uuidAttribute: .uuid, entities: entities)
    }

    // MARK: - Sort

    func sort(_ descriptors: [NSSortDescriptor]?) throws(PHPredicateError) -> [StoreSort<Attribute>] {
        var sorts: [StoreSort<Attribute>] = []
        for descriptor in descriptors ?? [] {
            guard let key = descriptor.key else {
                throw PHPredicateError(reason: "\(className) fetches need sort descriptors made with NSSortDescriptor(key:ascending:)")
            }
            guard let entry = keys[key], entry.kind != .object, entry.kind != .stringList else {
                throw PHPredicateError(reason: "Unsupported sort descriptor key '\(key)' in a \(className) fetch; supported keys: \(supportedKeys)")
            }
            sorts.append(StoreSort(entry.attribute, ascending: descriptor.ascending))
        }
        return sorts
    }

    private var supportedKeys: String {
        keys.keys.sorted().joined(separator: ", ")
    }

    // MARK: - Filter

    func filter(_ predicate: NSPredicate?) throws(PHPredicateError) -> StoreFilter<Attribute> {
        guard let predicate else { return .all }
        guard let parsed = predicate.parsedForm else {
            throw PHPredicateError(reason: "\(className) fetches need predicates made with NSPredicate(format:), not blocks")
        }
        var translator = Translator(rules: self, format: parsed.format)
        return try translator.filter(parsed.root)
    }

    private struct Translator {
        let rules: FetchTranslation
        let format: String?

        func error(_ reason: String, at position: Int) -> PHPredicateError {
            format == nil
                ? PHPredicateError(reason: reason)
                : PHPredicateError(reason: reason, format: format, position: position)
        }

        mutating func filter(_ node: PredicateNode) throws(PHPredicateError) -> StoreFilter<Attribute> {
            switch node {
            case .constant(let value):
                return .constant(value)
            case .and(let nodes):
                var filters: [StoreFilter<Attribute>] = []
                for node in nodes { filters.append(try filter(node)) }
                return .and(filters)
            case .or(let nodes):
                var filters: [StoreFilter<Attribute>] = []
                for node in nodes { filters.append(try filter(node)) }
                return .or(filters)
            case .not(let inner):
                return .not(try filter(inner))
            case .comparison(let comparison):
                return try self.comparison(comparison)
            }
        }

        private func comparison(_ c: PredicateComparison) throws(PHPredicateError) -> StoreFilter<Attribute> {
            if let list = listKey(c.lhs) ?? (c.op == .in ? listKey(c.rhs) : nil) {
                return try listComparison(c, list: list)
            }
            if let modifier = c.modifier {
                throw error("\(modifier.rawValue) applies to to-many keys such as keywords, and this key is not one", at: c.lhs.position)
            }
            var lhs = c.lhs
            var rhs = c.rhs
            var op = c.op
            // A value on the left and a key on the right: mirror the comparison.
            if case .value = lhs, !Self.isValue(rhs), let mirrored = Self.mirrored(op) {
                swap(&lhs, &rhs)
                op = mirrored
            }
            let options = TextOptions(rawValue: c.options.rawValue)
            let kind = try self.kind(of: lhs)
            switch op {
            case .matches:
                throw error("MATCHES (regular expressions) is not supported in fetches; use LIKE, CONTAINS, BEGINSWITH or ENDSWITH", at: c.position)
            case .between:
                let bounds = try values(of: rhs, for: kind, op: op)
                guard bounds.count == 2 else {
                    throw error("BETWEEN needs exactly two bounds, as in {lower, upper}", at: rhs.position)
                }
                let operand = try self.operand(lhs)
                return .and([
                    .compare(operand, .greaterOrEqual, .value(bounds[0]), options),
                    .compare(operand, .lessOrEqual, .value(bounds[1]), options),
                ])
            case .in:
                let operand = try self.operand(lhs)
                let list = try values(of: rhs, for: kind, op: op)
                if kind == .identifier || kind == .object {
                    return identifierMembership(list)
                }
                if options.isEmpty { return .oneOf(operand, list) }
                return .or(list.map { .compare(operand, .equal, .value($0), options) })
            case .contains, .beginsWith, .endsWith, .like:
                guard kind == .string || kind == .identifier else {
                    throw error("\(op.rawValue) compares strings, and this key is not a string", at: lhs.position)
                }
                let pattern = try value(of: rhs, for: .string, op: op)
                return .compare(try operand(lhs), Self.textComparison(op), .value(pattern), options)
            case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
                let comparison = Self.storeComparison(op)
                if Self.isValue(rhs) {
                    if kind == .identifier || kind == .object, op == .equal || op == .notEqual, options.isEmpty {
                        let equality = identifierMembership([try value(of: rhs, for: kind, op: op)])
                        return op == .equal ? equality : .not(equality)
                    }
                    return .compare(try operand(lhs), comparison, .value(try value(of: rhs, for: kind, op: op)), options)
                }
                let rightKind = try self.kind(of: rhs)
                guard Self.compatible(kind, rightKind) else {
                    throw error("the keys on either side of \(op.rawValue) hold different kinds of values", at: c.position)
                }
                return .compare(try operand(lhs), comparison, try operand(rhs), options)
            }
        }

        /// The attribute a key names when it holds a list (`keywords`).
        private func listKey(_ operand: PredicateOperand) -> Attribute? {
            guard case .key(let name, _) = operand, let entry = rules.keys[name], entry.kind == .stringList else { return nil }
            return entry.attribute
        }

        /// A comparison with a list key, as NSPredicate reads one:
        /// `ANY keywords == 'x'` (or `SOME`), `NONE keywords BEGINSWITH 'x'`,
        /// `keywords CONTAINS 'x'` and `'x' IN keywords` (the list holds
        /// the value). `ALL` is refused: over an empty list it is true, which
        /// no person filtering by keyword means.
        private func listComparison(_ c: PredicateComparison, list: Attribute) throws(PHPredicateError) -> StoreFilter<Attribute> {
            let options = TextOptions(rawValue: c.options.rawValue)
            let comparison: StoreComparison
            let value: StoreValue
            switch (c.modifier, c.op) {
            case (nil, .contains):
                (comparison, value) = (.equal, try self.value(of: c.rhs, for: .string, op: c.op))
            case (nil, .in) where listKey(c.rhs) != nil:
                (comparison, value) = (.equal, try self.value(of: c.lhs, for: .string, op: c.op))
            case (nil, _):
                throw error(
                    "the key holds a list: compare its elements with ANY or NONE (ANY keywords == 'beach'), or test it with CONTAINS",
                    at: c.lhs.position)
            case (PredicateModifier.all?, _):
                throw error("ALL is not supported on a list key; use NONE with the opposite comparison", at: c.lhs.position)
            case (PredicateModifier.any?, .in), (PredicateModifier.some?, .in), (PredicateModifier.none?, .in):
                let values = try self.values(of: c.rhs, for: .string, op: c.op)
                let any = StoreFilter<Attribute>.or(values.map { .anyElement(list, .equal, $0, options) })
                return c.modifier == PredicateModifier.none ? .not(any) : any
            case (_, .matches):
                throw error("MATCHES (regular expressions) is not supported in fetches; use LIKE, CONTAINS, BEGINSWITH or ENDSWITH", at: c.position)
            case (_, .between):
                throw error("BETWEEN compares numbers and dates, and the elements of this key are strings", at: c.position)
            case (_, let op):
                let text: Set<PredicateOperator> = [.contains, .beginsWith, .endsWith, .like]
                comparison = text.contains(op) ? Self.textComparison(op) : Self.storeComparison(op)
                value = try self.value(of: c.rhs, for: .string, op: op)
            }
            let any = StoreFilter<Attribute>.anyElement(list, comparison, value, options)
            return c.modifier == PredicateModifier.none ? .not(any) : any
        }

        private static func textComparison(_ op: PredicateOperator) -> StoreComparison {
            switch op {
            case .contains: .contains
            case .beginsWith: .beginsWith
            case .endsWith: .endsWith
            default: .like
            }
        }

        /// Identifiers compare as the stored UUID (indexed); an identifier of
        /// another kind of object never matches.
        private func identifierMembership(_ values: [StoreValue]) -> StoreFilter<Attribute> {
            var uuids: [StoreValue] = []
            var includesNull = false
            for value in values {
                switch value {
                case .text(let text):
                    // As in Apple's store, a bare UUID names the object too.
                    if let identifier = LocalIdentifier(text) {
                        if rules.entities.contains(identifier.entity) { uuids.append(.text(identifier.uuid)) }
                    } else if let uuid = LocalIdentifier.canonicalUUID(text.utf8[...]) {
                        uuids.append(.text(uuid))
                    }
                case .null:
                    includesNull = true
                default:
                    break
                }
            }
            let membership: StoreFilter<Attribute> = uuids.isEmpty ? .constant(false) : .oneOf(.attribute(rules.uuidAttribute), uuids)
            // Identifiers are never nil, so comparing with nil is false rather than unknown.
            return includesNull && uuids.isEmpty ? .constant(false) : membership
        }

        private static func isValue(_ expression: PredicateOperand) -> Bool {
            switch expression {
            case .value, .aggregate: true
            default: false
            }
        }

        private static func mirrored(_ op: PredicateOperator) -> PredicateOperator? {
            switch op {
            case .equal: .equal
            case .notEqual: .notEqual
            case .less: .greater
            case .lessOrEqual: .greaterOrEqual
            case .greater: .less
            case .greaterOrEqual: .lessOrEqual
            default: nil
            }
        }

        private static func storeComparison(_ op: PredicateOperator) -> StoreComparison {
            switch op {
            case .notEqual: .notEqual
            case .less: .less
            case .lessOrEqual: .lessOrEqual
            case .greater: .greater
            case .greaterOrEqual: .greaterOrEqual
            default: .equal
            }
        }

        private static func compatible(_ lhs: ValueKind, _ rhs: ValueKind) -> Bool {
            let numeric: Set<ValueKind> = [.integer, .real, .boolean]
            let textual: Set<ValueKind> = [.string, .identifier, .object]
            return lhs == rhs || (numeric.contains(lhs) && numeric.contains(rhs)) || (textual.contains(lhs) && textual.contains(rhs))
        }

        private func kind(of expression: PredicateOperand) throws(PHPredicateError) -> ValueKind {
            switch expression {
            case .key(let name, let position):
                guard let entry = rules.keys[name] else {
                    throw error(
                        "Unsupported predicate key '\(name)' in a \(rules.className) fetch; supported keys: \(rules.supportedKeys)",
                        at: position)
                }
                return entry.kind
            case .evaluatedObject:
                return .object
            case .bitwiseAnd(let lhs, let rhs), .bitwiseOr(let lhs, let rhs):
                for side in [lhs, rhs] where !Self.isValue(side) {
                    let kind = try self.kind(of: side)
                    guard kind == .integer else {
                        throw error("& and | apply to integer keys such as mediaSubtypes", at: side.position)
                    }
                }
                return .integer
            case .value(_, let position), .aggregate(_, let position):
                throw error("a comparison needs a key on one side", at: position)
            }
        }

        private func operand(_ expression: PredicateOperand) throws(PHPredicateError) -> StoreOperand<Attribute> {
            switch expression {
            case .key(let name, let position):
                guard let entry = rules.keys[name] else {
                    throw error("Unsupported predicate key '\(name)' in a \(rules.className) fetch", at: position)
                }
                return .attribute(entry.attribute)
            case .evaluatedObject:
                return .attribute(rules.keys["SELF"]!.attribute)
            case .bitwiseAnd(let lhs, let rhs):
                return .bitwiseAnd(try bitOperand(lhs), try bitOperand(rhs))
            case .bitwiseOr(let lhs, _):
                throw error("| is not supported in fetches; combine comparisons with OR", at: lhs.position)
            case .value(_, let position), .aggregate(_, let position):
                throw error("a comparison needs a key on one side", at: position)
            }
        }

        private func bitOperand(_ expression: PredicateOperand) throws(PHPredicateError) -> StoreOperand<Attribute> {
            if Self.isValue(expression) {
                return .value(try value(of: expression, for: .integer, op: .equal))
            }
            return try operand(expression)
        }

        /// The values of a collection operand: `{a, b}` or a collection argument.
        private func values(of expression: PredicateOperand, for kind: ValueKind, op: PredicateOperator) throws(PHPredicateError) -> [StoreValue] {
            switch expression {
            case .aggregate(let elements, _):
                var values: [StoreValue] = []
                for element in elements { values.append(try value(of: element, for: kind, op: op)) }
                return values
            case .value(.list(let elements), let position):
                var values: [StoreValue] = []
                for element in elements {
                    values.append(try convert(element, for: kind, op: op, position: position))
                }
                return values
            default:
                throw error("\(op.rawValue) needs a collection such as {1, 2} or an array argument", at: expression.position)
            }
        }

        private func value(of expression: PredicateOperand, for kind: ValueKind, op: PredicateOperator) throws(PHPredicateError) -> StoreValue {
            guard case .value(let value, let position) = expression else {
                throw error("expected a value", at: expression.position)
            }
            return try convert(value, for: kind, op: op, position: position)
        }

        /// A predicate value in the stored representation of a key's kind.
        private func convert(_ value: PredicateValue, for kind: ValueKind, op: PredicateOperator, position: Int) throws(PHPredicateError) -> StoreValue {
            switch (kind, value) {
            case (_, .null):
                return .null
            case (.date, .date(let date)):
                return .real(date.timeIntervalSince1970)
            case (.date, .integer(let seconds)):
                return .real(Date(timeIntervalSinceReferenceDate: Double(seconds)).timeIntervalSince1970)
            case (.date, .real(let seconds)):
                return .real(Date(timeIntervalSinceReferenceDate: seconds).timeIntervalSince1970)
            case (.integer, .integer(let integer)), (.real, .integer(let integer)), (.boolean, .integer(let integer)):
                return .integer(integer)
            case (.integer, .real(let real)), (.real, .real(let real)), (.boolean, .real(let real)):
                return .real(real)
            case (.integer, .bool(let bool)), (.real, .bool(let bool)), (.boolean, .bool(let bool)):
                return .integer(bool ? 1 : 0)
            case (.string, .string(let text)), (.identifier, .string(let text)), (.object, .string(let text)), (.stringList, .string(let text)):
                return .text(text)
            case (.identifier, .object(let identifier)), (.object, .object(let identifier)):
                return .text(identifier)
            default:
                throw error("\(value.typeName) cannot be compared with \(Self.describe(kind)) using \(op.rawValue)", at: position)
            }
        }

        private static func describe(_ kind: ValueKind) -> String {
            switch kind {
            case .date: "a date key"
            case .integer, .real: "a number key"
            case .boolean: "a boolean key"
            case .string, .identifier: "a string key"
            case .stringList: "a list of strings"
            case .object: "SELF"
            }
        }
    }
}
