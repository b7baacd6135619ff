/// A bounded map that forgets what was least recently used, in two
/// generations: entries are written to the current one; when it is full it
/// becomes the previous one (the one before is dropped whole), and an entry
/// found in the previous one moves back to the current. Every operation is
/// O(1), amortised, so a table kept under a lock never makes one request
/// scan it; at most `capacity` entries are kept, and none that was used
/// within the last `capacity / 2` writes is forgotten.
///
/// Not thread-safe: keep it inside a `Mutex`.
struct RecentTable<Key: Hashable, Value> {
    private var current: [Key: Value] = [:]
    private var previous: [Key: Value] = [:]
    private let generationSize: Int

    init(capacity: Int) {
        generationSize = max(1, capacity / 2)
    }

    /// The value of `key`, which counts as a use.
    mutating func value(_ key: Key) -> Value? {
        if let value = current[key] { return value }
        guard let value = previous.removeValue(forKey: key) else { return nil }
        insert(value, for: key)
        return value
    }

    /// The value of `key` without counting as a use.
    func peek(_ key: Key) -> Value? {
        current[key] ?? previous[key]
    }

    /// Sets the value of `key`; nil removes it.
    subscript(key: Key) -> Value? {
        get { peek(key) }
        set {
            previous.removeValue(forKey: key)
            if let newValue { insert(newValue, for: key) } else { current.removeValue(forKey: key) }
        }
    }

    private mutating func insert(_ value: Value, for key: Key) {
        if current[key] == nil, current.count >= generationSize {
            previous = current
            current = [:]
            current.reserveCapacity(generationSize)
        }
        current[key] = value
    }

    /// Removes every entry `shouldRemove` picks. Cost: a pass over the
    /// table, for what is rare (a token revoked).
    mutating func removeAll(where shouldRemove: (Key, Value) -> Bool) {
        current = current.filter { !shouldRemove($0.key, $0.value) }
        previous = previous.filter { !shouldRemove($0.key, $0.value) }
    }

    var count: Int { current.count + previous.count }
}
