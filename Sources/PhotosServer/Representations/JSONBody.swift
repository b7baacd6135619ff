import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// JSON in and out: dates as ISO 8601 with milliseconds, keys sorted so a
/// representation always reads the same (ETags depend on it), and request
/// bodies decoded strictly (unknown fields are refused by each type).
enum JSONBody {
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: try encode(value))))
    }

    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)))
        }
        return try encoder.encode(value)
    }

    /// The request's body as `T`, at most `limit` bytes; 413 beyond, 400 when it is not `T`.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: ServerContext, limit: Int = 1 << 20) async throws -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch {
            throw Problem(.contentTooLarge, "the request body is larger than \(limit) bytes")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = try? Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)) { return date }
            if let date = try? Date(text, strategy: .iso8601) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not an ISO 8601 date")
        }
        do {
            return try decoder.decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw Problem.from(error)
        } catch {
            throw Problem.badRequest("the request body is not JSON: \(error.localizedDescription)")
        }
    }
}

/// Decoding that refuses keys the type does not know, so a misspelt field
/// is an error rather than silently ignored.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    func refuseUnknownKeys(allowed: Set<String>) throws {
        let container = try container(keyedBy: AnyKey.self)
        if let unknown = container.allKeys.first(where: { !allowed.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [unknown],
                                                    debugDescription: "unknown field \"\(unknown.stringValue)\""))
        }
    }
}
