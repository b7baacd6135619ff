import Foundation
import Photos
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosServer

/// A count several threads add to.
private final class Counter: Sendable {
    private let value = Atomic(0)
    func add() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// Blocking work is shared fairly: a principal runs at most two jobs at once,
/// whatever it sends, and another principal's job runs beside them.
@Suite struct BlockingWorkTests {
    @Test func onePrincipalCannotTakeEveryThread() async throws {
        let work = BlockingWork(threads: 4, statementDuration: .seconds(10))
        let gate = DispatchSemaphore(value: 0)
        let started = Counter()
        // At high priority: its tasks must not queue behind the whole suite's on the
        // default pool (two threads on two cores), which kept them from starting for minutes.
        let greedy = Task(priority: .high) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await work.run(for: "token greedy", client: nil) {
                            started.add()
                            gate.wait()
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Bounded generously: in the full suite the pool that runs these tasks is busy with others' tests.
        try #require(try await eventually(within: .seconds(120)) { started.count >= BlockingWork.maximumPerPrincipal })
        #expect(work.load(of: "token greedy").running == BlockingWork.maximumPerPrincipal)
        // Another principal's job runs while the greedy one's wait their turn.
        #expect(try await work.run(for: "token other", client: nil) { 42 } == 42)
        #expect(started.count == BlockingWork.maximumPerPrincipal)
        for _ in 0..<10 { gate.signal() }
        try await greedy.value
        #expect(started.count == 10, "every job ran in its turn")
        #expect(work.load(of: "token greedy") == (0, 0))
    }

    @Test func tooManyWaitingAreRefusedAndAJobWhoseClientLeftDoesNotRun() async throws {
        let work = BlockingWork(threads: 2, statementDuration: .seconds(10))
        let gate = DispatchSemaphore(value: 0)
        let started = Counter()
        let refused = Counter()
        let overflow = 5
        let count = BlockingWork.maximumPerPrincipal + BlockingWork.maximumWaiting + overflow
        let outcomes = Task(priority: .high) {
            await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        do {
                            try await work.run(for: "token flood", client: nil) { () -> Void in
                                started.add()
                                gate.wait()
                            }
                            return true
                        } catch {
                            refused.add()
                            return false
                        }
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
        }
        // Every job asked before any is let go: once the queue is full, the
        // overflow is refused, and a job asked only after the gate opened
        // would find room again (it once did, in a loaded full suite).
        try #require(try await eventually(within: .seconds(120)) { refused.count == overflow })
        #expect(work.load(of: "token flood").waiting == BlockingWork.maximumWaiting)
        for _ in 0..<count { gate.signal() }
        let ran = await outcomes.value
        #expect(ran.filter { $0 }.count == BlockingWork.maximumPerPrincipal + BlockingWork.maximumWaiting)

        let client = ClientPresence.shared.register(ObjectIdentifier(work))
        defer { ClientPresence.shared.unregister(ObjectIdentifier(work)) }
        client.leave()
        await #expect(throws: CancellationError.self) { try await work.run(for: "token gone", client: client) { Issue.record("ran") } }
    }
}
