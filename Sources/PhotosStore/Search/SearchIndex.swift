import Foundation

/// The full-text index of `asset_search`, the one place that knows how
/// each backend keeps it and how a ``SearchMatch`` reads it.
///
/// - SQLite: an FTS5 table over `asset_search` (external content, so the
///   words are stored once), kept by triggers, ranked by BM25.
/// - PostgreSQL: a GIN index of the columns' `tsvector` (the `simple`
///   configuration: the words are folded already, and a search must not
///   stem a name), ranked by `ts_rank`.
///
/// The text both index has been folded and split by ``SearchWords``; a
/// query's words come from the same rule and are letters and digits only,
/// so a query's syntax is always the engine's, never the client's.
package enum SearchIndex {
    /// SQLite's FTS5 table.
    static let sqliteTable = "asset_search_fts"
    /// PostgreSQL's GIN index.
    static let postgresIndex = "asset_search_text"
    /// SQLite's view of the FTS5 index's vocabulary (an `fts5vocab` table).
    static let sqliteTerms = sqliteTable + "_terms"
    /// PostgreSQL's table of every word the index holds, kept by a trigger.
    package static let postgresTerms = "search_term"
    /// A searchable column of `asset_search`; each kind of understanding writes its own.
    package enum Column: String, Sendable, Hashable, CaseIterable {
        /// Caption, keywords, file name and camera.
        case words
        /// City, region and country.
        case place
        /// The names of the people in it.
        case people
        /// Text read in the image.
        case content
    }

    /// The indexed columns of `asset_search`, in order.
    static let columns = Column.allCases.map(\.rawValue)

    /// Whether `table` is one SQLite keeps for the index: the FTS5 table
    /// and its shadow tables.
    package static func isSQLiteTable(_ table: String) -> Bool {
        table == sqliteTable || table.hasPrefix(sqliteTable + "_")
    }

    /// The statements that create the index in `dialect`.
    static func creation(in dialect: SQLDialect) -> [String] {
        let list = columns.joined(separator: ", ")
        let new = columns.map { "new.\($0)" }.joined(separator: ", ")
        let old = columns.map { "old.\($0)" }.joined(separator: ", ")
        switch dialect {
        case .sqlite:
            return [
                """
                CREATE VIRTUAL TABLE \(sqliteTable) USING fts5(\(list), content='asset_search', content_rowid='asset_id', \
                tokenize='unicode61 remove_diacritics 2', prefix='2 3')
                """,
                """
                CREATE TRIGGER \(sqliteTable)_insert AFTER INSERT ON asset_search BEGIN
                    INSERT INTO \(sqliteTable) (rowid, \(list)) VALUES (new.asset_id, \(new));
                END
                """,
                """
                CREATE TRIGGER \(sqliteTable)_delete AFTER DELETE ON asset_search BEGIN
                    INSERT INTO \(sqliteTable) (\(sqliteTable), rowid, \(list)) VALUES ('delete', old.asset_id, \(old));
                END
                """,
                """
                CREATE TRIGGER \(sqliteTable)_update AFTER UPDATE ON asset_search BEGIN
                    INSERT INTO \(sqliteTable) (\(sqliteTable), rowid, \(list)) VALUES ('delete', old.asset_id, \(old));
                    INSERT INTO \(sqliteTable) (rowid, \(list)) VALUES (new.asset_id, \(new));
                END
                """,
            ]
        case .postgres:
            return ["CREATE INDEX \(postgresIndex) ON asset_search USING gin ((\(postgresDocument(""))))"]
        }
    }

    /// The statements that keep the index's vocabulary in `dialect`, for
    /// ``SearchTerms``: SQLite reads FTS5's own; PostgreSQL adds each row's
    /// words to `search_term` as it is written (words of rows since
    /// changed or deleted stay: a correction to one finds nothing more).
    static func termsCreation(in dialect: SQLDialect) -> [String] {
        switch dialect {
        case .sqlite:
            return ["CREATE VIRTUAL TABLE \(sqliteTerms) USING fts5vocab(\(sqliteTable), 'row')"]
        case .postgres:
            return [
                "CREATE TABLE \(postgresTerms) (term text PRIMARY KEY)",
                """
                CREATE FUNCTION \(postgresTerms)_add() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO \(postgresTerms) (term) SELECT unnest(tsvector_to_array(\(postgresDocument("NEW.")))) ON CONFLICT DO NOTHING;
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER \(postgresTerms)_add AFTER INSERT OR UPDATE ON asset_search FOR EACH ROW EXECUTE FUNCTION \(postgresTerms)_add()
                """,
                """
                INSERT INTO \(postgresTerms) (term) SELECT DISTINCT unnest(tsvector_to_array(\(postgresDocument("")))) FROM asset_search \
                ON CONFLICT DO NOTHING
                """,
            ]
        }
    }

    /// The words of the index that begin with `first` and are `lengths`
    /// long: the candidates ``SearchTerms`` corrects a word to.
    static func terms(beginningWith first: Unicode.Scalar, lengths: ClosedRange<Int>, dialect: SQLDialect) -> SQLFragment {
        let lower = String(first)
        let upper = Unicode.Scalar(first.value + 1).map(String.init) ?? String(first) + "\u{10FFFF}"
        let table = dialect == .sqlite ? sqliteTerms : postgresTerms
        return """
            SELECT term FROM \(sql: table) WHERE term >= \(lower) AND term < \(upper) AND substr(term, 1, 1) = \(lower) \
            AND length(term) BETWEEN \(lengths.lowerBound) AND \(lengths.upperBound)
            """
    }

    /// The `tsvector` of a row's columns, exactly as the index is built on
    /// it (PostgreSQL uses the index only for the same expression).
    private static func postgresDocument(_ prefix: String) -> String {
        "to_tsvector('simple'::regconfig, " + columns.map { "\(prefix)\($0)" }.joined(separator: " || ' ' || ") + ")"
    }

    /// The join that keeps the assets whose indexed text matches, as `s`
    /// with `s.id` and `s.rank` (lower ranks first); nil when `match` asks
    /// nothing of the text.
    static func join(_ match: SearchMatch, dialect: SQLDialect) -> SQLFragment? {
        guard match.usesTextIndex else { return nil }
        switch dialect {
        case .sqlite:
            var parts = match.terms.map { words in
                guard words.count == 1, let near = match.corrections[words[0]], !near.isEmpty else { return sqlitePhrase(words) }
                return "(" + ([sqlitePhrase(words)] + near.map { "\"\($0)\"" }).joined(separator: " OR ") + ")"
            }
            for (column, alternatives) in [("place", match.places), ("people", match.people)] where !alternatives.isEmpty {
                parts.append("{\(column)} : (" + alternatives.map(sqlitePhrase).joined(separator: " OR ") + ")")
            }
            let expression = parts.joined(separator: " AND ")
            return """
                 JOIN (SELECT rowid AS id, bm25(\(sql: sqliteTable)) AS rank FROM \(sql: sqliteTable) \
                WHERE \(sql: sqliteTable) MATCH \(expression)) s ON s.id = a.id
                """
        case .postgres:
            var all = match.terms.map { words in
                guard words.count == 1, let near = match.corrections[words[0]], !near.isEmpty else { return postgresPhrase(words) }
                return "(" + ([postgresPhrase(words)] + near.map { "'\($0)'" }).joined(separator: " | ") + ")"
            }
            var rechecks: [SQLFragment] = []
            for (column, alternatives) in [("place", match.places), ("people", match.people)] where !alternatives.isEmpty {
                let query = alternatives.map(postgresPhrase).map { "(\($0))" }.joined(separator: " | ")
                all.append("(\(query))")
                rechecks.append(" AND to_tsvector('simple'::regconfig, x.\(sql: column)) @@ to_tsquery('simple'::regconfig, \(query))")
            }
            let document = postgresDocument("x.")
            return """
                 JOIN (SELECT x.asset_id AS id, -ts_rank(\(sql: document), q) AS rank \
                FROM asset_search x, to_tsquery('simple'::regconfig, \(all.joined(separator: " & "))) q \
                WHERE \(sql: document) @@ q\(rechecks.joined(separator: ""))) s ON s.id = a.id
                """
        }
    }

    /// FTS5's phrase of folded words, the last a prefix: `"new york"*`.
    /// The words are letters and digits only, so they need no escaping.
    private static func sqlitePhrase(_ words: [String]) -> String {
        "\"" + words.joined(separator: " ") + "\"*"
    }

    /// `tsquery`'s phrase of folded words, the last a prefix: `new <-> york:*`.
    private static func postgresPhrase(_ words: [String]) -> String {
        var terms = words.map { "'\($0)'" }
        terms[terms.count - 1] += ":*"
        return terms.joined(separator: " <-> ")
    }
}
