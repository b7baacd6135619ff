import Foundation

/// Where a library's index stands (``LibraryIndexer/status()``).
public struct IndexStatus: Sendable, Equatable {
    /// One kind of understanding.
    public struct Kind: Sendable, Equatable {
        /// Where a kind is.
        public enum Phase: String, Sendable, Equatable {
            /// It has never run.
            case notStarted
            /// It is reading every asset once.
            case wholePass
            /// It follows the library's changes.
            case following
            /// It cannot run on this machine: its model is not installed.
            case unavailable
        }
        /// Its name: an ``IndexKind``'s raw value.
        public var name: String
        /// Where it is.
        public var phase: Phase
        /// Change blocks committed that it has not indexed yet, counted up to
        /// ``IndexStatus/pendingChangesCounted``.
        public var pendingChanges: Int
        /// Assets it has indexed over its life.
        public var indexed: Int
        /// The process whose lease is running now, if any.
        public var holder: String?
        /// When it last wrote.
        public var updatedAt: Date?
        /// Why it cannot run, when its phase is ``Phase/unavailable``.
        public var unavailableReason: String?
    }

    /// The most change blocks a status counts for a kind: past it, a kind
    /// is that far behind or more, and counting on would make asking for
    /// the status as slow as the backlog is long.
    public static let pendingChangesCounted = 1_000

    /// Each kind of understanding, in the order the indexer runs them.
    public var kinds: [Kind]
    /// Assets outside Recently Deleted.
    public var assets: Int
    /// Those that searches can find by their words.
    public var searchable: Int
    /// Those with a place.
    public var located: Int
}
