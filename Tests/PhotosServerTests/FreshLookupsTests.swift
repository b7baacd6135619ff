import Synchronization
import Testing

@testable import PhotosServer

/// A lookup the test lets finish: each one numbered, each held until released.
private final class HeldLookups: Sendable {
    private let state = Mutex<(started: Int, gates: [CheckedContinuation<Void, Never>])>((0, []))
    private let failFirst: Bool

    init(failFirst: Bool = false) {
        self.failFirst = failFirst
    }

    var started: Int { state.withLock { $0.started } }

    /// Waits to be released, then answers how many lookups had started by
    /// then (the first fails when `failFirst`).
    func lookUp() async throws -> Int {
        await withCheckedContinuation { continuation in
            state.withLock {
                $0.gates.append(continuation)
                $0.started += 1
            }
        }
        let started = self.started
        if failFirst, started == 1 { throw CancellationError() }
        return started
    }

    /// Lets every lookup held now finish.
    func releaseAll() {
        for gate in state.withLock({ state -> [CheckedContinuation<Void, Never>] in
            defer { state.gates = [] }
            return state.gates
        }) { gate.resume() }
    }
}

/// Yields until `condition` holds: tasks in this process only, no clock.
private func settle(_ condition: () -> Bool) async {
    for _ in 0..<100_000 where !condition() { await Task.yield() }
}

@Suite struct FreshLookupsTests {
    @Test func aBurstForOneKeyCostsTwoLookupsAndLateCallersGetTheSecond() async throws {
        let lookups = FreshLookups<Int>()
        let held = HeldLookups()
        let first = Task { try await lookups.value(of: "token", lookUp: held.lookUp) }
        await settle { held.started == 1 }
        let burst = (0..<50).map { _ in Task { try await lookups.value(of: "token", lookUp: held.lookUp) } }
        await settle { lookups.waitingCount(of: "token") == 50 }
        #expect(lookups.waitingCount(of: "token") == 50)
        held.releaseAll()
        #expect(try await first.value == 1)
        // The burst asked while the first ran: one lookup started after them answers them all.
        await settle { held.started == 2 }
        held.releaseAll()
        for caller in burst { #expect(try await caller.value == 2) }
        #expect(held.started == 2)
        #expect(lookups.waitingCount(of: "token") == 0)
    }

    @Test func keysDoNotWaitForEachOther() async throws {
        let lookups = FreshLookups<Int>()
        let held = HeldLookups()
        let one = Task { try await lookups.value(of: "one", lookUp: held.lookUp) }
        let other = Task { try await lookups.value(of: "other", lookUp: held.lookUp) }
        // Both run at once: neither waits for the other's to finish.
        await settle { held.started == 2 }
        #expect(held.started == 2)
        #expect(lookups.waitingCount(of: "one") == 0 && lookups.waitingCount(of: "other") == 0)
        held.releaseAll()
        #expect(try await one.value == 2)
        #expect(try await other.value == 2)
    }

    @Test func aFailedLookupIsNotSharedAndTheNextAnswersTheRest() async throws {
        let lookups = FreshLookups<Int>()
        let held = HeldLookups(failFirst: true)
        let first = Task { try await lookups.value(of: "token", lookUp: held.lookUp) }
        await settle { held.started == 1 }
        let waiting = (0..<5).map { _ in Task { try await lookups.value(of: "token", lookUp: held.lookUp) } }
        await settle { lookups.waitingCount(of: "token") == 5 }
        held.releaseAll()
        await #expect(throws: CancellationError.self) { try await first.value }
        await settle { held.started == 2 }
        held.releaseAll()
        for caller in waiting { #expect(try await caller.value == 2) }
    }
}
