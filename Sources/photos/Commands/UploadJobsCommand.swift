import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import Photos

/// `photos upload-jobs run`: what plays the part of Apple's upload daemon.
struct UploadJobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload-jobs",
        abstract: "Perform upload jobs: send each job's resource to its destination, and run the apps' extensions.",
        discussion: """
            Apps create upload jobs with PHAssetResourceUploadJobChangeRequest; on Apple's
            systems a daemon sends them. Here `photos upload-jobs run` does: for each library
            named, it sends the jobs of every client whose extension is enabled, oldest first,
            streaming each resource's original bytes with the destination request's method
            and headers, and records each job's state in the library (pending before a byte
            goes, then succeeded on an HTTP 2xx answer, with the answer's headers, or failed).
            A download-only job makes the file local. After a client's jobs move, it runs the
            client's registered extension command (PHAssetResourceUploadJobOptions.extensionCommand)
            until it reports it is caught up.

            Stopped at any point, it loses nothing: a job it was sending is pending, and is
            sent again when it starts; a job that succeeded is never sent again.

            Examples:
              photos upload-jobs run                           until stopped (Ctrl-C)
              photos upload-jobs run --library A --library B   several libraries
              photos upload-jobs run --until-idle              until no job is left to send
            """,
        subcommands: [Run.self])

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Perform upload jobs until stopped, or until idle.")

        @Option(name: .customLong("library"), help: ArgumentHelp("A library whose jobs to perform (repeatable).", valueName: "location"))
        var libraries: [String] = []

        @Flag(help: "Stop once no job is left to send and every extension is caught up.")
        var untilIdle = false

        @Option(help: ArgumentHelp("Seconds between looks for new jobs when idle.", valueName: "seconds"))
        var interval: Double = 1

        @Flag(name: .long, help: "Print nothing but errors.")
        var quiet = false

        func validate() throws {
            guard interval >= 0.05, interval <= 3600 else { throw ValidationError("--interval is 0.05 to 3600 seconds") }
        }

        func run() async throws {
            let urls = libraries.isEmpty ? [PHPhotoLibrary.defaultURL()] : libraries.map(PHPhotoLibrary.libraryURL)
            let quiet = self.quiet
            let say: @Sendable (String) -> Void = { line in
                if !quiet { Output.line(line) }
            }
            var performers: [UploadJobPerformer] = []
            for url in urls {
                let library: PHPhotoLibrary
                do {
                    // The performer is the library's owner: it sends every client's jobs.
                    library = try PHPhotoLibrary(url: url, options: [.mustExist], clientIdentifier: nil)
                } catch {
                    throw CLIError.library(error)
                }
                performers.append(UploadJobPerformer(queue: UploadJobQueue(library: library), libraryLocation: url, say: say))
            }
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                while !Task.isCancelled {
                    var busy = false
                    for performer in performers {
                        busy = try await performer.performRound(with: client) || busy
                    }
                    if !busy && untilIdle { break }
                    if !busy { try await Task.sleep(for: .seconds(interval)) }
                }
            } catch {
                try? await client.shutdown()
                throw CLIError.library(error)
            }
            try await client.shutdown()
        }
    }
}

/// Performs one library's jobs: a round sends what is waiting, a batch at
/// a time, then runs the extensions of the clients whose jobs moved.
final class UploadJobPerformer: Sendable {
    let queue: UploadJobQueue
    let libraryLocation: URL
    let say: @Sendable (String) -> Void

    /// The longest a destination may take to answer a job.
    static let timeout = TimeAmount.minutes(10)
    /// The most an answer's body is read, for a failure's message.
    static let answerLimit = 64 * 1024

    init(queue: UploadJobQueue, libraryLocation: URL, say: @escaping @Sendable (String) -> Void) {
        self.queue = queue
        self.libraryLocation = libraryLocation
        self.say = say
    }

