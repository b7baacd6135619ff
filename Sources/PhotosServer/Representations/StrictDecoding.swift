import Foundation
import Synchronization

/// An object of a request body decoded strictly: `Value` decodes itself as
/// it would anyway (a synthesised `init(from:)` included), and a key it
/// never asked for is refused, so that a misspelt field is an error rather
/// than silently ignored. The keys a type takes are its stored properties,
/// written once; nothing lists them again. ``JSONBody/decode(_:from:context:limit:)``
/// decodes every body this way; a nested object is strict when its type is
/// decoded as `Strict<…>` too. Cost: a set of the keys asked for.
struct Strict<Value: Decodable>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        let asked = AskedKeys()
        value = try Value(from: KeyRecordingDecoder(base: decoder, asked: asked))
        guard asked.readAnObject else { return }
        let present = try decoder.container(keyedBy: AnyKey.self).allKeys
        if let unknown = present.first(where: { !asked.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [unknown],
                    debugDescription: "unknown field \"\(unknown.stringValue)\""))
        }
    }
}

extension Strict {
    /// The keys `Value` asks for while decoding `json`, an object: with all
    /// its optional fields absent, every key it takes. For the test that
    /// holds a body type to its OpenAPI schema.
    static func keysTaken(decoding json: String) throws -> Set<String> {
        let asked = AskedKeys()
        _ = try JSONDecoder().decode(Recorded.self, from: Data(json.utf8), configuration: asked)
        return asked.all
    }

    private struct Recorded: DecodableWithConfiguration {
        init(from decoder: any Decoder, configuration: AskedKeys) throws {
            _ = try Value(from: KeyRecordingDecoder(base: decoder, asked: configuration))
        }
    }
}

/// A field an update may leave alone, clear with `null`, or set: the three
/// cases JSON tells apart and an optional cannot. Decoded by the
/// synthesised `init(from:)` of the type that holds it.
enum FieldUpdate<Value: Decodable>: Decodable {
    case unchanged
    case cleared
    case set(Value)

    /// What a present key holds: `null` clears, anything else sets.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .cleared : .set(try container.decode(Strict<Value>.self).value)
    }
}

extension FieldUpdate: Sendable where Value: Sendable {}
extension FieldUpdate: Equatable where Value: Equatable {}
extension FieldUpdate: Hashable where Value: Hashable {}

/// Written back as it was read: left out when unchanged, `null` when
/// cleared. (The generated routes need their body types encodable too.)
extension FieldUpdate: Encodable where Value: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .unchanged, .cleared: try container.encodeNil()
        case .set(let value): try container.encode(value)
        }
    }
}

extension KeyedEncodingContainer {
    /// An unchanged field is left out; chosen over the generic `encode` by
    /// the synthesised code of the holding type.
    mutating func encode<Value: Encodable>(_ value: FieldUpdate<Value>, forKey key: Key) throws {
        switch value {
        case .unchanged: return
        case .cleared: try encodeNil(forKey: key)
        case .set(let value): try encode(value, forKey: key)
        }
    }
}

extension KeyedDecodingContainer {
    /// An absent key leaves the field ``FieldUpdate/unchanged``; chosen over
    /// the generic `decode` by the synthesised code of the holding type.
    func decode<Value>(_ type: FieldUpdate<Value>.Type, forKey key: Key) throws -> FieldUpdate<Value> {
        guard contains(key) else { return .unchanged }
        return try decodeNil(forKey: key) ? .cleared : .set(decode(Strict<Value>.self, forKey: key).value)
    }
}

/// The keys one object's decoding asked for.
private final class AskedKeys: Sendable {
    private let state = Mutex<(keys: Set<String>, readAnObject: Bool)>(([], false))

    func record(_ key: some CodingKey) { state.withLock { _ = $0.keys.insert(key.stringValue) } }
    func recordObject() { state.withLock { $0.readAnObject = true } }
    func contains(_ key: String) -> Bool { state.withLock { $0.keys.contains(key) } }
    var readAnObject: Bool { state.withLock { $0.readAnObject } }
    var all: Set<String> { state.withLock { $0.keys } }
}

/// A decoder that hands `Value` the real decoder's containers, noting each
/// key of the top object that is asked for.
private struct KeyRecordingDecoder: Decoder {
    let base: any Decoder
    let asked: AskedKeys

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        asked.recordObject()
        return KeyedDecodingContainer(KeyRecordingContainer(base: try base.container(keyedBy: type), asked: asked))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try base.unkeyedContainer() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { try base.singleValueContainer() }
}

/// The real keyed container, each key asked of it noted.
private struct KeyRecordingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>
    let asked: AskedKeys

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] { base.allKeys }

    func contains(_ key: Key) -> Bool {
        asked.record(key)
        return base.contains(key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        asked.record(key)
        return try base.decodeNil(forKey: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        asked.record(key)
        return try base.decode(type, forKey: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        asked.record(key)
        return try base.decodeIfPresent(type, forKey: key)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }

    /// The one path every typed `decode` above takes.
    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        asked.record(key)
        return try base.decode(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        asked.record(key)
        return try base.nestedContainer(keyedBy: type, forKey: key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        asked.record(key)
        return try base.nestedUnkeyedContainer(forKey: key)
    }

    func superDecoder() throws -> any Decoder { try base.superDecoder() }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        asked.record(key)
        return try base.superDecoder(forKey: key)
    }
}
