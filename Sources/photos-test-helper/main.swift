// Drives a library from a separate process, for the tests of concurrent
// processes. Usage:
//   photos-test-helper albums LIBRARY COUNT PREFIX       one change block per album
//   photos-test-helper assets LIBRARY COUNT IMAGE        one change block per asset
//   photos-test-helper count LIBRARY                     prints the numbers of albums and assets
import Foundation
import Photos

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("photos-test-helper: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: albums|assets|count LIBRARY ...") }
let library: PHPhotoLibrary
do {
    library = try PHPhotoLibrary(url: URL(fileURLWithPath: arguments[2]))
} catch {
    fail("cannot open \(arguments[2]): \(error.localizedDescription)")
}

switch arguments[1] {
case "albums" where arguments.count == 5:
    guard let count = Int(arguments[3]) else { fail("COUNT must be a number") }
    for index in 0..<count {
        do {
            try library.performChangesAndWait {
                _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "\(arguments[4])-\(index)")
            }
        } catch {
            fail("change block \(index) failed: \(error.localizedDescription)")
        }
    }
case "assets" where arguments.count == 5:
    guard let count = Int(arguments[3]) else { fail("COUNT must be a number") }
    let image = URL(fileURLWithPath: arguments[4])
    for index in 0..<count {
        do {
            try library.performChangesAndWait {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: image)
            }
        } catch {
            fail("change block \(index) failed: \(error.localizedDescription)")
        }
    }
case "count":
    library.withCurrentLibrary {
        let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count
        print(albums, PHAsset.fetchAssets(with: nil).count)
    }
default:
    fail("unknown command \(arguments[1])")
}
