import Foundation

/// A tile server the owner chose for the gallery's map, drawn under the
/// country outlines. None by default: the gallery then loads nothing from
/// another origin. With one, its origin (and only it) is added to the
/// page's `img-src`, and the browser fetches the tiles from it directly,
/// telling it which part of the world is being looked at.
public struct MapTiles: Sendable, Hashable {
    /// The tiles' URL with `{z}`, `{x}` and `{y}` in it
    /// (`https://tile.example.org/{z}/{x}/{y}.png`), in the web's usual
    /// square tiles of the Web Mercator projection.
    public let template: String
    /// The credit the tile server asks for, shown on the map.
    public let attribution: String?
    /// `scheme://host[:port]`: what the page's policy allows.
    public let origin: String

    /// The longest template and attribution taken, in UTF-8 bytes.
    public static let maximumLength = 2_000

    /// Why a template or attribution is refused.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Checks the template: an `http` or `https` URL with a host, the three
    /// placeholders, and nothing a page's policy or a URL could misread
    /// (spaces, quotes, semicolons, commas, user names).
    public init(template: String, attribution: String? = nil) throws(Invalid) {
        guard template.utf8.count <= Self.maximumLength, (attribution?.utf8.count ?? 0) <= Self.maximumLength else {
            throw Invalid(description: "a tile template and its attribution are at most \(Self.maximumLength) bytes each")
        }
        guard ["{z}", "{x}", "{y}"].allSatisfy(template.contains) else {
            throw Invalid(description: "a tile template has {z}, {x} and {y} in it, as https://tile.example.org/{z}/{x}/{y}.png")
        }
        guard template.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && !"\"'`;,<>\\".unicodeScalars.contains($0) })
        else { throw Invalid(description: "a tile template is a URL of printable ASCII without spaces, quotes, commas or semicolons") }
        let probe = template.replacingOccurrences(of: "{z}", with: "0").replacingOccurrences(of: "{x}", with: "0").replacingOccurrences(of: "{y}", with: "0")
        guard let url = URLComponents(string: probe), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.user == nil, url.password == nil
        else { throw Invalid(description: "a tile template is an http or https URL with a host and no user name") }
        if let attribution, attribution.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw Invalid(description: "a map attribution has no control characters")
        }
        self.template = template
        self.attribution = attribution
        origin = "\(scheme)://\(host.lowercased())" + (url.port.map { ":\($0)" } ?? "")
    }
}
