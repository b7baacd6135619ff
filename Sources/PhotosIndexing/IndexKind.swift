/// A kind of understanding the indexer keeps, each with its own position
/// in the library's history, so that the fast ones never wait for the slow.
public enum IndexKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// Where each asset was taken (city, region, country, named offline) and
    /// the words of its own metadata: caption, keywords, file name, camera.
    /// Microseconds an asset; it reads no file.
    case metadata
    /// Text read in each photo (signs, receipts, screenshots, documents) by
    /// Tesseract on the CPU. From about 50 ms for a screenshot to a second or
    /// more for a detailed photo, on one core.
    case text
    /// A perceptual hash of each asset's image, for finding photos that look
    /// alike (bursts, resaves, rescaled copies). A few milliseconds an asset:
    /// it reads the thumbnail.
    case similarity
    /// The faces in each photo, grouped into people as they are found
    /// (dlib on the CPU). About 0.1–0.4 s a photo, plus about 50 ms a face.
    case faces
}
