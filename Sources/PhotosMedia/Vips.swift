import Foundation
import CPhotosMedia

/// Access to libvips, initialised once per process.
enum Vips {
    /// Whether libvips initialised; reading it initialises libvips the first time.
    static let isReady: Bool = pm_init() == 0

    /// The pending libvips error text, cleared as it is read.
    static func takeError() -> String {
        guard let text = pm_copy_error() else { return "unknown libvips error" }
        defer { pm_free(text) }
        let message = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? "unknown libvips error" : message
    }
}
