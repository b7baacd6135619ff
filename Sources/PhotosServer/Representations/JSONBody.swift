import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationEssentialsCompat

/// JSON in and out, as the API writes and reads it: dates as ISO 8601 with
/// milliseconds, keys sorted so a representation always reads the same
/// (ETags depend on it), and request bodies decoded strictly (a field the
/// type does not take is refused; see ``Strict``). Routes reach it through
/// Hummingbird's coding: ``ServerContext``'s ``JSONResponseEncoder`` and
/// ``StrictJSONRequestDecoder``.
package enum JSONBody {
    /// A date as the API writes it: ISO 8601 in UTC, to the millisecond (`2024-05-01T12:00:00.250Z`).
    package static func dateText(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// A date as the API reads it: ISO 8601, with or without fractional seconds; nil for other text.
    package static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)) { return date }
        return try? Date(text, strategy: .iso8601)
    }

    /// `value` as the API writes JSON: keys sorted, dates as ISO 8601 with
    /// milliseconds; indented for people when `pretty` (the `photos` command's output).
    package static func encode(_ value: some Encodable, pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(dateText(date))
        }
        return try encoder.encode(value)
    }

    /// The request's body as `T`, at most `limit` bytes: 415 unless it
    /// comes as `application/json` (a web page of another site can send a
    /// `text/plain` body without asking, never a JSON one), 413 beyond the
    /// limit, 400 when it is not `T`, names a key twice in an object, or
    /// nests deeper than any request of this API.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        try checkContentType(request.headers[.contentType])
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch {
            throw tooLarge(limit)
        }
        try checkKeys(buffer.readableBytesView)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = date(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not an ISO 8601 date")
            }
            return date
        }
        do {
            return try decoder.decode(Strict<T>.self, from: Data(buffer: buffer)).value
        } catch let error as DecodingError {
            throw Problem.from(error)
        } catch {
            throw Problem.badRequest("the request body is not JSON: \(error.localizedDescription)")
        }
    }
}

extension JSONBody {
    /// 415 unless `contentType` names JSON: a web page of another site can
    /// send a `text/plain` body without asking, never a JSON one.
    static func checkContentType(_ contentType: String?) throws {
        guard isJSON(contentType) else {
            throw Problem(.unsupportedMediaType, "the request body must come as Content-Type: application/json")
        }
    }

    /// 413 for a body beyond `limit` bytes.
    static func tooLarge(_ limit: Int) -> Problem {
        Problem(.contentTooLarge, "the request body is larger than \(limit) bytes")
    }

    /// 400 when a body names a key twice in one object or nests deeper than any request of this API.
    static func checkKeys(_ bytes: some Collection<UInt8>) throws {
        switch JSONKeyCheck.check(bytes) {
        case .duplicateKey(let key)?:
            throw Problem.badRequest("the request body names the key \"\(key.prefix(64))\" twice in one object")
        case .tooDeep?:
            throw Problem.badRequest("the request body nests deeper than \(JSONKeyCheck.maximumDepth) levels")
        case nil:
            break
        }
    }

    /// Whether a `Content-Type` names JSON: `application/json`, in any
    /// case, with or without parameters (`; charset=utf-8`).
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }
        return Substring(type).trimmingOptionalWhitespace().utf8.elementsEqual("application/json".utf8) { byte, expected in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == expected : byte == expected
        }
    }
}

/// A key named at run time, for objects read key by key.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Hummingbird's response encoder for the API: a value as ``JSONBody``
/// writes it, `Content-Type: application/json`. Cost: one `JSONEncoder` pass.
struct JSONResponseEncoder: ResponseEncoder {
    func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONBody.encode(value))))
    }
}

/// Hummingbird's request decoder for the API: a body read as ``JSONBody``
/// reads it, at most `limit` bytes (1 MiB for a change block; the small
/// bodies of sign-in and share links take less).
struct StrictJSONRequestDecoder: RequestDecoder {
    var limit = 1 << 20

    func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        try await JSONBody.decode(type, from: request, limit: limit)
    }
}

extension ServerContext {
    /// `value` through the context's response encoder, with `status` and
    /// `headers` added: what every JSON route answers with.
    func json(
        _ value: some Encodable, from request: Request, status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) throws -> Response {
        var response = try responseEncoder.encode(value, from: request, context: self)
        response.status = status
        for field in headers { response.headers[field.name] = field.value }
        return response
    }
}
