import Foundation

/// Turns format arguments into predicate values by their type, as
/// NSPredicate does with Objective-C objects.
enum PredicateArgument {
    /// The value of an argument; nil when its type cannot appear in a predicate.
    static func value(of argument: Any) -> PredicateValue? {
        switch argument {
        case let value as PredicateValue: return value
        case let object as PHObject: return .object(localIdentifier: object.localIdentifier)
        case let date as Date: return .date(date)
        case let date as NSDate: return .date(date as Date)
        case let string as String: return .string(string)
        case let string as Substring: return .string(String(string))
        case let string as NSString: return .string(string as String)
        // Exact types first: on Linux, `1 as Any` also casts to Bool and to NSNumber.
        case let bool as Bool where type(of: argument) == Bool.self: return .bool(bool)
        case let integer as any BinaryInteger: return Int64(exactly: integer).map(PredicateValue.integer) ?? .real(Double(integer))
        case let real as any BinaryFloatingPoint: return .real(Double(real))
        case let number as NSNumber: return numberValue(number)
        case is NSNull: return .null
        case let array as NSArray: return list(array._fastEnumerationElements)
        case let set as NSSet: return list(set.allObjects)
        case let orderedSet as NSOrderedSet: return list(orderedSet.array)
        case let enumerable as any NSFastEnumeration: return list(enumerable._fastEnumerationElements)
        case let sequence as any Sequence: return list(Array(sequence))
        case let raw as any RawRepresentable: return value(of: raw.rawValue)
        default:
            // An Optional arrives boxed in Any: unwrap it, nil included.
            let mirror = Mirror(reflecting: argument)
            if mirror.displayStyle == .optional {
                return mirror.children.first.map { value(of: $0.value) } ?? .null
            }
            return nil
        }
    }

    private static func numberValue(_ number: NSNumber) -> PredicateValue {
        let real = number.doubleValue
        if real.rounded() == real, let integer = Int64(exactly: real) {
            return .integer(integer)
        }
        return .real(real)
    }

    private static func list(_ elements: [Any]) -> PredicateValue? {
        var values: [PredicateValue] = []
        for element in elements {
            guard let value = value(of: element) else { return nil }
            values.append(value)
        }
        return .list(values)
    }
}
