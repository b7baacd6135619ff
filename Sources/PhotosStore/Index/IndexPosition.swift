import Foundation

/// Where an indexer stands. Tokens are a `PHPersistentChangeToken`'s coded
/// form, opaque to the engine.
package enum IndexPosition: Sendable, Hashable {
    /// It has indexed nothing yet, or was asked to index everything again:
    /// it starts a whole pass.
    case unstarted
    /// A whole pass over the library begun at the state `token` names; it
    /// has indexed every asset whose row id is up to `after` (none yet when
    /// nil). Changes after `token` are followed once it ends.
    case pass(token: Data, after: Int64?)
    /// Every change through the state `token` names is indexed, and of the
    /// change block after it, every asset whose identifier sorts up to
    /// `after` (none when nil): a block of more assets than a batch, such
    /// as a large import, is indexed over several batches.
    case following(token: Data, after: String?)
}
