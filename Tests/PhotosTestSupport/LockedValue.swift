import Foundation

/// A value handed between a test and another thread (a watcher's, a
/// completion handler's), behind a lock.
package final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func get() -> Value { lock.withLock { value } }
    package func set(_ newValue: Value) { lock.withLock { value = newValue } }
    package func update(_ change: (inout Value) -> Void) { lock.withLock { change(&value) } }
}
