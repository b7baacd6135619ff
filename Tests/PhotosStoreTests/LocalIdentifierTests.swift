import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// Local identifiers parsed by hand read UUIDs as Apple's `uuid_parse`
/// does: 36 characters, hyphens at 8, 13, 18 and 23, hexadecimal digits of
/// either case elsewhere, read as Foundation reads such a text. (Linux's
/// Foundation also takes spaces and signs in place of digits, through
/// `sscanf`; those are refused.)
@Suite struct LocalIdentifierTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func uuidsAreReadAsFoundationReadsThem(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let characters = Array("0123456789abcdefABCDEFgxyzG-_ /é{}")
        var texts: [String] = ["", "-", String(repeating: "0", count: 36), "00000000-0000-0000-0000-00000000000", "00000000-0000-0000-0000-0000000000000"]
        for _ in 0..<2000 {
            var text = Array(UUID().uuidString)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: text = text.map { Bool.random(using: &random) ? Character($0.lowercased()) : $0 }
            case 1: text[Int.random(in: 0..<36, using: &random)] = characters.randomElement(using: &random)!
            case 2: text.remove(at: Int.random(in: 0..<36, using: &random))
            default: break
            }
            texts.append(String(text))
        }
        func wellFormed(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return bytes.count == 36
                && bytes.indices.allSatisfy { offset in
                    [8, 13, 18, 23].contains(offset)
                        ? bytes[offset] == UInt8(ascii: "-")
                        : Character(UnicodeScalar(bytes[offset])).isHexDigit && bytes[offset] < 128
                }
        }
        for text in texts {
            let expected = wellFormed(text) ? UUID(uuidString: text)?.uuidString : nil
            #expect(wellFormed(text) == (expected != nil), "\(text)")
            #expect(LocalIdentifier.canonicalUUID(text.utf8[...]) == expected, "\(text)")
            #expect(LocalIdentifier(text + "/L0/001")?.uuid == expected)
            #expect(LocalIdentifier(text, fetching: .assetCollection)?.uuid == expected)
        }
        #expect(LocalIdentifier("3F2A6C1E-0B7D-4C59-9E61-2B8E5F0C7A10/L0/040")?.entity == .assetCollection)
        #expect(
            LocalIdentifier("3f2a6c1e-0b7d-4c59-9e61-2b8e5f0c7a10/L0/020")
                == LocalIdentifier(uuid: "3F2A6C1E-0B7D-4C59-9E61-2B8E5F0C7A10", entity: .collectionList))
        #expect(LocalIdentifier("3F2A6C1E-0B7D-4C59-9E61-2B8E5F0C7A10/L0/002") == nil)
    }
}
