import ArgumentParser
import Foundation
import Photos

/// `photos backup --to URL`: a backup app written only against Apple's
/// documented PhotoKit API (the upload jobs of iOS 26 and 27), as an
/// example of one: it follows the library's persistent history with its
/// token, asks for each new asset's original to be uploaded to another
/// server's `POST /v1/backup/resources`, and acknowledges (or retries once)
/// what the performer (`photos upload-jobs run`) has sent.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up the library's originals to another photos server, incrementally, through upload jobs.",
        discussion: """
            Each run sends what was added since the last (the first run sends everything),
            as upload jobs that `photos upload-jobs run` performs; it waits until they are
            sent. It keeps its change token in a state file (--state), so a run that stops
            resumes where it was: jobs already made are in the library, and the token moves
            only once every asset up to it has a job. The server keeps each file once,
            however often it is sent.

            Examples:
              photos upload-jobs run &       # performs the jobs (Apple's daemon's part)
              photos backup --to https://photos.example.net --token "$TOKEN"
            """)

    @Option(help: ArgumentHelp("The server to back up to.", valueName: "url"))
    var to: String

    @Option(help: ArgumentHelp("A token of that server that may add assets (add-only is enough).", valueName: "token"))
    var token: String

    @Option(help: ArgumentHelp("Where the backup keeps its change token.", valueName: "file"))
    var state: String?

    @Option(help: ArgumentHelp("Seconds to wait for the jobs to be sent.", valueName: "seconds"))
    var wait: Double = 600

    @OptionGroup var options: LibraryOptions

    func validate() throws {
        guard let url = URL(string: to), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--to is the server's http or https URL")
        }
        guard !token.isEmpty, !token.contains(where: \.isNewline) else { throw ValidationError("--token is the server's bearer token") }
        guard wait > 0, wait <= 86_400 else { throw ValidationError("--wait is 1 to 86400 seconds") }
    }

    func run() throws {
        let library = try options.open()
        let stateURL = state.map { URL(fileURLWithPath: $0) } ?? options.url.deletingLastPathComponent().appendingPathComponent(".photos-backup-state")
        do {
            if !library.uploadJobExtensionEnabled { try library.enableUploadJobExtension(with: nil) }
            let backup = Backup(library: library, destination: URL(string: to)!.appendingPathComponent("v1/backup/resources"), token: token, stateURL: stateURL)
            let queued = try backup.queueNewAssets()
            options.say("Queued \(queued) asset\(queued == 1 ? "" : "s") for upload")
            let outcome = try backup.waitForJobs(timeout: wait)
            options.say("Sent \(outcome.succeeded), failed \(outcome.failed)")
            if options.json { Output.json(["queued": queued, "succeeded": outcome.succeeded, "failed": outcome.failed]) }
            if outcome.failed > 0 { throw CLIError.library(BackupFailure("\(outcome.failed) upload jobs failed twice: see the server's answers")) }
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.library(error)
        }
    }
}

/// The backup app itself, on the public API.
private struct Backup {
    let library: PHPhotoLibrary
    let destination: URL
    let token: String
    let stateURL: URL

