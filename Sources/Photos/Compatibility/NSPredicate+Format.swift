import Foundation

// swift-corelibs-foundation declares NSPredicate(format:) unavailable
// (it has no key-value coding). These initializers take its place: they
// parse PhotoKit's format language and keep the result inside the predicate,
// where fetches read it back. Parsing happens here, once, as on Apple
// platforms, so a syntax error traps at the line that wrote it.

/// Hands a predicate's parsed form back out of its block.
private final class ParsedPredicateProbe {
    var parsed: ParsedPredicate?
}

extension NSPredicate {
    /// Creates a predicate from a format string and its arguments.
    ///
    /// Traps, naming the position, when the format cannot be parsed, as
    /// Apple's raises an exception; use
    /// ``NSPredicate/init(validatingFormat:argumentArray:)`` to get an error
    /// instead. Cost: one parse of the format.
    public convenience init(format predicateFormat: String, _ args: any CVarArg...) {
        self.init(format: predicateFormat, argumentArray: args)
    }

    /// Creates a predicate from a format string and an array of arguments.
    /// Traps when the format cannot be parsed; see ``init(format:_:)``.
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        do {
            try self.init(validatingFormat: predicateFormat, argumentArray: arguments)
        } catch {
            fatalError("Unable to parse the format string \"\(predicateFormat)\": \(error)")
        }
    }

    /// Creates a predicate from a format string, throwing a
    /// ``PHPredicateError`` that names the position of the problem instead of
    /// trapping. For servers and command-line tools taking user input.
    public convenience init(validatingFormat predicateFormat: String, argumentArray arguments: [Any]?) throws(PHPredicateError) {
        let parsed = try PredicateParser.parse(predicateFormat, arguments: arguments ?? [])
        self.init { object, _ in
            if let probe = object as? ParsedPredicateProbe {
                probe.parsed = parsed
                return true
            }
            return false
        }
    }

    /// The parsed form of a predicate made by these initializers, of an
    /// `NSPredicate(value:)`, or of a compound of such predicates; nil for
    /// any other predicate (one made from a block, say).
    var parsedForm: ParsedPredicate? {
        if let compound = self as? NSCompoundPredicate {
            var operands: [PredicateNode] = []
            for subpredicate in compound.subpredicates {
                guard let parsed = subpredicate.parsedForm else { return nil }
                operands.append(parsed.root)
            }
            switch compound.compoundPredicateType {
            case .and: return ParsedPredicate(root: .and(operands), format: nil)
            case .or: return ParsedPredicate(root: .or(operands), format: nil)
            case .not:
                guard operands.count == 1 else { return nil }
                return ParsedPredicate(root: .not(operands[0]), format: nil)
            @unknown default: return nil
            }
        }
        let probe = ParsedPredicateProbe()
        let result = evaluate(with: probe)
        if let parsed = probe.parsed { return parsed }
        // NSPredicate(value:) answers the same for any object.
        guard result == evaluate(with: NSObject()) else { return nil }
        return ParsedPredicate(root: .constant(result), format: nil)
    }
}
