/// What a ``CommitWatcher`` follows in a library: the last change block
/// committed, and the mark the last revocation of a bearer token left.
///
/// Revoking a token writes no history (tokens are administration, not
/// change blocks), yet every server of the library must stop honouring it
/// at once, not when a cache lapses. So a revocation leaves a fresh random
/// mark in `library_metadata`, in the same transaction as the deletion,
/// and wakes the same watchers a commit wakes: a watcher that reads a mark
/// other than the last it saw reports it, and a server forgets the tokens
/// it had proven.
package struct WatchedState: Sendable, Equatable {
    /// The number of the last change block committed, by any process.
    package var changeBlock: Int64
    /// The mark of the last token revocation; nil before the first.
    package var tokenRevocation: String?

    package init(changeBlock: Int64, tokenRevocation: String?) {
        self.changeBlock = changeBlock
        self.tokenRevocation = tokenRevocation
    }

    /// The `library_metadata` key the revocation mark is kept under.
    package static let tokenRevocationKey = "token_revocation"

    /// Whether this state is news to a watcher that last saw `earlier`: a
    /// later change block, or another revocation.
    package func isNews(after earlier: WatchedState) -> Bool {
        changeBlock > earlier.changeBlock || tokenRevocation != earlier.tokenRevocation
    }
}
