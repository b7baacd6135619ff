import Foundation
import FoundationEssentials

/// A row measured at several library sizes: the same row of the suites
/// named "SUITE, N assets", where a row's name may state the size N.
struct ScalingRow {
    /// The suite and the row's name with its size written as N.
    let title: String
    /// The sizes, smallest first.
    let sizes: [Int]
    /// The row at each size.
    let rows: [SuiteResult.Row]

    /// Every comparison row found at two or more sizes of a suite, in the
    /// order the suites and rows came.
    static func all(in results: [SuiteResult]) -> [ScalingRow] {
        var titles: [String] = []
        var found: [String: [(size: Int, row: SuiteResult.Row)]] = [:]
        for result in results {
            guard let match = result.suite.range(of: #", [0-9]+ assets$"#, options: .regularExpression),
                let size = Int(result.suite[match].filter(\.isNumber))
            else { continue }
            for row in result.rows where row.comparisonTarget != nil {
                let title = "\(result.suite[..<match.lowerBound]): " + row.name.replacingOccurrences(of: String(size), with: "N")
                if found[title] == nil { titles.append(title) }
                found[title, default: []].append((size, row))
            }
        }
        return titles.compactMap { title in
            let sized = found[title, default: []].sorted { $0.size < $1.size }
            return sized.count >= 2 ? ScalingRow(title: title, sizes: sized.map(\.size), rows: sized.map(\.row)) : nil
        }
    }
}
