import Foundation
import PhotosStore

/// Reports failures that PhotoKit's API has no way to return (a fetch whose
/// database read fails returns an empty result), on standard error. A
/// client without read access is told once per process, not at every fetch;
/// a read stopped because nobody waits for it any more is not a failure.
enum Diagnostics {
    private static let accessDenial = Throttle()

    static func report(_ error: any Error, while activity: String) {
        if case StoreError.accessDenied = error, !accessDenial.claim(interval: .infinity) { return }
        if case StoreError.stopped(.abandoned, _) = error { return }
        FileHandle.standardError.write(Data("Photos: error while \(activity): \(error)\n".utf8))
    }
}
