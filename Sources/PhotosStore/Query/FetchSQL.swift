import Foundation
import GRDB

/// SQL text with its arguments.
struct SQLFragment {
    var sql: String
    var arguments: StatementArguments
}

/// Where a fetch turns into SQL: one SELECT of row ids per query, with
/// PhotoKit's inclusion rules, the reader's access scope, the caller's
/// filter and the order.
enum FetchSQL {
    /// The statement selecting the ids of a query's assets in order; nil
    /// when the query can match nothing (a smart album no library has).
    static func assetIDs(_ query: AssetQuery, scope: AccessScope, now: Date) -> SQLFragment? {
        assetPlan(query, scope: scope, now: now)?.ids
    }

    /// How a query's assets are selected, filtered and ordered; nil when the
    /// query can match nothing (a smart album no library has).
    static func assetPlan(_ query: AssetQuery, scope: AccessScope, now: Date) -> SelectPlan? {
        var builder = Builder()
        var from = "asset a"
        var naturalOrder = [OrderTerm(expression: "a.creation_date", ascending: true), OrderTerm(expression: "a.id", ascending: true)]
        var visibility = SmartAlbumRule.Visibility.visible
        var appliesDefaultExclusions = true
        // Fetches by identifier name the assets they want: burst members
        // come whatever the options say, hidden ones unless the options leave them out.
        var excludesHidden = !query.includeHiddenAssets
        var defaultSourceTypes = AssetSourceTypes.userLibrary

        switch query.scope {
        case .library:
            break
        case .uuids(let uuids):
            from += builder.join(uuids, on: "a.uuid")
            naturalOrder = [OrderTerm(expression: "k.key", ascending: true)]
            appliesDefaultExclusions = false
            defaultSourceTypes = .all
        case .rowIDs(let ids):
            from += builder.join(ids, on: "a.id")
            naturalOrder = [OrderTerm(expression: "k.key", ascending: true)]
            appliesDefaultExclusions = false
            excludesHidden = false
            defaultSourceTypes = .all
        case .album(let rowID):
            from += " JOIN collection_asset m ON m.asset_id = a.id"
            builder.conditions.append("m.collection_id = ?")
            builder.arguments.append(rowID.databaseValue)
            naturalOrder = [OrderTerm(expression: "m.position", ascending: true)]
            defaultSourceTypes = .all
        case .smartAlbum(let subtype):
            guard let rule = SmartAlbumRule.rule(for: subtype, now: now) else { return nil }
            builder.conditions.append(rule.condition)
            naturalOrder = rule.naturalOrder
            visibility = rule.visibility
        case .burst(let identifier):
            builder.conditions.append("a.burst_identifier = ?")
            builder.arguments.append(identifier.databaseValue)
            defaultSourceTypes = .all
        case .creationDateRange(let start, let end):
            builder.conditions.append("a.creation_date BETWEEN ? AND ?")
            builder.arguments.append(start.timeIntervalSince1970.databaseValue)
            builder.arguments.append(end.timeIntervalSince1970.databaseValue)
        }

        switch visibility {
        case .trashedOnly:
            builder.conditions.append("a.trashed_date IS NOT NULL")
        case .hiddenOnly:
            builder.conditions.append("a.trashed_date IS NULL")
            builder.conditions.append("a.is_hidden = 1")
        case .visible:
            builder.conditions.append("a.trashed_date IS NULL")
            if excludesHidden {
                builder.conditions.append("a.is_hidden = 0")
            }
        }
        if appliesDefaultExclusions && !query.includeAllBurstAssets {
            builder.conditions.append("a.burst_member_hidden = 0")
        }
        let sourceTypes = query.sourceTypes.isEmpty ? defaultSourceTypes : query.sourceTypes
        if !sourceTypes.isSuperset(of: .all) {
            let values = sourceTypes.sources.map { String($0.rawValue) }
            builder.conditions.append(values.isEmpty ? "0" : "a.source_type IN (\(values.joined(separator: ", ")))")
        }
        if let access = scope.assetCondition("a") {
            builder.conditions.append(access)
        }
        builder.conditions.append(builder.condition(query.filter, alias: "a"))
        return SelectPlan(column: "a.id", from: from, builder: builder,
                          order: Builder.order(query.sort, alias: "a", natural: naturalOrder), limit: query.limit)
    }

