import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Photos

/// Cursor pagination over a fetch result. A cursor names the position
/// after the last object sent and that object's identifier: when the
/// result has shifted since (inserts or deletions before it), the next
/// page starts after wherever that object now is, so nothing is skipped
/// or repeated because of changes elsewhere.
struct Page<Item: Encodable & Sendable>: Encodable, Sendable {
    let items: [Item]
    /// Pass as `cursor` for the next page; nil on the last page.
    let nextCursor: String?
    /// How many objects the whole fetch holds.
    let total: Int

    static var defaultLimit: Int { 100 }
    static var maximumLimit: Int { 1000 }

    /// The page of `result` the query asks for (`limit`, `cursor`).
    static func of<Object: PHObject>(_ result: PHFetchResult<Object>, query: Query, _ represent: (Object) -> Item) throws -> Page {
        try of(result, limit: query.integer("limit", default: defaultLimit, in: 1...maximumLimit), cursor: query.text("cursor"), represent)
    }

    /// The page of `result` of at most `limit` objects (the default when
    /// nil) after `cursor` (from the start when nil or empty).
    static func of<Object: PHObject>(
        _ result: PHFetchResult<Object>, limit: Int?, cursor: String?, _ represent: (Object) -> Item
    ) throws -> Page {
        let limit = limit ?? defaultLimit
        guard (1...maximumLimit).contains(limit) else {
            throw Problem.badRequest("limit must be a whole number from 1 to \(maximumLimit)")
        }
        var start = 0
        if let cursor, !cursor.isEmpty {
            guard let position = Cursor(text: cursor) else { throw Problem.badRequest("cursor is not one this server gave") }
            start = min(position.offset, result.count)
            if start == 0 || result.object(at: start - 1).localIdentifier != position.identifier,
                let object = lookUp(position.identifier, as: Object.self)
            {
                // Found by the ids the result holds, without reading its objects; a
                // cursor naming nothing in it (made up, or deleted since) keeps its offset.
                let previous = result.index(of: object)
                if previous != NSNotFound { start = previous + 1 }
            }
        }
        let end = min(result.count, start + limit)
        let objects = start < end ? result.objects(at: IndexSet(integersIn: start..<end)) : []
        let next = end < result.count ? objects.last.map { Cursor(offset: end, identifier: $0.localIdentifier).text } : nil
        return Page(items: objects.map(represent), nextCursor: next, total: result.count)
    }

    private enum CodingKeys: String, CodingKey { case items, nextCursor, total }
}

private struct Cursor {
    let offset: Int
    let identifier: String

    init(offset: Int, identifier: String) {
        self.offset = offset
        self.identifier = identifier
    }

    init?(text: String) {
        let parts = text.split(separator: "~", maxSplits: 1)
        guard parts.count == 2, let offset = Int(parts[0]), offset >= 0,
            let identifier = String(data: Data(base64URL: String(parts[1])) ?? Data(), encoding: .utf8),
            !identifier.isEmpty, identifier.count <= 64
        else { return nil }
        self.init(offset: offset, identifier: identifier)
    }

    var text: String { "\(offset)~" + Data(identifier.utf8).base64URL }
}

/// The object a local identifier names, if it is of the kind `Object`
/// and the caller may see it: one lookup, in the current library.
private func lookUp<Object: PHObject>(_ localIdentifier: String, as type: Object.Type) -> Object? {
    let object: PHObject?
    switch PHObjectType(localIdentifier: localIdentifier) {
    case .asset?:
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        object = PHAsset.fetchAssets(withLocalIdentifiers: [localIdentifier], options: options).firstObject
    case .assetCollection?:
        object = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [localIdentifier], options: nil).firstObject
    case .collectionList?:
        object = PHCollectionList.fetchCollectionLists(withLocalIdentifiers: [localIdentifier], options: nil).firstObject
    case nil:
        object = nil
    }
    return object as? Object
}

extension Data {
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }

    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// A request's query parameters and headers, read with clear errors.
///
/// Parameters are decoded as HTML forms and `URLSearchParams` encode them:
/// `+` is a space and `%2B` a plus. (Hummingbird's `queryParameters` leaves
/// `+` as it is, so a browser's `pixelWidth > 3` would arrive as
/// `pixelWidth+>+3`.)
struct Query {
    /// The text after the path's `?`, as sent; nil without one.
    let text: Substring?
    let headers: HTTPFields

    init(request: Request) {
        self.init(text: request.uri.query.map { $0[...] }, headers: request.headers)
    }

    init(text: Substring?, headers: HTTPFields) {
        self.text = text
        self.headers = headers
    }

    /// The parameter's value; an empty one counts as not given.
    func text(_ name: String) -> String? {
        parameter(name).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The first value given for `name`, decoded; nil when it is not given.
    /// Looked up when asked (a request reads one or two), not parsed whole,
    /// and split by bytes: the separators are ASCII, and walking the text
    /// by characters cost more than the rest of a cached thumbnail's answer.
    private func parameter(_ name: String) -> String? {
        guard let text else { return nil }
        let decode = { (text: Substring) -> String in
            guard text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        for pair in text.utf8.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            let key = Substring(pair[..<equals])
            let matches =
                key.utf8.contains { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }
                ? decode(key) == name : key.utf8.elementsEqual(name.utf8)
            guard matches else { continue }
            return equals == pair.endIndex ? "" : decode(Substring(pair[pair.index(after: equals)...]))
        }
        return nil
    }

    /// A header's value; an empty one counts as not given.
    func header(_ name: HTTPField.Name) -> String? {
        headers[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A whole-number parameter; given empty, it is refused like any other non-number.
    func integer(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = parameter(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw Problem.badRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
