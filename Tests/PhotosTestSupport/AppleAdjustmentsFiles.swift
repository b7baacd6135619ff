import Foundation

/// `.AAE` files in the shape Apple's Photos writes beside a photo it
/// exports: an XML property list of the edit's format, version, editor,
/// time, compressed data, and the render types that carry a Live Photo's
/// effect (0x1 Loop, 0x8 Bounce, 0x4 Long Exposure). No Debian package
/// ships one; exiftool, which reads them, checks the shape in the tests.
package enum AppleAdjustmentsFiles {
    /// The render types of each effect, as Photos sets them.
    package static let loop = 0x1
    package static let bounce = 0x8
    package static let longExposure = 0x4
    /// A Portrait photo's render type: not an effect.
    package static let portrait = 0x2

    /// The property list's bytes, with `renderTypes`.
    package static func propertyList(renderTypes: Int) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>adjustmentBaseVersion</key>
            \t<integer>0</integer>
            \t<key>adjustmentData</key>
            \t<data>
            \tbY7BCsIwDIZfJeTsoZ26Se8iggriYQcZErewFbZ2tB0o4rvbiejFXEL+5Puog+gDm3gh
            \t</data>
            \t<key>adjustmentEditorBundleID</key>
            \t<string>com.apple.mobileslideshow</string>
            \t<key>adjustmentFormatIdentifier</key>
            \t<string>com.apple.photo</string>
            \t<key>adjustmentFormatVersion</key>
            \t<string>1.5</string>
            \t<key>adjustmentRenderTypes</key>
            \t<integer>\(renderTypes)</integer>
            \t<key>adjustmentTimestamp</key>
            \t<date>2024-06-01T10:20:30Z</date>
            </dict>
            </plist>

            """.utf8)
    }

    /// Writes the file `name` in `folder`, with `renderTypes`.
    @discardableResult
    package static func write(_ name: String, in folder: URL, renderTypes: Int) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try propertyList(renderTypes: renderTypes).write(to: url)
        return url
    }
}
