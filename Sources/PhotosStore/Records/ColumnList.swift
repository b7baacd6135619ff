/// A table's columns declared once, as the cases of an enum in the order a
/// record selects and decodes them: positional decoding reads
/// `row[Column.x.rawValue]`, so the list and the decoder cannot drift apart.
/// A case's name is its column's, in camel case (`mediaType` is `media_type`).
protocol ColumnList: CaseIterable, RawRepresentable where RawValue == Int, AllCases: Collection {}

extension ColumnList {
    /// The column's name in SQL: the case's name in snake case.
    /// Cost: a walk of the name; records compute their lists once.
    var name: String {
        String(describing: self).reduce(into: "") { name, character in
            if character.isUppercase { name += "_" + character.lowercased() } else { name.append(character) }
        }
    }

    /// Every column, qualified by `alias`, in declaration order.
    static func selection(_ alias: TableAlias) -> String {
        allCases.map { alias[$0.name] }.joined(separator: ", ")
    }
}
