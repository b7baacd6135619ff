import Foundation

/// The access a client asks for. Raw values are stored
/// (`client_access.requested_level`) and are PhotoKit's `PHAccessLevel` raw values.
package enum AccessLevel: Int, Sendable, CaseIterable {
    /// Adding assets only.
    case addOnly = 1
    /// Reading and changing the library.
    case readWrite = 2
}