    /// The statement selecting the ids of a query's collections in order.
    static func collectionIDs(_ query: CollectionQuery, scope: AccessScope) -> SQLFragment {
        var builder = Builder()
        var from = collectionSource(scope) + " c"
        var naturalOrder = [OrderTerm(expression: "c.id", ascending: true)]
        switch query.scope {
        case .stored(let type, let subtype):
            builder.conditions.append(type.condition("c"))
            if let subtype {
                builder.conditions.append("c.subtype = \(subtype)")
            }
        case .uuids(let uuids, let kind):
            from += builder.join(uuids, on: "c.uuid")
            if let kind {
                builder.conditions.append("c.kind = \(kind.rawValue)")
            }
            naturalOrder = [OrderTerm(expression: "k.key", ascending: true)]
        case .children(let parent?):
            builder.conditions.append("c.parent_id = ?")
            builder.arguments.append(parent.databaseValue)
            naturalOrder = [OrderTerm(expression: "c.position", ascending: true), OrderTerm(expression: "c.id", ascending: true)]
        case .children(nil):
            builder.conditions.append("c.parent_id IS NULL AND \(userCollection("c"))")
            naturalOrder = [OrderTerm(expression: "c.position", ascending: true), OrderTerm(expression: "c.id", ascending: true)]
        case .albumsContaining(let assetRowID):
            builder.conditions.append("""
                \(CollectionType.album.condition("c")) \
                AND c.id IN (SELECT collection_id FROM collection_asset WHERE asset_id = ?)
                """)
            builder.arguments.append(assetRowID.databaseValue)
        case .parent(let rowID):
            builder.conditions.append("c.id = (SELECT parent_id FROM collection WHERE id = ?)")
            builder.arguments.append(rowID.databaseValue)
        }
        if let access = scope.collectionCondition("c") {
            builder.conditions.append(access)
        }
        builder.conditions.append(builder.condition(query.filter, alias: "c"))
        return SelectPlan(column: "c.id", from: from, builder: builder,
                          order: Builder.order(query.sort, alias: "c", natural: naturalOrder), limit: query.limit).ids
    }

    /// The collections with what is computed from their members as the
    /// reader sees them: the count and date range of the visible assets of
    /// regular albums. SQLite flattens it into the query that uses it.
    static func collectionSource(_ scope: AccessScope) -> String {
        let member = "m.collection_id = c.id AND a.trashed_date IS NULL AND a.is_hidden = 0"
            + (scope.assetCondition("a").map { " AND \($0)" } ?? "")
        let album = CollectionType.album.condition("c")
        return """
            (SELECT c.*,
                CASE WHEN \(album) THEN (SELECT COUNT(*) FROM collection_asset m JOIN asset a ON a.id = m.asset_id WHERE \(member)) END AS asset_count,
                CASE WHEN \(album) THEN (SELECT MIN(a.creation_date) FROM collection_asset m JOIN asset a ON a.id = m.asset_id WHERE \(member)) END AS start_date,
                CASE WHEN \(album) THEN (SELECT MAX(a.creation_date) FROM collection_asset m JOIN asset a ON a.id = m.asset_id WHERE \(member)) END AS end_date
             FROM collection c)
            """
    }

