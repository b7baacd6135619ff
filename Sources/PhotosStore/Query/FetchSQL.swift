import Foundation
import GRDB

/// Where a fetch turns into SQL: one SELECT of row ids per query, with
/// PhotoKit's inclusion rules, the reader's access scope, the caller's
/// filter and the order. Statements are ``SQLFragment`` values, so that each
/// argument travels with the fragment that uses it; column names and the
/// engine's own constants are the only text spliced in.
enum FetchSQL {
    /// The statement selecting the ids of a query's assets in order; nil
    /// when the query can match nothing (a smart album no library has).
    static func assetIDs(_ query: AssetQuery, scope: AccessScope, dialect: SQLDialect, now: Date) -> SQLFragment? {
        assetPlan(query, scope: scope, dialect: dialect, now: now)?.ids
    }

    /// How a query's assets are selected, filtered and ordered; nil when the
    /// query can match nothing (a smart album no library has).
    static func assetPlan(_ query: AssetQuery, scope: AccessScope, dialect: SQLDialect, now: Date) -> SelectPlan? {
        var builder = Builder()
        var from: SQLFragment = "asset a"
        var naturalOrder = [
            OrderTerm(expression: "a.creation_date", ascending: true),
            OrderTerm(expression: "a.id", ascending: true, nullable: false),
        ]
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
            from += Builder.join(uuids, on: "a.uuid", dialect: dialect)
            naturalOrder = [OrderTerm(expression: TableAlias.listElement["key"], ascending: true, nullable: false)]
            appliesDefaultExclusions = false
            defaultSourceTypes = .all
        case .rowIDs(let ids):
            from += Builder.join(ids, on: "a.id", dialect: dialect)
            naturalOrder = [OrderTerm(expression: TableAlias.listElement["key"], ascending: true, nullable: false)]
            appliesDefaultExclusions = false
            excludesHidden = false
            defaultSourceTypes = .all
        case .album(let rowID):
            from += " JOIN collection_asset m ON m.asset_id = a.id"
            builder.conditions.append("m.collection_id = \(rowID)")
            naturalOrder = [OrderTerm(expression: "m.position", ascending: true, nullable: false)]
            defaultSourceTypes = .all
        case .smartAlbum(let subtype):
            let rule = SmartAlbumRule.rule(for: subtype, now: now)
            builder.append(rule.condition)
            naturalOrder = rule.naturalOrder
            visibility = rule.visibility
        case .burst(let identifier):
            builder.conditions.append("a.burst_identifier = \(identifier)")
            defaultSourceTypes = .all
        case .creationDateRange(let start, let end):
            builder.conditions.append("a.creation_date BETWEEN \(start.timeIntervalSince1970) AND \(end.timeIntervalSince1970)")
        case .person(let uuid):
            builder.conditions.append("a.id IN (SELECT f.asset_id FROM face f JOIN person p ON p.id = f.person_id WHERE p.uuid = \(uuid))")
        case .search(let match):
            naturalOrder = [
                OrderTerm(expression: "a.creation_date", ascending: false),
                OrderTerm(expression: "a.id", ascending: false, nullable: false),
            ]
            if let join = SearchIndex.join(match, dialect: dialect) {
                from += join
                naturalOrder.insert(OrderTerm(expression: "s.rank", ascending: true, nullable: false), at: 0)
            }
            builder.append(Builder.searchConditions(match, scope: scope, dialect: dialect))
        }

