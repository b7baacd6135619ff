import Foundation

/// Reports failures that PhotoKit's API has no way to return (a fetch whose
/// database read fails returns an empty result), on standard error.
enum Diagnostics {
    static func report(_ error: any Error, while activity: String) {
        FileHandle.standardError.write(Data("Photos: error while \(activity): \(error)\n".utf8))
    }
}