    /// The statement filtering and ordering in-memory collections, passed as
    /// one JSON argument; it selects indexes into `rows`.
    static func collectionRows(_ rows: [CollectionRow], filter: StoreFilter<CollectionAttribute>,
                               sort: [StoreSort<CollectionAttribute>], limit: Int) -> SQLFragment {
        var builder = Builder()
        let from = """
            (SELECT CAST(j.key AS INTEGER) AS id, json_extract(j.value, '$.uuid') AS uuid,
                    json_extract(j.value, '$.kind') AS kind, json_extract(j.value, '$.title') AS title,
                    json_extract(j.value, '$.startDate') AS start_date, json_extract(j.value, '$.endDate') AS end_date,
                    json_extract(j.value, '$.assetCount') AS asset_count
             FROM json_each(?) j) c
            """
        builder.arguments.append(json(rows).databaseValue)
        builder.conditions.append(builder.condition(filter, alias: "c"))
        return SelectPlan(column: "c.id", from: from, builder: builder,
                          order: Builder.order(sort, alias: "c", natural: [OrderTerm(expression: "c.id", ascending: true)]),
                          limit: limit).ids
    }

    /// A user album or folder, as opposed to a smart album.
    static func userCollection(_ alias: String) -> String {
        "(\(CollectionType.album.condition(alias)) OR \(CollectionType.folder.condition(alias)))"
    }

