import Foundation

/// A face described as a point of 128 dimensions (dlib's ResNet descriptor):
/// two faces of one person lie within about 0.6 of each other (Euclidean),
/// of different people mostly farther. Stored as 512 bytes, little-endian
/// 32-bit floats (`face.descriptor`, and each person's mean in
/// `person.centroid`).
package struct FaceDescriptor: Sendable, Hashable {
    /// The number of dimensions.
    package static let length = 128
    package private(set) var values: [Float]

    /// A descriptor of `values`, which must be ``length`` long.
    package init(_ values: [Float]) {
        precondition(values.count == Self.length, "a face descriptor has \(Self.length) values, not \(values.count)")
        self.values = values
    }

    /// A descriptor read from its stored bytes; nil when they are not one.
    package init?(bytes: Data) {
        self.init(bytes: [UInt8](bytes))
    }

    /// A descriptor read from its stored bytes; nil when they are not one.
    package init?(bytes: [UInt8]) {
        guard bytes.count == Self.length * 4 else { return nil }
        values = (0..<Self.length).map { index in
            let offset = index * 4
            let bits = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            return Float(bitPattern: bits)
        }
    }

    /// Its stored form.
    package var bytes: Data {
        Data(
            values.flatMap { value in
                let bits = value.bitPattern
                return [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)]
            })
    }

    /// The mean of `descriptors` weighted by `weights` (each a count of faces
    /// it stands for; a negative one takes a face out): a person's centroid.
    /// Nil when the weights add up to nothing.
    package static func mean(_ descriptors: [FaceDescriptor], weights: [Int]) -> FaceDescriptor? {
        let total = weights.reduce(0, +)
        guard total > 0 else { return nil }
        var sum = [Float](repeating: 0, count: length)
        for (descriptor, weight) in zip(descriptors, weights) where weight != 0 {
            for index in 0..<length { sum[index] += descriptor.values[index] * Float(weight) }
        }
        return FaceDescriptor(sum.map { $0 / Float(total) })
    }

    /// The Euclidean distance to `other`.
    package func distance(to other: FaceDescriptor) -> Float {
        var sum: Float = 0
        for index in 0..<Self.length {
            let difference = values[index] - other.values[index]
            sum += difference * difference
        }
        return sum.squareRoot()
    }
}
