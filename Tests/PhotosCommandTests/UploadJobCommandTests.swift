import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `photos upload-jobs run`, the performer, as a process against a plain
/// HTTP server: it streams each job's original bytes with the
/// destination's method and headers, records every state, runs the
/// client's extension, and, killed mid-job, loses nothing when it starts
/// again: the job it was sending is sent again, and no succeeded job ever is.
@Suite(.tags(.slow)) struct UploadJobCommandTests {
    let tool: CommandLineTool

    init() throws {
        tool = try CommandLineTool()
    }

    private func jobs(_ library: PHPhotoLibrary, _ action: PHAssetResourceUploadJob.Action) -> [PHAssetResourceUploadJob] {
        library.withCurrentLibrary {
            let result = PHAssetResourceUploadJob.fetchJobs(action: action, options: nil)
            return result.objects(at: IndexSet(integersIn: 0..<result.count))
        }
    }

    @Test func jobsAreSentAndSurviveThePerformerBeingKilled() throws {
        try tool.run("init")
        for (index, name) in ["a.jpg", "b.jpg", "c.jpg"].enumerated() {
            try tool.photo(name, taken: Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 86_400), shade: Double(index) * 60)
        }
        #expect(try tool.run("import", "card").status == 0)
        let server = try PlainHTTPServer(in: tool.directory.appendingPathComponent("received"))
        let library = try PHPhotoLibrary(url: tool.library, clientIdentifier: nil)
        let marker = tool.directory.appendingPathComponent("extension-ran")
        let options = PHAssetResourceUploadJobOptions()
        options.extensionCommand = ["/bin/sh", "-c", "echo \"$PHOTOS_LIBRARY\" >> '\(marker.path)'"]
        try library.enableUploadJobExtension(with: options)
        let assets = library.withCurrentLibrary { () -> [PHAsset] in
            let options = PHFetchOptions()
            options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
            let result = PHAsset.fetchAssets(with: options)
            return result.objects(at: IndexSet(integersIn: 0..<result.count))
        }
        let resources = library.withCurrentLibrary { assets.map { PHAssetResource.assetResources(for: $0)[0] } }
        try library.performChangesAndWait {
            for (resource, path) in zip(resources, ["/ok", "/slow", "/fail"]) {
                var request = URLRequest(url: server.url(path))
                request.httpMethod = "PUT"
                request.setValue("backup-token", forHTTPHeaderField: "X-Token")
                PHAssetResourceUploadJobChangeRequest.creationRequestForJob(destination: request, resource: resource)
            }
        }

        // Killed while the destination holds its answer to the second job.
        let (performer, _, _) = try tool.start(["upload-jobs", "run", "--interval", "0.05"])
        #expect(eventuallyBlocking { server.received.contains { $0.path == "/slow" } })
        kill(performer.processIdentifier, SIGKILL)
        performer.waitUntilExit()
        let afterKill = jobs(library, .process)
        #expect(afterKill.map(\.state) == [.pending, .registered], "the job being sent is pending; the next waits")
        #expect(jobs(library, .acknowledge).map(\.state) == [.succeeded])

        let finished = try tool.run("upload-jobs", "run", "--until-idle")
        #expect(finished.status == 0, "\(finished.errors)")
        #expect(jobs(library, .process).isEmpty)
        let done = jobs(library, .acknowledge)
        #expect(done.map(\.state) == [.succeeded, .succeeded, .failed])
        let originals = try resources.map { resource in
            try Data(contentsOf: tool.directory.appendingPathComponent("card").appendingPathComponent(resource.originalFilename))
        }
        for (job, original) in zip(done, originals) {
            let stored = try Data(contentsOf: server.folder.appendingPathComponent(job.responseHeaderFields?["x-stored"] ?? "none"))
            #expect(stored == original, "\(job): the original's bytes")
        }
        #expect(server.received.allSatisfy { $0.method == "PUT" && $0.headers["x-token"] == "backup-token" })
        #expect(server.received.filter { $0.path == "/ok" }.count == 1, "a succeeded job is sent once")
        #expect(server.received.filter { $0.path == "/slow" }.count == 2, "the job killed mid-send is sent again")
        #expect(done[2].error != nil && done[2].responseHeaderFields?["x-stored"] != nil)
        #expect((try? String(contentsOf: marker, encoding: .utf8))?.contains(tool.library.path) == true, "the extension ran")

        // Nothing more to send: a succeeded job is never sent again.
        let count = server.received.count
        #expect(try tool.run("upload-jobs", "run", "--until-idle").status == 0)
        #expect(server.received.count == count)
        // The failed job, retried once to a working destination.
        var retried = URLRequest(url: server.url("/ok/retried"))
        retried.httpMethod = "POST"
        let failed = jobs(library, .retry)[0]
        try library.performChangesAndWait { PHAssetResourceUploadJobChangeRequest(for: failed)?.retry(destination: retried) }
        #expect(try tool.run("upload-jobs", "run", "--until-idle").status == 0)
        #expect(jobs(library, .acknowledge).map(\.state) == [.succeeded, .succeeded, .succeeded])
        #expect(server.received.last?.path == "/ok/retried" && server.received.last?.method == "POST")
    }
}