    static func json<T: Encodable>(_ values: [T]) -> String {
        String(decoding: (try? JSONEncoder().encode(values)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// A fetch's SELECT before it is rendered: the rows it reads, its
    /// conditions and arguments, its order. Rendered as the fetch itself
    /// (ids in order), or as the sort keys of chosen rows under the same
    /// scope and conditions, which incremental refreshes splice with.
    struct SelectPlan {
        /// The row id column, as `a.id`.
        let column: String
        let from: String
        let builder: Builder
        let order: [OrderTerm]
        let limit: Int

        private var whereClause: String {
            let conditions = builder.conditions.filter { $0 != "1" }
            return conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        }

        private var orderClause: String {
            order.map { "\($0.expression) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ")
        }

        /// The ids of the matching rows, in order.
        var ids: SQLFragment {
            var sql = "SELECT \(column) FROM \(from)\(whereClause) ORDER BY \(orderClause)"
            if limit > 0 {
                sql += " LIMIT \(limit)"
            }
            return SQLFragment(sql: sql, arguments: StatementArguments(builder.arguments))
        }

        /// The matching rows grouped by `group`: its value, then `aggregates`,
        /// for the rows that also meet `condition` (with its `arguments`).
        func grouped(by group: String, aggregates: [String], condition: String? = nil,
                     arguments: [DatabaseValue] = []) -> SQLFragment {
            let conditions = ([whereClause.isEmpty ? nil : String(whereClause.dropFirst(7))] + [condition]).compactMap { $0 }
            let clause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            return SQLFragment(sql: "SELECT \(([group] + aggregates).joined(separator: ", ")) FROM \(from)\(clause) GROUP BY 1 ORDER BY 1 DESC",
                               arguments: StatementArguments(builder.arguments + arguments))
        }

        /// `columns` of the matching rows that also meet `condition`, in `orderBy`, a page of them.
        func page(_ columns: String, condition: String, arguments: [DatabaseValue], orderBy: String,
                  offset: Int, limit: Int) -> SQLFragment {
            let clause = (whereClause.isEmpty ? " WHERE " : whereClause + " AND ") + condition
            return SQLFragment(sql: "SELECT \(columns) FROM \(from)\(clause) ORDER BY \(orderBy) LIMIT \(limit) OFFSET \(offset)",
                               arguments: StatementArguments(builder.arguments + arguments))
        }

        /// The id and sort key of each of `rowIDs` that matches, unordered.
        func keys(of rowIDs: [Int64]) -> SQLFragment {
            let selection = ([column] + order.map(\.expression)).joined(separator: ", ")
            let membership = "\(column) IN (SELECT value FROM json_each(?))"
            let conditions = whereClause.isEmpty ? " WHERE \(membership)" : whereClause + " AND \(membership)"
            return SQLFragment(sql: "SELECT \(selection) FROM \(from)\(conditions)",
                               arguments: StatementArguments(builder.arguments + [FetchSQL.json(rowIDs).databaseValue]))
        }
    }

    /// Accumulates conditions and arguments in the order they appear in the SQL.
    struct Builder {
        var conditions: [String] = []
        var arguments: [DatabaseValue] = []

        /// Joins a list of values (each kept once, in order) as `k`, so that
        /// `k.key` is a value's position in the list.
        mutating func join<T: Encodable & Hashable>(_ values: [T], on column: String) -> String {
            var seen = Set<T>()
            arguments.append(FetchSQL.json(values.filter { seen.insert($0).inserted }).databaseValue)
            return " JOIN json_each(?) k ON \(column) = k.value"
        }

        /// User sort keys, then the row id in the direction of the last key so
        /// that an index on (key, id) serves the whole order; or the natural order.
        static func order<A: StoreAttribute>(_ sort: [StoreSort<A>], alias: String, natural: [OrderTerm]) -> [OrderTerm] {
            guard let last = sort.last else { return natural }
            return sort.map { OrderTerm(expression: $0.attribute.sql(alias: alias), ascending: $0.ascending) }
                + [OrderTerm(expression: "\(alias).id", ascending: last.ascending)]
        }

        mutating func condition<A: StoreAttribute>(_ filter: StoreFilter<A>, alias: String) -> String {
            switch filter {
            case .constant(let value):
                return value ? "1" : "0"
            case .and(let filters):
                return filters.isEmpty ? "1" : "(" + filters.map { condition($0, alias: alias) }.joined(separator: " AND ") + ")"
            case .or(let filters):
                return filters.isEmpty ? "0" : "(" + filters.map { condition($0, alias: alias) }.joined(separator: " OR ") + ")"
            case .not(let inner):
                return "NOT " + condition(inner, alias: alias)
            case .oneOf(let operand, let values):
                guard !values.isEmpty else { return "0" }
                let left = sql(operand, alias: alias)
                for value in values {
                    arguments.append(Self.databaseValue(value))
                }
                return "(\(left) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", "))))"
            case .compare(let lhs, let comparison, let rhs, let options):
                return compare(lhs, comparison, rhs, options, alias: alias)
            }
        }

        private mutating func compare<A: StoreAttribute>(
            _ lhs: StoreOperand<A>, _ comparison: StoreComparison, _ rhs: StoreOperand<A>,
            _ options: TextOptions, alias: String
        ) -> String {
            if comparison == .equal || comparison == .notEqual {
                let negation = comparison == .notEqual ? " NOT" : ""
                if case .value(.null) = rhs { return "(\(sql(lhs, alias: alias)) IS\(negation) NULL)" }
                if case .value(.null) = lhs { return "(\(sql(rhs, alias: alias)) IS\(negation) NULL)" }
            }
            let textual = options != [] || [.contains, .beginsWith, .endsWith, .like].contains(comparison)
            if textual {
                let code = TextMatching.codes[comparison]!
                let left = sql(lhs, alias: alias)
                let right = sql(rhs, alias: alias)
                return "photos_text(\(code), \(options.rawValue), \(left), \(right))"
            }
            let symbols: [StoreComparison: String] = [
                .equal: "=", .notEqual: "<>", .less: "<", .lessOrEqual: "<=", .greater: ">", .greaterOrEqual: ">=",
            ]
            let left = sql(lhs, alias: alias)
            let right = sql(rhs, alias: alias)
            return "(\(left) \(symbols[comparison]!) \(right))"
        }

        private mutating func sql<A: StoreAttribute>(_ operand: StoreOperand<A>, alias: String) -> String {
            switch operand {
            case .attribute(let attribute):
                return attribute.sql(alias: alias)
            case .value(let value):
                arguments.append(Self.databaseValue(value))
                return "?"
            case .bitwiseAnd(let lhs, let rhs):
                let left = sql(lhs, alias: alias)
                let right = sql(rhs, alias: alias)
                return "(\(left) & \(right))"
            }
        }

        static func databaseValue(_ value: StoreValue) -> DatabaseValue {
            switch value {
            case .null: .null
            case .integer(let integer): integer.databaseValue
            case .real(let real): real.databaseValue
            case .text(let text): text.databaseValue
            }
        }
    }
}
