import Foundation
import Testing

@testable import PhotosSQLite
@testable import PhotosStore

@Suite struct LibraryLocationCheckTests {
    /// An entry `readdir` returns may end exactly where mapped memory ends.
    /// Its name must be read without touching a byte past its NUL: here the
    /// next page is inaccessible, so reading a whole `dirent` would fault.
    @Test func namesAreReadWithinTheirEntry() throws {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapping = try #require(mmap(nil, 2 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        try #require(mapping != MAP_FAILED)
        defer { munmap(mapping, 2 * pageSize) }
        try #require(mprotect(mapping + pageSize, pageSize, PROT_NONE) == 0)

        func entry(named name: String) throws -> UnsafePointer<dirent> {
            let bytes = Array(name.utf8) + [0]
            let start = mapping + pageSize - bytes.count - LibraryLocationCheck.direntNameOffset
            try #require(Int(bitPattern: start) % MemoryLayout<dirent>.alignment == 0, "the entry must be aligned as readdir aligns it")
            memset(start, 0, LibraryLocationCheck.direntNameOffset)
            bytes.withUnsafeBytes { (start + LibraryLocationCheck.direntNameOffset).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            return UnsafePointer(start.assumingMemoryBound(to: dirent.self))
        }

        #expect(LibraryLocationCheck.hiddenName(of: try entry(named: ".sync_abc.db")) == ".sync_abc.db")
        #expect(LibraryLocationCheck.hiddenName(of: try entry(named: "IMG_0001.jpg")) == nil)
    }

    /// The file system holding a path is the one mounted at the longest
    /// mount point above it, as /proc/self/mountinfo lists them.
    @Test func theLongestMountPointAboveAPathNamesItsFileSystem() {
        #expect(LibraryLocationCheck.mountedFileSystemType(containing: "/proc/self/status") == "proc")
        #expect(LibraryLocationCheck.mountedFileSystemType(containing: "/sys/kernel") == "sysfs")
        #expect(LibraryLocationCheck.mountedFileSystemType(containing: "/") != nil)
    }

    /// A file the kernel writes is read to its end, past the 4 KiB that
    /// Foundation returns of it: this process's memory map, which its
    /// libraries make longer than that, compared with its line count read
    /// by another program.
    @Test func aKernelFileIsReadWhole() throws {
        let maps = try #require(KernelFiles.contents(atPath: "/proc/self/maps"))
        try #require(maps.count > 4096, "the map is long enough to tell")
        #expect(maps.last == UInt8(ascii: "\n"), "the last line is whole")
        let lines = maps.split(separator: UInt8(ascii: "\n")).count
        #expect(lines > 4096 / 100, "\(lines) lines")
        #expect(KernelFiles.contents(atPath: "/proc/no-such-file") == nil)
    }
}
