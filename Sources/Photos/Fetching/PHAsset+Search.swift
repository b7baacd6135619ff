import Foundation
import PhotosStore

extension PHAsset {
    /// The assets a search matches, best matches first and, among equally
    /// good ones, newest first (an OpenPhotoKit addition: Apple's PhotoKit
    /// has no search).
    ///
    /// The query is what a person types: words that must each begin a word
    /// of an asset's caption, keywords, file name, camera, place, people or
    /// the text read in it; `"quoted words"` in that order; `place:paris`,
    /// `person:anna`, `album:summer`; a year (`2019`) or month (`june`);
    /// `favorite`, `video`, `photo`, `screenshot`, `live`; `rating>=4`.
    /// Anything else is words. An empty query matches every asset.
    ///
    /// What can be found is what the library's indexer has read
    /// (`PhotosIndexing`, `photos index run`, and `photos serve` in the
    /// background); an asset it has not reached yet matches only by its
    /// date, album and own columns. The options' predicate, sort
    /// descriptors (which replace the ranking), limit, hidden and burst
    /// settings apply as in every fetch, and so does the reader's grant.
    ///
    /// - Throws: `PHPhotosError.limitExceeded` for a query over 1,000 bytes
    ///   or with more than 32 words and filters.
    /// - Complexity: one query of the full-text index joined with the
    ///   assets; milliseconds at a million assets for a selective word.
    public class func fetchAssets(matchingSearch query: String, options: PHFetchOptions?) throws -> PHFetchResult<PHAsset> {
        let search: SearchQuery
        do {
            search = try SearchQuery(query)
        } catch {
            throw PHPhotosError(storeError: error)
        }
        return PHPhotoLibrary.current.fetchAssets(
            scope: .search(search.match), options: options, extraFilter: search.filters.isEmpty ? nil : .and(search.filters))
    }
}
