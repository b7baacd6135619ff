import Foundation
import Testing

@testable import PhotosStore

@Suite struct TokenCipherTests {
    /// The reference vectors of SipHash-2-4 (Aumasson and Bernstein): key
    /// 00 01 … 0f, messages 00 01 … 07 and 00 01 … 0f.
    @Test func sipHashMatchesItsReferenceVectors() {
        let (key0, key1): (UInt64, UInt64) = (0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908)
        #expect(TokenCipher.sipHash24(key0: key0, key1: key1, message: [0x0706_0504_0302_0100]) == 0x93f5_f579_9a93_2462)
        #expect(
            TokenCipher.sipHash24(key0: key0, key1: key1, message: [0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908])
                == 0x3f2a_cc7f_57c2_9bdb)
    }

    @Test func maskingHidesTheNumberAndUndoesItself() throws {
        let cipher = try #require(TokenCipher(hex: TokenCipher.newKeyText()))
        var masked: Set<Int64> = []
        for changeBlock in Int64(1)...200 {
            let point = HistoryPoint(changeBlock: changeBlock, stamp: Int64.random(in: 1...Int64.max))
            let opaque = cipher.masking(point)
            #expect(opaque.isOpaque && opaque.stamp == point.stamp && opaque.changeBlock >= 0)
            #expect(cipher.unmasking(opaque) == point)
            masked.insert(opaque.changeBlock)
        }
        #expect(masked.count == 200 && masked.filter { $0 <= 200 }.count < 3, "masked numbers look nothing like the real ones")
        #expect(TokenCipher(hex: "not a key") == nil && TokenCipher(hex: String(repeating: "g", count: 32)) == nil)
    }

    /// A client that alters its own token (to learn, from the answers, which
    /// number is the real one) gets nothing back: every change fails the tag.
    @Test func anAlteredOrForeignOpaquePointFailsItsTag() throws {
        let cipher = try #require(TokenCipher(hex: TokenCipher.newKeyText()))
        let other = try #require(TokenCipher(hex: TokenCipher.newKeyText()))
        let opaque = cipher.masking(HistoryPoint(changeBlock: 42, stamp: 0x1234_5678_9abc))
        for guess in Int64(0)...500 where guess != 0 {
            var altered = opaque
            altered.changeBlock ^= guess
            #expect(cipher.unmasking(altered) == nil)
        }
        for change in [{ (p: inout HistoryPoint) in p.stamp += 1 }, { $0.tag ^= 1 }, { $0.isOpaque = false }] {
            var altered = opaque
            change(&altered)
            #expect(cipher.unmasking(altered) == nil)
        }
        #expect(other.unmasking(opaque) == nil, "another library's key")
    }
}
