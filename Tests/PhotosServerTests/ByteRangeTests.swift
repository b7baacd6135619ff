import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// `Range` headers as RFC 9110 reads them, on the boundaries where a naive
/// reading overflows or refuses what it should clamp.
@Suite struct ByteRangeTests {
    @Test func boundariesClampInsteadOfOverflowing() {
        #expect(ByteRange.parse("bytes=0-9223372036854775807", size: 100) == .partial(0..<100))
        #expect(ByteRange.parse("bytes=0-99999999999999999999", size: 100) == .partial(0..<100))
        #expect(ByteRange.parse("bytes=9223372036854775807-", size: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=99999999999999999999-", size: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-99999999999999999999", size: 100) == .partial(0..<100))
        #expect(ByteRange.parse("bytes=-9223372036854775807", size: 100) == .partial(0..<100))
        #expect(ByteRange.parse("bytes=99-", size: 100) == .partial(99..<100))
        #expect(ByteRange.parse("bytes=100-", size: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-0", size: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=0-0", size: 0) == .unsatisfiable)
    }

    @Test func whatIsNotARangeSetIsIgnored() {
        for header in [
            "items=0-5", "bytes 0-5", "bytes=", "bytes=,", "bytes=5-2", "bytes=a-b", "bytes=-", "bytes=+1-2",
            "bytes=1--2", "bytes=0x10-20", "bytes=1-2-3", "bytes=\u{0}1-2", "=0-1", "bytes=1.5-2",
            "bytes=" + String(repeating: "0-1,", count: ByteRange.maximumRanges + 1),
        ] {
            #expect(ByteRange.parse(header, size: 100) == .whole, "\(header)")
        }
    }

    @Test func severalRangesAreCoveredByOnePart() {
        #expect(ByteRange.parse("bytes=0-9, 20-29", size: 100) == .partial(0..<30))
        #expect(ByteRange.parse("BYTES = 5-9,,-10", size: 100) == .partial(5..<100))
        #expect(ByteRange.parse("bytes=200-300, 10-19", size: 100) == .partial(10..<20), "an unsatisfiable range among others is dropped")
    }

    /// Random headers against a reading with unbounded integers: the same answer, and never a trap.
    @Test(arguments: [1, 2, 3])
    func randomHeadersAgreeWithAModel(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let numbers = [
            "0", "1", "7", "99", "100", "101", "9223372036854775806", "9223372036854775807",
            "9223372036854775808", "99999999999999999999", "", "x", "-1", "1e3",
        ]
        for _ in 0..<5_000 {
            let size = [0, 1, 100, Int.max].randomElement(using: &random)!
            var specs: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                specs.append("\(numbers.randomElement(using: &random)!)-\(numbers.randomElement(using: &random)!)")
            }
            let header = (Bool.random(using: &random) ? "bytes=" : "Bytes= ") + specs.joined(separator: ", ")
            #expect(ByteRange.parse(header, size: size) == Self.model(header, size: size), "\(header) of \(size) bytes")
        }
    }

    /// RFC 9110 with decimal arithmetic: Decimal holds every number here exactly.
    private static func model(_ header: String, size: Int) -> ByteRange {
        let parts = header.split(separator: "=", maxSplits: 1)
        guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "bytes" else { return .whole }
        let total = Decimal(size)
        var low: Decimal?
        var high: Decimal?
        var any = false
        for spec in parts[1].split(separator: ",", omittingEmptySubsequences: false) {
            let spec = spec.trimmingCharacters(in: .whitespaces)
            if spec.isEmpty { continue }
            let ends = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            func number(_ text: String) -> Decimal? {
                text.isEmpty || !text.allSatisfy(\.isASCII) || !text.allSatisfy(\.isNumber) ? nil : Decimal(string: text)
            }
            guard ends.count == 2 else { return .whole }
            any = true
            var range: (Decimal, Decimal)?
            if ends[0].isEmpty {
                guard let suffix = number(ends[1]) else { return .whole }
                if suffix > 0, total > 0 { range = (max(0, total - suffix), total) }
            } else {
                guard let first = number(ends[0]) else { return .whole }
                var last = Decimal.greatestFiniteMagnitude
                if !ends[1].isEmpty {
                    guard let given = number(ends[1]), given >= first else { return .whole }
                    last = given
                }
                if first < total { range = (first, min(last + 1, total)) }
            }
            if let (a, b) = range {
                low = min(low ?? a, a)
                high = max(high ?? b, b)
            }
        }
        guard any else { return .whole }
        guard let low, let high else { return .unsatisfiable }
        func integer(_ value: Decimal) -> Int { Int(NSDecimalNumber(decimal: value).stringValue)! }
        return .partial(integer(low)..<(high == total ? size : integer(high)))
    }
}
