import Foundation
import GRDB

/// Bearer tokens: kept by the owner, as hashes, beside the grants they carry.
/// They are administration, not change blocks: no history is written.
extension SQLPhotoStore {
    package func addAccessToken(_ token: AccessTokenRecord) throws(StoreError) {
        if let client = token.client { try ClientIdentifier.check(client) }
        try CollectionTitle.check(token.label, as: "a token's label")
        try write { db in
            try requireOwner("create access tokens")
            try db.execute(
                sql: """
                    INSERT INTO access_token (id, secret_hash, client, read_only, label, created_at, expires_at, password_hash)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    token.id, token.secretHash, token.client, token.isReadOnly, token.label,
                    token.createdAt.timeIntervalSince1970, token.expiresAt?.timeIntervalSince1970, token.passwordHash,
                ])
        }
    }

    package func accessTokenRecords() throws(StoreError) -> [AccessTokenRecord] {
        try read { db in
            try requireOwner("list access tokens")
            return try db.fetchAll(SQLRow.self, sql: "\(Self.tokenSelection) ORDER BY t.created_at, t.id").map(Self.accessToken)
        }
    }

    package func accessToken(id: String) throws(StoreError) -> AccessTokenRecord? {
        try read { db in
            try requireOwner("read access tokens")
            return try db.fetchOne(SQLRow.self, sql: "\(Self.tokenSelection) WHERE t.id = ?", arguments: [id])
                .map(Self.accessToken)
        }
    }

    package func removeAccessToken(id: String) throws(StoreError) -> Bool {
        try write { db in
            try requireOwner("revoke access tokens")
            guard try db.execute(sql: "DELETE FROM access_token WHERE id = ?", arguments: [id]) > 0 else { return false }
            try HistoryLog.markTokenRevocation(db)
            return true
        }
    }

    /// Tokens with their clients' grants (`t`, as ``accessToken(_:)`` reads them).
    private static var tokenSelection: String {
        "SELECT t.*, c.access AS client_grant FROM access_token t LEFT JOIN client_access c ON c.client = t.client"
    }

    private static func accessToken(_ row: SQLRow) throws(StoredValueError) -> AccessTokenRecord {
        var token = try AccessTokenRecord(
            id: row["id"], secretHash: row["secret_hash"], client: row["client"], isReadOnly: row["read_only"],
            label: row["label"], createdAt: Date(timeIntervalSince1970: row["created_at"]),
            expiresAt: (row["expires_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            passwordHash: row["password_hash"])
        token.clientGrant = (try row["client_grant"] as Int?).flatMap(AccessGrant.init(rawValue:))
        return token
    }
}
