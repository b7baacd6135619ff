import Foundation
import Testing
@testable import PhotosStore

@Suite struct TokenCipherTests {
    /// The reference vector of SipHash-2-4 (Aumasson and Bernstein): key
    /// 00 01 … 0f, message 00 01 … 07.
    @Test func sipHashMatchesItsReferenceVector() {
        let hash = TokenCipher.sipHash24(key0: 0x0706_0504_0302_0100, key1: 0x0f0e_0d0c_0b0a_0908, message: 0x0706_0504_0302_0100)
        #expect(hash == 0x93f5_f579_9a93_2462)
    }

    @Test func maskingHidesTheNumberAndUndoesItself() throws {
        let cipher = try #require(TokenCipher(hex: TokenCipher.newKeyText()))
        var masked: Set<Int64> = []
        for changeBlock in Int64(1)...200 {
            let point = HistoryPoint(changeBlock: changeBlock, stamp: Int64.random(in: 1...Int64.max))
            let opaque = cipher.masking(point)
            #expect(opaque.isOpaque && opaque.stamp == point.stamp && opaque.changeBlock >= 0)
            #expect(cipher.masking(opaque) == point)
            masked.insert(opaque.changeBlock)
        }
        #expect(masked.count == 200 && masked.filter { $0 <= 200 }.count < 3, "masked numbers look nothing like the real ones")
        #expect(TokenCipher(hex: "not a key") == nil && TokenCipher(hex: String(repeating: "g", count: 32)) == nil)
    }
}