    /// Creates a job for the original of every asset added since the kept
    /// token (every asset, the first time), the token kept after each block.
    func queueNewAssets() throws -> Int {
        let saved = (try? Data(contentsOf: stateURL)).flatMap {
            try? NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: $0)
        }
        var identifiers: [String] = []
        let current = library.currentChangeToken
        if let saved {
            for change in try library.fetchPersistentChanges(since: saved) {
                identifiers += try change.changeDetails(for: .asset).insertedLocalIdentifiers.sorted()
            }
        } else {
            let options = PHFetchOptions()
            options.includeHiddenAssets = true
            let all = library.withCurrentLibrary { PHAsset.fetchAssets(with: options) }
            all.enumerateObjects { asset, _, _ in identifiers.append(asset.localIdentifier) }
        }
        var queued = 0
        var remaining = identifiers[...]
        while !remaining.isEmpty {
            // As many as the limit leaves room for: finished jobs are acknowledged first.
            try acknowledgeFinished()
            let open = library.withCurrentLibrary { PHAssetResourceUploadJob.fetchJobs(action: .process, options: nil).count }
            let room = PHAssetResourceUploadJob.jobLimit - open
            guard room > 0 else {
                Thread.sleep(forTimeInterval: 0.2)
                continue
            }
            let batch = Array(remaining.prefix(room))
            remaining = remaining.dropFirst(batch.count)
            let resources = library.withCurrentLibrary { () -> [PHAssetResource] in
                let options = PHFetchOptions()
                options.includeHiddenAssets = true
                let assets = PHAsset.fetchAssets(withLocalIdentifiers: batch, options: options)
                return assets.objects(at: IndexSet(integersIn: 0..<assets.count)).compactMap { asset in
                    PHAssetResource.assetResources(for: asset).first { [.photo, .video].contains($0.type) }
                }
            }
            try library.performChangesAndWait {
                for resource in resources {
                    PHAssetResourceUploadJobChangeRequest.creationRequestForJob(destination: request(for: resource), resource: resource)
                }
            }
            queued += resources.count
        }
        try NSKeyedArchiver.archivedData(withRootObject: current, requiringSecureCoding: true).write(to: stateURL, options: .atomic)
        return queued
    }

    /// The request that sends `resource` to the server.
    private func request(for resource: PHAssetResource) -> URLRequest {
        var request = URLRequest(url: destination)
        request.httpMethod = "POST"
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let name = resource.originalFilename.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "._-"))) ?? "resource"
        request.setValue(name, forHTTPHeaderField: "X-Photos-Filename")
        request.setValue(resource.assetLocalIdentifier, forHTTPHeaderField: "X-Photos-Source-Asset")
        request.setValue(resource.type == .video ? "video" : "photo", forHTTPHeaderField: "X-Photos-Resource-Type")
        return request
    }

    /// Acknowledges the succeeded jobs and retries the failed ones once;
    /// counts what it acknowledged of each.
    @discardableResult
    func acknowledgeFinished() throws -> (succeeded: Int, failed: Int) {
        let (retryable, finished) = library.withCurrentLibrary { () -> ([PHAssetResourceUploadJob], [PHAssetResourceUploadJob]) in
            let retry = PHAssetResourceUploadJob.fetchJobs(action: .retry, options: nil)
            let acknowledge = PHAssetResourceUploadJob.fetchJobs(action: .acknowledge, options: nil)
            return (
                retry.objects(at: IndexSet(integersIn: 0..<retry.count)),
                acknowledge.objects(at: IndexSet(integersIn: 0..<acknowledge.count))
            )
        }
        let retried = Set(retryable.map(\.localIdentifier))
        let done = finished.filter { !retried.contains($0.localIdentifier) }
        guard !retryable.isEmpty || !done.isEmpty else { return (0, 0) }
        try library.performChangesAndWait {
            for job in retryable { PHAssetResourceUploadJobChangeRequest(for: job)?.retry(destination: nil) }
            for job in done { PHAssetResourceUploadJobChangeRequest(for: job)?.acknowledge() }
        }
        return (done.filter { $0.state == .succeeded }.count, done.filter { $0.state == .failed }.count)
    }

    /// Waits until no job is left to send, acknowledging as they finish.
    func waitForJobs(timeout: TimeInterval) throws -> (succeeded: Int, failed: Int) {
        var total = (succeeded: 0, failed: 0)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let counted = try acknowledgeFinished()
            total.succeeded += counted.succeeded
            total.failed += counted.failed
            let open = library.withCurrentLibrary {
                PHAssetResourceUploadJob.fetchJobs(action: .process, options: nil).count
                    + PHAssetResourceUploadJob.fetchJobs(action: .acknowledge, options: nil).count
            }
            if open == 0 { return total }
            guard Date() < deadline else {
                throw BackupFailure("\(open) upload jobs are still waiting: is `photos upload-jobs run` running?")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }
}

/// Why a backup did not finish.
private struct BackupFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
