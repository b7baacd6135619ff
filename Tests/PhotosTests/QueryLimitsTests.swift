import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// `PHPhotoLibrary.withQueryLimits`: a fetch stopped by its limits is an
/// error of the work, not an empty result taken for an answer.
@Suite struct QueryLimitsTests {
    @Test func fetchesWithinTheLimitsAnswerAsUsual() throws {
        let test = try TestLibrary()
        try test.importDays(30)
        let counted = try PHPhotoLibrary.withQueryLimits(.init(statementDuration: .seconds(30))) {
            test.fetch { PHAsset.fetchAssets(with: nil).count }
        }
        #expect(counted == 30)
    }

    /// SQLite's statements run in this process, where the limits stop them
    /// at once; PostgreSQL's limit is a whole millisecond, which a small
    /// fetch may not reach (its own test counts to a billion there).
    @Test(.enabled(if: TestBackend.selected == .sqlite || TestBackend.selected == .sqliteObjectStorage, "SQLite's statements"))
    func aStoppedFetchThrowsInsteadOfAnsweringEmpty() throws {
        let test = try TestLibrary()
        try test.importDays(30)
        let late = expectPhotosError(.limitExceeded) {
            try PHPhotoLibrary.withQueryLimits(.init(statementDuration: .nanoseconds(1))) {
                test.fetch { PHAsset.fetchAssets(with: nil).count }
            }
        }
        #expect(late?.localizedDescription.contains("stopped") == true)
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "pixelWidth > 0 OR pixelHeight > 0")
        expectPhotosError(.userCancelled) {
            try PHPhotoLibrary.withQueryLimits(.init(statementDuration: .seconds(30), isAbandoned: { true })) {
                test.fetch { PHAsset.fetchAssets(with: options).count }
            }
        }
        #expect(test.fetch { PHAsset.fetchAssets(with: nil).count } == 30, "without limits, reads as before")
    }
}
