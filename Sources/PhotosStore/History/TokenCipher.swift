import Foundation

/// Hides the library's numbering of change blocks in the change tokens of
/// clients without read-write access, and makes those tokens unforgeable.
///
/// The number a token carries is the block's number XOR a keyed
/// pseudorandom function (SipHash-2-4) of the block's random stamp, which
/// the token carries too; and the token carries a tag, a second keyed
/// function (a MAC, with a key of its own derived from the library's) of
/// the masked number and the stamp. Without the library's key, which only
/// the engine reads, a token's number says nothing about how many change
/// blocks the library has seen, and a token altered or made up fails its
/// tag before anything of the library is looked at, so no answer to a
/// forged token can teach a client a block number. With the key, the
/// engine checks the tag and recovers the number; the stamp still proves
/// the token names a real state.
///
/// Cost: a few dozen arithmetic operations.
package struct TokenCipher: Sendable {
    private let key0: UInt64
    private let key1: UInt64

    /// The metadata key under which a library keeps its token key (32 hex digits).
    package static let metadataKey = "token_key"

    init(key0: UInt64, key1: UInt64) {
        self.key0 = key0
        self.key1 = key1
    }

    /// A cipher from the 32 hex digits a library keeps; nil for anything else.
    package init?(hex: String) {
        guard hex.utf8.count == 32, let high = UInt64(hex.prefix(16), radix: 16), let low = UInt64(hex.suffix(16), radix: 16) else {
            return nil
        }
        self.init(key0: high, key1: low)
    }

    /// A new random key, as 32 hex digits.
    package static func newKeyText() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next(), generator.next()].map { (value: UInt64) in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// The point as a change token of a client without read-write access
    /// names it: its block number masked, and tagged.
    func masking(_ point: HistoryPoint) -> HistoryPoint {
        let masked = point.changeBlock ^ mask(stamp: point.stamp)
        return HistoryPoint(changeBlock: masked, stamp: point.stamp, isOpaque: true, tag: tag(masked: masked, stamp: point.stamp))
    }

    /// The plain point an opaque one names; nil when its tag is not the
    /// library's (altered, made up, or from another library's tokens).
    /// The tags are compared without an early exit.
    func unmasking(_ point: HistoryPoint) -> HistoryPoint? {
        guard point.isOpaque, (tag(masked: point.changeBlock, stamp: point.stamp) ^ point.tag) == 0 else { return nil }
        return HistoryPoint(changeBlock: point.changeBlock ^ mask(stamp: point.stamp), stamp: point.stamp)
    }

    private func mask(stamp: Int64) -> Int64 {
        Int64(bitPattern: Self.sipHash24(key0: key0, key1: key1, message: [UInt64(bitPattern: stamp)]) & 0x7FFF_FFFF_FFFF_FFFF)
    }

    /// The MAC's key is the library's with each half changed by a constant,
    /// so that it is a function of its own, never the mask's.
    private func tag(masked: Int64, stamp: Int64) -> Int64 {
        Int64(
            bitPattern: Self.sipHash24(
                key0: key0 ^ 0x7461_675f_6b65_7930, key1: key1 ^ 0x7461_675f_6b65_7931,
                message: [UInt64(bitPattern: masked), UInt64(bitPattern: stamp)]))
    }

    /// SipHash-2-4 of whole 64-bit words (each taken as its 8 little-endian bytes).
    static func sipHash24(key0: UInt64, key1: UInt64, message: [UInt64]) -> UInt64 {
        var v0 = key0 ^ 0x736f_6d65_7073_6575
        var v1 = key1 ^ 0x646f_7261_6e64_6f6d
        var v2 = key0 ^ 0x6c79_6765_6e65_7261
        var v3 = key1 ^ 0x7465_6462_7974_6573
        func round() {
            v0 &+= v1
            v1 = v1.rotatedLeft(13)
            v1 ^= v0
            v0 = v0.rotatedLeft(32)
            v2 &+= v3
            v3 = v3.rotatedLeft(16)
            v3 ^= v2
            v0 &+= v3
            v3 = v3.rotatedLeft(21)
            v3 ^= v0
            v2 &+= v1
            v1 = v1.rotatedLeft(17)
            v1 ^= v2
            v2 = v2.rotatedLeft(32)
        }
        // The words, then the final block: no bytes left over, the length in the top byte.
        for block in message + [UInt64(truncatingIfNeeded: message.count * 8) << 56] {
            v3 ^= block
            round()
            round()
            v0 ^= block
        }
        v2 ^= 0xFF
        for _ in 0..<4 { round() }
        return v0 ^ v1 ^ v2 ^ v3
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
