import CPhotosMedia
import Foundation

/// 8-bit RGBA pixels, upright (orientation applied), rows top to bottom.
/// The memory libvips decoded into is kept as it is, not copied, and freed
/// with the last copy of the value.
package struct RGBAPixels: Sendable, Equatable {
    package let width: Int
    package let height: Int
    private let storage: Storage

    /// Pixels from bytes (`width × height × 4` of them), copied.
    package init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height * 4, "RGBA pixels need width × height × 4 bytes")
        self.width = width
        self.height = height
        storage = Storage(copying: bytes)
    }

    private init(width: Int, height: Int, storage: Storage) {
        self.width = width
        self.height = height
        self.storage = storage
    }

    /// Pixels libvips allocated (`width × height × 4` bytes), taken as they are.
    init(taking pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int) {
        self.init(width: width, height: height, storage: Storage(taking: pixels, count: width * height * 4))
    }

    /// A copy of the bytes, `width × height × 4` of them. Cost: one copy.
    package var bytes: [UInt8] {
        Array(UnsafeRawBufferPointer(start: storage.pointer, count: storage.count))
    }

    /// Reads the bytes in place.
    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage.pointer, count: storage.count))
    }

    package static func == (lhs: RGBAPixels, rhs: RGBAPixels) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height
            && (lhs.storage === rhs.storage || memcmp(lhs.storage.pointer, rhs.storage.pointer, lhs.storage.count) == 0)
    }

    /// Takes the pixels a C call decodes, which it allocates for us to free.
    static func receive(
        label: String,
        _ call: (inout UnsafeMutablePointer<UInt8>?, inout Int32, inout Int32) -> Int32
    ) throws(MediaError) -> RGBAPixels {
        guard Vips.isReady else { throw MediaError(file: label, reason: "libvips failed to initialise") }
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        if let failure = Vips.run({ call(&pixels, &width, &height) }) {
            throw MediaError(file: label, reason: "the image cannot be decoded: \(failure)")
        }
        guard let pixels else { throw MediaError(file: label, reason: "the image cannot be decoded: libvips returned no pixels") }
        return RGBAPixels(taking: pixels, width: Int(width), height: Int(height))
    }

    /// Pixel memory, from libvips or from Swift, freed as it was allocated.
    private final class Storage: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        let count: Int
        private let fromLibvips: Bool

        init(taking pointer: UnsafeMutablePointer<UInt8>, count: Int) {
            self.pointer = UnsafeMutableRawPointer(pointer)
            self.count = count
            fromLibvips = true
        }

        init(copying bytes: [UInt8]) {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
            bytes.withUnsafeBytes { if let base = $0.baseAddress { memory.copyMemory(from: base, byteCount: bytes.count) } }
            pointer = memory
            count = bytes.count
            fromLibvips = false
        }

        deinit {
            if fromLibvips { pm_free(pointer) } else { pointer.deallocate() }
        }
    }
}