    /// Sends the waiting jobs and runs the extensions that have work;
    /// whether anything was done.
    func performRound(with client: HTTPClient) async throws -> Bool {
        var moved = Set<String>()
        while true {
            let work = try queue.next(limit: 16)
            if work.isEmpty { break }
            for job in work {
                try queue.start(job.uuid)
                let outcome = await perform(job, with: client)
                try queue.finish(job.uuid, succeeded: outcome.succeeded, responseHeaders: outcome.headers, error: outcome.error)
                say("\(job.uuid): \(outcome.succeeded ? "succeeded" : "failed: \(outcome.error ?? "")")")
                moved.insert(job.client)
            }
        }
        let extensions = try queue.extensions().filter { $0.command != nil && moved.contains($0.client) }
        for registered in extensions {
            try await runExtension(registered.command!, client: registered.client)
        }
        return !moved.isEmpty
    }

    private struct Outcome {
        var succeeded: Bool
        var headers: [String: String]?
        var error: String?
    }

    private func perform(_ job: UploadJobQueue.Work, with client: HTTPClient) async -> Outcome {
        if job.isDownloadOnly {
            do {
                try queue.makeLocal(storedPath: job.storedPath ?? "")
                return Outcome(succeeded: true)
            } catch {
                return Outcome(succeeded: false, error: "\(error)")
            }
        }
        guard let bytes = job.bytes else { return Outcome(succeeded: false, error: "the resource is gone from the library") }
        guard let destination = job.destination else { return Outcome(succeeded: false, error: "the job has no destination") }
        var request = HTTPClientRequest(url: destination.url)
        request.method = .init(rawValue: destination.method.uppercased())
        for (name, value) in destination.headers { request.headers.add(name: name, value: value) }
        switch bytes {
        case .file(let url):
            let size = ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.int64Value ?? 0
            request.body = .stream(FileChunks(url: url), length: .known(size))
        case .remote(let size, let read):
            request.body = .stream(RemoteChunks(size: size, read: read), length: .known(size))
        }
        do {
            let response = try await client.execute(request, timeout: Self.timeout)
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name.lowercased()] = header.value }
            let body = try await response.body.collect(upTo: Self.answerLimit)
            guard (200..<300).contains(response.status.code) else {
                let text = String(buffer: body).prefix(300)
                return Outcome(succeeded: false, headers: headers, error: "the destination answered \(response.status.code): \(text)")
            }
            return Outcome(succeeded: true, headers: headers)
        } catch {
            return Outcome(succeeded: false, error: "the destination could not be reached: \(error)")
        }
    }

    /// Runs a client's extension command until it reports it is caught up
    /// (or failed), at most a few times a round.
    private func runExtension(_ command: [String], client: String) async throws {
        for _ in 0..<5 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
            var environment = ProcessInfo.processInfo.environment
            environment["PHOTOS_LIBRARY"] = libraryLocation.isFileURL ? libraryLocation.path : libraryLocation.absoluteString
            environment["PHOTOS_CLIENT_ID"] = client.isEmpty ? nil : client
            process.environment = environment
            do {
                try process.run()
            } catch {
                say("the extension of \(client.isEmpty ? "the owner" : client) cannot run: \(error.localizedDescription)")
                return
            }
            await withCheckedContinuation { continuation in
                process.terminationHandler = { _ in continuation.resume() }
                if !process.isRunning {
                    process.terminationHandler = nil
                    continuation.resume()
                }
            }
            let result = PHBackgroundResourceUploadProcessingResult(exitStatus: process.terminationStatus)
            if result != .processing { return }
        }
    }
}

/// A file's bytes, a chunk at a time.
private struct FileChunks: AsyncSequence, Sendable {
    let url: URL

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?

        mutating func next() async throws -> ByteBuffer? {
            guard let handle, let data = try handle.read(upToCount: 256 * 1024), !data.isEmpty else {
                try? handle?.close()
                return nil
            }
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: try? FileHandle(forReadingFrom: url))
    }
}

/// A remote object's bytes, a range at a time.
private struct RemoteChunks: AsyncSequence, Sendable {
    let size: Int64
    let read: @Sendable (ClosedRange<Int64>) async throws -> Data

    struct AsyncIterator: AsyncIteratorProtocol {
        let size: Int64
        let read: @Sendable (ClosedRange<Int64>) async throws -> Data
        var offset: Int64 = 0

        mutating func next() async throws -> ByteBuffer? {
            guard offset < size else { return nil }
            let end = Swift.min(size, offset + 4 * 1024 * 1024) - 1
            let data = try await read(offset...end)
            offset = end + 1
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(size: size, read: read)
    }
}
