import Foundation

/// A small deterministic random generator (SplitMix64), so that a failing
/// property-based test names a seed that replays it.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    /// The seed this generator started from.
    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// A generator seeded from the environment variable `variable` when it
    /// holds a number, else at random; the seed is printed with the way to
    /// replay it.
    public static func fromEnvironment(_ variable: String = "PHOTOS_TEST_SEED", by test: String = #function) -> SeededRandom {
        let seed = ProcessInfo.processInfo.environment[variable].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
        print("\(test): \(variable)=\(seed) replays this run")
        return SeededRandom(seed: seed)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with the given probability.
    public mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    /// One of the values, which must not be empty.
    public mutating func pick<T>(_ values: [T]) -> T {
        values.randomElement(using: &self)!
    }
}
