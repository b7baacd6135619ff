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
    /// Anything else is words. An empty query matches every asset. When
    /// nothing matches as typed, each word of four letters or more also
    /// matches the indexed words within an edit of it (two edits from eight
    /// letters), first letter kept: `baech` finds `beach`. Numbers are
    /// never corrected.
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
    ///   assets; milliseconds at a million assets for a selective word. A
    ///   search that finds nothing also reads the index's words beginning
    ///   with each word's letter, and queries again.
    public class func fetchAssets(matchingSearch query: String, options: PHFetchOptions?) throws -> PHFetchResult<PHAsset> {
        let search: SearchQuery
        do {
            search = try SearchQuery(query)
        } catch {
            throw PHPhotosError(storeError: error)
        }
        let library = PHPhotoLibrary.current
        let filter: StoreFilter<AssetAttribute>? = search.filters.isEmpty ? nil : .and(search.filters)
        let found = library.fetchAssets(scope: .search(search.match), options: options, extraFilter: filter)
        // Nothing found as typed: the words of four letters or more also match the indexed words an edit or two from them.
        let words = search.match.correctableWords
        guard found.count == 0, !words.isEmpty, let store = library.store else { return found }
        var corrected = search.match
        do {
            corrected.corrections = try store.searchCorrections(for: words)
        } catch {
            throw PHPhotosError(storeError: error)
        }
        guard !corrected.corrections.isEmpty else { return found }
        return library.fetchAssets(scope: .search(corrected), options: options, extraFilter: filter)
    }
}