        switch visibility {
        case .trashedOnly:
            builder.conditions.append("a.trashed_date IS NOT NULL")
        case .hiddenOnly:
            builder.conditions.append(SQLFragment(sql: ShownAssets.notDeleted(.asset)))
            builder.conditions.append("a.is_hidden = 1")
        case .visible:
            builder.conditions.append(SQLFragment(sql: excludesHidden ? ShownAssets.inAlbum(.asset) : ShownAssets.notDeleted(.asset)))
        }
        if appliesDefaultExclusions && !query.includeAllBurstAssets {
            builder.conditions.append("a.burst_member_hidden = 0")
        }
        let sourceTypes = query.sourceTypes.isEmpty ? defaultSourceTypes : query.sourceTypes
        if !sourceTypes.isSuperset(of: .all) {
            let values = sourceTypes.sources.map { String($0.rawValue) }
            builder.conditions.append(values.isEmpty ? "FALSE" : "a.source_type IN (\(sql: values.joined(separator: ", ")))")
        }
        builder.append(scope.assetCondition(.asset))
        builder.append(Builder.condition(query.filter, alias: .asset, dialect: dialect))
        return SelectPlan(
            column: "a.id", from: from, builder: builder,
            order: Builder.order(query.sort, alias: .asset, natural: naturalOrder), limit: query.limit, dialect: dialect)
    }

    /// The statement selecting the ids of a query's collections in order.
    static func collectionIDs(_ query: CollectionQuery, scope: AccessScope, dialect: SQLDialect) -> SQLFragment {
        var builder = Builder()
        var from: SQLFragment = collectionSource(scope) + " c"
        var naturalOrder = [OrderTerm(expression: "c.id", ascending: true, nullable: false)]
        switch query.scope {
        case .stored(let type, let subtype):
            builder.conditions.append(SQLFragment(sql: type.condition(.collection)))
            if let subtype {
                builder.conditions.append("c.subtype = \(subtype)")
            }
        case .uuids(let uuids, let kind):
            from += Builder.join(uuids, on: "c.uuid", dialect: dialect)
            if let kind {
                builder.conditions.append("c.kind = \(sql: String(kind.rawValue))")
            }
            naturalOrder = [OrderTerm(expression: TableAlias.listElement["key"], ascending: true, nullable: false)]
        case .children(let parent?):
            builder.conditions.append("c.parent_id = \(parent)")
            naturalOrder = [
                OrderTerm(expression: "c.position", ascending: true, nullable: false), OrderTerm(expression: "c.id", ascending: true, nullable: false),
            ]
        case .children(nil):
            builder.conditions.append("c.parent_id IS NULL AND \(sql: userCollection(.collection))")
            naturalOrder = [
                OrderTerm(expression: "c.position", ascending: true, nullable: false), OrderTerm(expression: "c.id", ascending: true, nullable: false),
            ]
        case .albumsContaining(let assetRowID):
            builder.conditions.append(
                """
                \(sql: CollectionType.album.condition(.collection)) \
                AND c.id IN (SELECT collection_id FROM collection_asset WHERE asset_id = \(assetRowID))
                """)
        case .parent(let rowID):
            builder.conditions.append("c.id = (SELECT parent_id FROM collection WHERE id = \(rowID))")
        }
        builder.append(scope.collectionCondition(.collection))
        builder.append(Builder.condition(query.filter, alias: .collection, dialect: dialect))
        return SelectPlan(
            column: "c.id", from: from, builder: builder,
            order: Builder.order(query.sort, alias: .collection, natural: naturalOrder), limit: query.limit, dialect: dialect
        ).ids
    }

    /// The collections with what is computed from their members as the
    /// reader sees them: the count and date range of the visible assets of
    /// regular albums. SQLite flattens it into the query that uses it.
    static func collectionSource(_ scope: AccessScope) -> SQLFragment {
        let member: SQLFragment = "m.collection_id = c.id AND \(sql: ShownAssets.inAlbum(.asset))\(scope.assetCondition(.asset).andClause)"
        let album = SQLFragment(sql: CollectionType.album.condition(.collection))
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
    static func collectionRows(
        _ rows: [CollectionRow], filter: StoreFilter<CollectionAttribute>,
        sort: [StoreSort<CollectionAttribute>], limit: Int, dialect: SQLDialect
    ) -> SQLFragment {
        var builder = Builder()
        let json = SQLDialect.json(rows)
        // Each row's id is its index in `rows` (SQLite counts from 0, PostgreSQL's ordinality from 1).
        let from: SQLFragment =
            switch dialect {
            case .sqlite:
                """
                (SELECT CAST(j.key AS INTEGER) AS id, json_extract(j.value, '$.uuid') AS uuid,
                        json_extract(j.value, '$.kind') AS kind, json_extract(j.value, '$.title') AS title,
                        json_extract(j.value, '$.startDate') AS start_date, json_extract(j.value, '$.endDate') AS end_date,
                        json_extract(j.value, '$.assetCount') AS asset_count
                 FROM json_each(\(json)) j) c
                """
            case .postgres:
                """
                (SELECT j.key - 1 AS id, (j.value->>'uuid') COLLATE "C" AS uuid,
                        (j.value->>'kind')::int8 AS kind, (j.value->>'title') COLLATE "C" AS title,
                        (j.value->>'startDate')::float8 AS start_date, (j.value->>'endDate')::float8 AS end_date,
                        (j.value->>'assetCount')::int8 AS asset_count
                 FROM jsonb_array_elements(\(json)::jsonb) WITH ORDINALITY AS j(value, key)) c
                """
            }
        builder.append(Builder.condition(filter, alias: .collection, dialect: dialect))
        return SelectPlan(
            column: "c.id", from: from, builder: builder,
            order: Builder.order(sort, alias: .collection, natural: [OrderTerm(expression: "c.id", ascending: true, nullable: false)]),
            limit: limit, dialect: dialect
        ).ids
    }

    /// A user album or folder, as opposed to a smart album.
    static func userCollection(_ alias: TableAlias) -> String {
        "(\(CollectionType.album.condition(alias)) OR \(CollectionType.folder.condition(alias)))"
    }

    /// A fetch's SELECT before it is rendered: the rows it reads, its
    /// conditions, its order. Rendered as the fetch itself (ids in order),
    /// or as the sort keys of chosen rows under the same scope and
    /// conditions, which incremental refreshes splice with.
    struct SelectPlan {
        /// The row id column, as `a.id`.
        let column: String
        let from: SQLFragment
        let builder: Builder
        let order: [OrderTerm]
        let limit: Int
        let dialect: SQLDialect

        /// The conditions, and `extra` ones, joined by AND; nil when there are none.
        private func conditions(_ extra: SQLFragment...) -> SQLFragment? {
            let all = builder.conditions + extra
            return all.isEmpty ? nil : all.joined(separator: " AND ")
        }

        /// The ORDER BY terms, or the reverse order's.
        private func orderClause(reverse: Bool) -> String {
            order.map { "\($0.expression) \(dialect.direction(ascending: $0.ascending != reverse, nullable: $0.nullable))" }
                .joined(separator: ", ")
        }

        /// The ids of the matching rows, in order.
        var ids: SQLFragment {
            select(column, reverse: false)
        }

        /// `columns` of the matching rows, in order, or in the reverse order
        /// when `reverse`; nil when a limit makes which rows match depend on
        /// the direction.
        func rows(_ columns: String, reverse: Bool) -> SQLFragment? {
            reverse && limit > 0 ? nil : select(columns, reverse: reverse)
        }

        private func select(_ columns: String, reverse: Bool) -> SQLFragment {
            let limitClause: SQLFragment = limit > 0 ? " LIMIT \(sql: String(limit))" : ""
            return "SELECT \(sql: columns) FROM \(from)\(conditions().whereClause) ORDER BY \(sql: orderClause(reverse: reverse))\(limitClause)"
        }

        /// The matching rows grouped by `group`: its value, then `aggregates`,
        /// for the rows that also meet `condition`.
        func grouped(by group: String, aggregates: [String], condition: SQLFragment? = nil) -> SQLFragment {
            let selection = ([group] + aggregates).joined(separator: ", ")
            let clause = condition.map { conditions($0) } ?? conditions()
            return "SELECT \(sql: selection) FROM \(from)\(clause.whereClause) GROUP BY 1 ORDER BY 1 DESC"
        }

        /// `columns` of the matching rows that also meet `condition`, in `orderBy`, a page of them.
        func page(_ columns: String, condition: SQLFragment, orderBy: String, offset: Int, limit: Int) -> SQLFragment {
            "SELECT \(sql: columns) FROM \(from)\(conditions(condition).whereClause) ORDER BY \(sql: orderBy) LIMIT \(limit) OFFSET \(offset)"
        }

        /// The id and sort key of each of `rowIDs` that matches, unordered.
        func keys(of rowIDs: [Int64]) -> SQLFragment {
            let selection = ([column] + order.map(\.expression)).joined(separator: ", ")
            let membership: SQLFragment = "\(sql: column) IN (\(dialect.elements(of: rowIDs)))"
            return "SELECT \(sql: selection) FROM \(from)\(conditions(membership).whereClause)"
        }
    }

    /// Accumulates a SELECT's conditions, each carrying its own arguments.
    struct Builder {
        var conditions: [SQLFragment] = []

        /// Adds a condition; nil, always true, adds none.
        mutating func append(_ condition: SQLFragment?) {
            if let condition { conditions.append(condition) }
        }

        /// Joins a list of values (each kept once, in order) as `k`, so that
        /// `k.key` (``TableAlias/listElement``) is a value's position in the list.
        static func join(_ values: [Int64], on column: String, dialect: SQLDialect) -> SQLFragment {
            var seen = Set<Int64>()
            return
                " JOIN \(dialect.table(of: values.filter { seen.insert($0).inserted }, alias: .listElement)) ON \(sql: column) = \(sql: TableAlias.listElement["value"])"
        }

        /// Joins a list of texts (each kept once, in order) as `k`, as ``join(_:on:dialect:)-(Int64)`` does.
        static func join(_ values: [String], on column: String, dialect: SQLDialect) -> SQLFragment {
            var seen = Set<String>()
            return
                " JOIN \(dialect.table(of: values.filter { seen.insert($0).inserted }, alias: .listElement)) ON \(sql: column) = \(sql: TableAlias.listElement["value"])"
        }

        /// A search's dates and albums as SQL; nil when it asks neither.
        static func searchConditions(_ match: SearchMatch, scope: AccessScope, dialect: SQLDialect) -> SQLFragment? {
            var conditions: [SQLFragment] = match.matchesNothing ? ["FALSE"] : []
            if !match.years.isEmpty {
                let years = match.years.map { year -> SQLFragment in "a.local_month BETWEEN \(year * 100 + 1) AND \(year * 100 + 12)" }
                conditions.append("(\(years.joined(separator: " OR ")))")
            }
            if !match.months.isEmpty {
                conditions.append("a.local_month % 100 IN (\(sql: match.months.map(String.init).joined(separator: ", ")))")
            }
            if !match.albums.isEmpty {
                // Only albums the reader sees: another album's title must not tell which of its assets it holds.
                let titles = StoreFilter<CollectionAttribute>.or(
                    match.albums.map { .compare(.attribute(.title), .equal, .value(.text($0)), [.caseInsensitive, .diacriticInsensitive]) })
                let album = SQLFragment(sql: CollectionType.album.condition(.collection))
                conditions.append(
                    """
                    a.id IN (SELECT m.asset_id FROM collection_asset m JOIN collection c ON c.id = m.collection_id \
                    WHERE \(album) AND \(condition(titles, alias: .collection, dialect: dialect) ?? "TRUE")\(scope.collectionCondition(.collection).andClause))
                    """)
            }
            return conditions.isEmpty ? nil : conditions.joined(separator: " AND ")
        }

        /// User sort keys, then the row id in the direction of the last key so
        /// that an index on (key, id) serves the whole order; or the natural order.
        static func order<A: StoreAttribute>(_ sort: [StoreSort<A>], alias: TableAlias, natural: [OrderTerm]) -> [OrderTerm] {
            guard let last = sort.last else { return natural }
            return sort.map { OrderTerm(expression: $0.attribute.sql(alias: alias), ascending: $0.ascending) }
                + [OrderTerm(expression: alias["id"], ascending: last.ascending, nullable: false)]
        }

        /// A filter as SQL; nil when it is always true.
        static func condition<A: StoreAttribute>(_ filter: StoreFilter<A>, alias: TableAlias, dialect: SQLDialect) -> SQLFragment? {
            switch filter {
            case .constant(let value):
                return value ? nil : "FALSE"
            case .and(let filters):
                let parts = filters.compactMap { condition($0, alias: alias, dialect: dialect) }
                return parts.isEmpty ? nil : "(\(parts.joined(separator: " AND ")))"
            case .or(let filters):
                guard !filters.isEmpty else { return "FALSE" }
                var parts: [SQLFragment] = []
                for filter in filters {
                    guard let part = condition(filter, alias: alias, dialect: dialect) else { return nil }
                    parts.append(part)
                }
                return "(\(parts.joined(separator: " OR ")))"
            case .not(let inner):
                return condition(inner, alias: alias, dialect: dialect).map { "NOT \($0)" } ?? "FALSE"
            case .oneOf(let operand, let values):
                guard !values.isEmpty else { return "FALSE" }
                let list = values.map { SQLFragment(sql: "?", arguments: [databaseValue($0)]) }.joined(separator: ", ")
                return "(\(sql(operand, alias: alias)) IN (\(list)))"
            case .compare(let lhs, let comparison, let rhs, let options):
                // Equality with nil is IS [NOT] NULL, as NSPredicate means it.
                if comparison == .equal || comparison == .notEqual {
                    let negation = comparison == .notEqual ? " NOT" : ""
                    if case .value(.null) = rhs { return "(\(sql(lhs, alias: alias)) IS\(sql: negation) NULL)" }
                    if case .value(.null) = lhs { return "(\(sql(rhs, alias: alias)) IS\(sql: negation) NULL)" }
                }
                return compare(sql(lhs, alias: alias), comparison, sql(rhs, alias: alias), options)
            case .anyElement(let attribute, let comparison, let value, let options):
                // No element is NULL: comparing one with nil is never true.
                if case .null = value { return "FALSE" }
                let element = TableAlias.storedListElement
                let elements = dialect.elements(ofJSONColumn: attribute.sql(alias: alias), alias: element)
                let test = compare(SQLFragment(sql: element["value"]), comparison, sql(StoreOperand<A>.value(value), alias: alias), options)
                return "EXISTS (SELECT 1 FROM \(sql: elements) WHERE \(test))"
            }
        }

        /// `lhs` compared with `rhs`, neither NULL: text with its options
        /// through `photos_text`, anything else with SQL's operators.
        private static func compare(_ lhs: SQLFragment, _ comparison: StoreComparison, _ rhs: SQLFragment, _ options: TextOptions) -> SQLFragment {
            let textual = options != [] || [.contains, .beginsWith, .endsWith, .like].contains(comparison)
            if textual {
                let code = TextMatching.codes[comparison]!
                return "photos_text(\(sql: String(code)), \(sql: String(options.rawValue)), \(lhs), \(rhs))"
            }
            let symbols: [StoreComparison: String] = [
                .equal: "=", .notEqual: "<>", .less: "<", .lessOrEqual: "<=", .greater: ">", .greaterOrEqual: ">=",
            ]
            return "(\(lhs) \(sql: symbols[comparison]!) \(rhs))"
        }

        private static func sql<A: StoreAttribute>(_ operand: StoreOperand<A>, alias: TableAlias) -> SQLFragment {
            switch operand {
            case .attribute(let attribute):
                SQLFragment(sql: attribute.sql(alias: alias))
            case .value(let value):
                SQLFragment(sql: "?", arguments: [databaseValue(value)])
            case .bitwiseAnd(let lhs, let rhs):
                "(\(sql(lhs, alias: alias)) & \(sql(rhs, alias: alias)))"
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
