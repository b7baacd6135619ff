import Foundation
import Photos

/// Change tokens as text a user can keep in a file or paste back
/// (`PHPersistentChangeToken.textRepresentation`), with the command's error.
enum ChangeTokenText {
    static func encode(_ token: PHPersistentChangeToken) -> String {
        token.textRepresentation
    }

    static func decode(_ text: String) throws -> PHPersistentChangeToken {
        guard let token = PHPersistentChangeToken(textRepresentation: text) else {
            throw CLIError.user("not a change token: \(text.prefix(40))\(text.count > 40 ? "..." : "") (tokens come from photos info or photos changes)")
        }
        return token
    }
}
