import Foundation
import Synchronization

// Apple's `NSPredicate(format:_:)` takes `CVarArg...`, and on Apple platforms
// dates, numbers, arrays and sets qualify by bridging to Objective-C objects
// (`lastLaunchDate as CVarArg`). On Linux they are not `CVarArg`, so that
// client code would not compile. These conformances make it compile;
// `NSPredicate` reads such arguments by their type, never through their C
// encoding.
//
// A C-style formatter (`String(format:)`) does read the encoding, and on
// Linux its `%@` only understands NSString, so each value encodes as an
// NSString of its description, kept alive long enough for the call to finish.

/// Keeps the last NSStrings handed to C formatters alive: the encoding is read
/// and used within one formatting call, so a bounded ring is enough.
private let recentEncodings = Mutex<(strings: [NSString?], next: Int)>((Array(repeating: nil, count: 1024), 0))

func describedEncoding(_ value: Any) -> [Int] {
    let string = NSString(string: String(describing: value))
    recentEncodings.withLock { ring in
        ring.strings[ring.next] = string
        ring.next = (ring.next + 1) % ring.strings.count
    }
    return string._cVarArgEncoding
}

extension Date: @retroactive CVarArg {
    /// Encodes the date as an NSString of its description, for C formatters.
    public var _cVarArgEncoding: [Int] { describedEncoding(self) }
}

extension NSDate: @retroactive CVarArg {
    /// Encodes the date as an NSString of its description, for C formatters.
    public var _cVarArgEncoding: [Int] { describedEncoding(self) }
}

extension NSNumber: @retroactive CVarArg {
    /// Encodes the number as an NSString of its description, for C formatters.
    public var _cVarArgEncoding: [Int] { describedEncoding(self) }
}

extension NSArray: @retroactive CVarArg {
    /// Encodes the array as an NSString of its description, for C formatters.
    public var _cVarArgEncoding: [Int] { describedEncoding(self) }
}

extension NSSet: @retroactive CVarArg {
    /// Encodes the set as an NSString of its description, for C formatters.
    public var _cVarArgEncoding: [Int] { describedEncoding(self) }
}

extension Array: @retroactive CVarArg {
    /// Encodes the array as an NSString of its description, for C formatters.
    public var _cVarArgEncoding: [Int] { describedEncoding(self) }
}

extension Set: @retroactive CVarArg {
    /// Encodes the set as an NSString of its description, for C formatters.
    public var _cVarArgEncoding: [Int] { describedEncoding(self) }
}
