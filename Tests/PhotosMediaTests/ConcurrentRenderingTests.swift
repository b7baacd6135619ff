import Foundation
import PhotosTestSupport
import Synchronization
import Testing

@testable import PhotosMedia

/// libvips driven from many threads at once, as `photos serve` drives it.
@Suite(.tags(.slow)) struct ConcurrentRenderingTests {
    let scratch: ScratchDirectory
    var directory: URL { scratch.url }

    init() throws {
        scratch = try ScratchDirectory("render")
    }

    /// 5,120 renders on 32 threads, each of a different size, so libvips builds
    /// a new resampling pipeline in every one. With liborc's vector code on,
    /// Debian's liborc 0.4.33 corrupted its code memory when threads compiled
    /// and freed programs together: `photos serve` died under load, and twice
    /// this many renders crashed about one run in two. Slow, and a race, so it
    /// can only make a regression likely to show.
    @Test func rendersOnManyThreadsAtOnce() throws {
        let sources = try (0..<4).map { index in
            let url = directory.appendingPathComponent("\(index).jpg")
            try SampleImage.jpeg(width: 300 + 37 * index, height: 200 + 23 * index, from: (0, 0, 0), to: (255, 200, 100)).write(to: url)
            return url
        }
        let failures = Mutex(0)
        let done = DispatchGroup()
        for thread in 0..<32 {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                for round in 0..<80 {
                    let index = thread * 80 + round
                    let edge = 20 + index % 111
                    let spec = RenderSpec(targetWidth: edge, targetHeight: edge, mode: index % 2 == 0 ? .fit : .fill, exact: true)
                    do {
                        let pixels = try ImageRenderer.render(fileAt: sources[index % sources.count], spec)
                        if max(pixels.width, pixels.height) != edge { failures.withLock { $0 += 1 } }
                        _ = try ImageRenderer.derivative(fileAt: sources[(index + 1) % sources.count], shortEdge: 100 + index % 97)
                    } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
            }
        }
        done.wait()
        #expect(failures.withLock { $0 } == 0)
    }
}
