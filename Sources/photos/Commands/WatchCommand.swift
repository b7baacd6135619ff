import ArgumentParser
import Foundation
import Photos

/// `photos watch`: a live fetch and its change details.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Keep a fetch open and print each change to it as it happens, from any process.",
        discussion: """
            Prints removed, inserted and changed indexes, moves, and the assets changed,
            one change per block of lines (one JSON object per line with --json). Stops
            on Ctrl-C, or after --count changes.

            Examples:
              photos watch
              photos watch --where 'favorite == YES' --json
              photos watch --album Summer --count 1
            """)

    @Option(name: .customLong("where"), help: ArgumentHelp("Watch only assets matching this predicate.", valueName: "predicate"))
    var predicate: String?

    @Option(help: ArgumentHelp("Sort key, as for photos ls.", valueName: "key[:desc]"))
    var sort: String?

    @Option(help: ArgumentHelp("Watch this album's assets.", valueName: "name|id"))
    var album: String?

    @Option(help: "Stop after this many changes.")
    var count: Int?

    @OptionGroup var options: LibraryOptions

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func run() throws {
        let fetchOptions = try ListCommand.fetchOptions(predicate: predicate, sort: sort)
        let library = try options.open()
        let result = try library.withCurrentLibrary {
            try album.map { PHAsset.fetchAssets(in: try Lookup.album($0), options: fetchOptions) } ?? PHAsset.fetchAssets(with: fetchOptions)
        }
        let stop = DispatchSemaphore(value: 0)
        let printer = ChangePrinter(result: result, json: options.json, limit: count)
        printer.onLimit = { stop.signal() }
        let availability = AvailabilityWatcher()
        availability.onUnavailable = { stop.signal() }
        library.register(printer)
        library.register(availability)
        if !options.quiet {
            Output.errorLine("watching \(result.count) assets; Ctrl-C stops")
        }
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
        for source in sources {
            source.setEventHandler { stop.signal() }
            source.resume()
        }
        stop.wait()
        library.unregisterChangeObserver(printer)
        library.unregisterAvailabilityObserver(availability)
        try options.requireAvailable(library)
    }
}

/// Stops `watch` when its library becomes unavailable (removed, damaged),
/// rather than going on silently with nothing to watch.
final class AvailabilityWatcher: NSObject, PHPhotoLibraryAvailabilityObserver, @unchecked Sendable {
    var onUnavailable: (() -> Void)?

    func photoLibraryDidBecomeUnavailable(_ photoLibrary: PHPhotoLibrary) {
        onUnavailable?()
    }
}

/// Prints the change details of one fetch result as changes arrive.
final class ChangePrinter: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
    private var result: PHFetchResult<PHAsset>
    private let json: Bool
    private let limit: Int?
    private var printed = 0
    var onLimit: (() -> Void)?

    init(result: PHFetchResult<PHAsset>, json: Bool, limit: Int?) {
        self.result = result
        self.json = json
        self.limit = limit
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        guard let details = changeInstance.changeDetails(for: result) else { return }
        result = details.fetchResultAfterChanges
        var moves: [[Int]] = []
        if details.hasIncrementalChanges { details.enumerateMoves { moves.append([$0, $1]) } }
        let indexes = { (set: IndexSet?) in set.map(Array.init) ?? [] }
        let changed = details.changedObjects.map(\.localIdentifier)
        if json {
            Output.jsonLine(
                [
                    "count": result.count, "incremental": details.hasIncrementalChanges,
                    "removed": indexes(details.removedIndexes), "inserted": indexes(details.insertedIndexes),
                    "changed": indexes(details.changedIndexes), "moves": moves,
                    "insertedObjects": details.insertedObjects.map(\.localIdentifier),
                    "removedObjects": details.removedObjects.map(\.localIdentifier), "changedObjects": changed,
                ] as [String: Any])
        } else if details.hasIncrementalChanges {
            Output.line(
                "change: \(result.count) assets; removed \(indexes(details.removedIndexes)), inserted \(indexes(details.insertedIndexes)), "
                    + "changed \(indexes(details.changedIndexes)), moves \(moves.map { "\($0[0])->\($0[1])" })")
            for asset in details.insertedObjects { Output.line("  + \(asset.localIdentifier)") }
            for asset in details.removedObjects { Output.line("  - \(asset.localIdentifier)") }
            for identifier in changed { Output.line("  ~ \(identifier)") }
        } else {
            Output.line("change: \(result.count) assets; too large to describe item by item")
        }
        fflush(nil)  // each change reaches a pipe as it happens
        printed += 1
        if let limit, printed >= limit { onLimit?() }
    }
}
