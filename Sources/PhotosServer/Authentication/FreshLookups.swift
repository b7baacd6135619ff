import Synchronization

/// Lookups by key, one at a time for all who ask: a burst of requests for
/// one key costs two lookups, not one each. The server looks bearer tokens
/// up through it, for bursts such as a page's event streams reconnecting
/// after a restart, or every stream of a token woken by one commit.
///
/// Every answer comes from a lookup that started after its caller asked, so
/// that it is as fresh as a lookup of its own (a token revoked before the
/// caller asked is seen revoked): whoever asks while a lookup runs waits for
/// the next one, which one of them runs, in its own task, for all of them.
final class FreshLookups<Value: Sendable>: Sendable {
    typealias Answer = Result<Value, any Error>

    /// What a waiting caller is woken with: the answer, or its turn to look
    /// up for the others.
    private enum Wake {
        case answer(Answer)
        case lookUp
    }

    /// The callers of one key: those the running lookup answers, and
    /// those who came after it started.
    private struct Callers {
        var answeredByRunning: [CheckedContinuation<Wake, Never>] = []
        var waitingForNext: [CheckedContinuation<Wake, Never>] = []
    }

    private let callers = Mutex<[String: Callers]>([:])

    /// The value of `key` now; `lookUp` does one lookup. Cost: one
    /// `lookUp`, or a wait for at most two of another caller's.
    func value(of key: String, lookUp: () async throws -> Value) async throws -> Value {
        let runsNow = callers.withLock { callers -> Bool in
            guard callers[key] == nil else { return false }
            callers[key] = Callers()
            return true
        }
        if !runsNow {
            let wake = await withCheckedContinuation { continuation in
                let enqueued = callers.withLock { callers -> Bool in
                    guard callers[key] != nil else {
                        callers[key] = Callers()
                        return false
                    }
                    callers[key]?.waitingForNext.append(continuation)
                    return true
                }
                if !enqueued { continuation.resume(returning: .lookUp) }
            }
            if case .answer(let answer) = wake { return try answer.get() }
        }
        let answer: Answer
        do {
            answer = .success(try await lookUp())
        } catch {
            answer = .failure(error)
        }
        finish(key, with: answer)
        return try answer.get()
    }

    /// Answers the callers the finished lookup was for, and hands the next
    /// lookup to the first who came since. A lookup that failed answers no
    /// one else, as it may have failed for its runner's own reasons (its
    /// client left, its share of the work was spent): they wait for the next.
    private func finish(_ key: String, with answer: Answer) {
        let sharesAnswer =
            switch answer {
            case .success: true
            case .failure: false
            }
        let (answered, nextRunner) = callers.withLock { callers -> ([CheckedContinuation<Wake, Never>], CheckedContinuation<Wake, Never>?) in
            guard var entry = callers[key] else { return ([], nil) }
            var answered = entry.answeredByRunning
            var waiting = entry.waitingForNext
            if !sharesAnswer {
                waiting = answered + waiting
                answered = []
            }
            guard !waiting.isEmpty else {
                callers[key] = nil
                return (answered, nil)
            }
            let runner = waiting.removeFirst()
            entry.answeredByRunning = waiting
            entry.waitingForNext = []
            callers[key] = entry
            return (answered, runner)
        }
        for caller in answered { caller.resume(returning: .answer(answer)) }
        nextRunner?.resume(returning: .lookUp)
    }
}

extension FreshLookups {
    /// How many callers of `key` wait now, for tests.
    func waitingCount(of key: String) -> Int {
        callers.withLock { ($0[key]?.answeredByRunning.count ?? 0) + ($0[key]?.waitingForNext.count ?? 0) }
    }
}
