import Foundation
import Photos

/// Change tokens as text a user can keep in a file or paste back: the
/// token's Codable form, base64url-encoded.
enum ChangeTokenText {
    static func encode(_ token: PHPersistentChangeToken) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys  // the same token always reads the same
        guard let data = try? encoder.encode(token) else { return "" }
        return data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) throws -> PHPersistentChangeToken {
        var base64 = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
              let token = try? JSONDecoder().decode(PHPersistentChangeToken.self, from: data) else {
            throw CLIError.user("not a change token: \(text.prefix(40))\(text.count > 40 ? "..." : "") (tokens come from photos info or photos changes)")
        }
        return token
    }
}
