import CBenchVips
import Foundation
import GRDB
import PhotosStore

/// The mixed import's baseline: what importing a folder of photos and videos
/// of every common kind must do, done plainly, as a photo server without
/// PhotoKit would do it. One `exiftool -json` run reads every file's
/// metadata while, on every core, each still is copied, hashed, synced and
/// thumbnailed in sRGB by `vips_thumbnail` (``bench_import_still``), and each
/// video is copied, hashed and synced and its first frame made a 360-px
/// thumbnail by one ffmpeg process. A photo and a video sharing Apple's
/// content identifier become one asset. Then every row goes in one durable
/// transaction. What the engine does besides (a staging journal, the
/// ThumbHash placeholder, time zones, subtypes, history rows) it does not.
struct MixedImportBaseline {
    /// Where the files and rows go: ``ImportBaseline``'s folders and database.
    let storage: ImportBaseline

    /// What exiftool says of one file, as `-json -n` prints it.
    private struct Metadata: Decodable {
        var SourceFile: String
        var MIMEType: String?
        var DateTimeOriginal: String?
        var CreateDate: String?
        var GPSLatitude: Double?
        var GPSLongitude: Double?
        var ContentIdentifier: String?
        var Duration: Seconds?
    }

    /// A duration as exiftool prints it: seconds, or for some containers
    /// (WebM) "HH:MM:SS.fraction" even with `-n`.
    private struct Seconds: Decodable {
        var value: Double

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                value = number
            } else {
                value = try container.decode(String.self).split(separator: ":")
                    .reduce(0) { total, part in total * 60 + (Double(part) ?? 0) }
            }
        }
    }

    private static let videoExtensions: Set<String> = ["mov", "mp4", "m4v", "3gp", "avi", "mkv", "webm", "mts", "m2ts", "mpeg", "mpg"]

    /// Imports `urls`; returns how many assets it made.
    @discardableResult
    func importFiles(_ urls: [URL]) throws -> Int {
        let metadata = try readingMetadata(of: urls)
        let uuids = urls.map { _ in UUID().uuidString }
        let isVideo = urls.map { Self.videoExtensions.contains($0.pathExtension.lowercased()) }
        let results = ImportSlots<bench_imported_photo>(count: urls.count)
        DispatchQueue.concurrentPerform(iterations: urls.count) { index in
            let (original, thumbnail) = (original(uuids[index], urls[index]), thumbnail(uuids[index]))
            var file = bench_imported_photo()
            let status =
                isVideo[index]
                ? (bench_copy_hashing(urls[index].path, original.path, &file.content_hash) == 0 && Self.poster(of: original, to: thumbnail) ? 0 : -1)
                : bench_import_still(urls[index].path, original.path, thumbnail.path, &file)
            results.set(index, status == 0 ? file : nil)
        }
        let imported = try results.values.map { file in
            guard let file else { throw BenchError("the mixed import baseline failed on a file") }
            return file
        }
        let found = try metadata()
        let byPath = Dictionary(found.map { ($0.SourceFile, $0) }, uniquingKeysWith: { first, _ in first })
        // A photo and a video with one content identifier are one asset.
        var stillOfIdentifier: [String: Int] = [:]
        for (index, url) in urls.enumerated() where !isVideo[index] {
            if let identifier = byPath[url.path]?.ContentIdentifier { stillOfIdentifier[identifier] = index }
        }
        let pairedStill = urls.indices.map { index in
            isVideo[index] ? byPath[urls[index].path]?.ContentIdentifier.flatMap { stillOfIdentifier[$0] } : nil
        }
        let now = Date()
        try storage.pool.write { db in
            let asset = try db.makeStatement(sql: AssetRecord.insertSQL)
            let resource = try db.makeStatement(
                sql: """
                    INSERT INTO resource (asset_id, type, relative_path, original_filename, uniform_type_identifier, pixel_width, pixel_height, file_size)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            var assetOfFile: [Int: Int64] = [:]
            let order = urls.indices.sorted { !isVideo[$0] && isVideo[$1] }
            for index in order {
                let found = byPath[urls[index].path]
                let file = imported[index]
                if pairedStill[index] == nil {
                    let taken = (found?.DateTimeOriginal ?? found?.CreateDate).flatMap(ImportBaseline.exifDate.date(from:))
                    let location = found?.GPSLatitude.flatMap { latitude in found?.GPSLongitude.map { StoredLocation(latitude: latitude, longitude: $0) } }
                    let record = AssetRecord(
                        uuid: uuids[index], mediaType: isVideo[index] ? .video : .image,
                        pixelWidth: Int(file.pixel_width), pixelHeight: Int(file.pixel_height),
                        creationDate: taken ?? now, modificationDate: now, addedDate: now, duration: found?.Duration?.value ?? 0,
                        location: location, playbackStyle: isVideo[index] ? .video : .image, originalFilename: urls[index].lastPathComponent,
                        uniformTypeIdentifier: found?.MIMEType, contentHash: Self.text(file.content_hash))
                    try asset.execute(arguments: record.insertArguments.statementArguments)
                    assetOfFile[index] = db.lastInsertedRowID
                }
                let owner = pairedStill[index].flatMap { assetOfFile[$0] } ?? assetOfFile[index]!
                let size = FileStatus(atPath: original(uuids[index], urls[index]).path)?.size ?? 0
                try resource.execute(arguments: [
                    owner, pairedStill[index] != nil ? 9 : isVideo[index] ? 2 : 1,
                    "originals/" + original(uuids[index], urls[index]).lastPathComponent,
                    urls[index].lastPathComponent, found?.MIMEType,
                    file.pixel_width, file.pixel_height, size,
                ])
            }
        }
        return pairedStill.filter { $0 == nil }.count
    }

    /// Starts one exiftool run over `urls`; the returned function waits for
    /// it and decodes what it printed.
    private func readingMetadata(of urls: [URL]) throws -> () throws -> [Metadata] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments =
            [
                "-json", "-n", "-q", "-MIMEType", "-DateTimeOriginal", "-CreateDate", "-GPSLatitude", "-GPSLongitude",
                "-ContentIdentifier", "-Duration",
            ] + urls.map(\.path)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Read on a thread of its own, so that exiftool never blocks on a full pipe.
        let printed = ImportSlots<Data>(count: 1)
        let done = DispatchSemaphore(value: 0)
        Thread {
            printed.set(0, output.fileHandleForReading.readDataToEndOfFile())
            done.signal()
        }.start()
        return {
            done.wait()
            process.waitUntilExit()
            guard process.terminationStatus == 0, let json = printed.values[0] else { throw BenchError("exiftool failed on the mixed corpus") }
            return try JSONDecoder().decode([Metadata].self, from: json)
        }
    }

    /// The first frame of `video` as a 360-px short-edge JPEG at `thumbnail`,
    /// by one ffmpeg process.
    private static func poster(of video: URL, to thumbnail: URL) -> Bool {
        let arguments = [
            "/usr/bin/ffmpeg", "-v", "error", "-i", video.path, "-frames:v", "1",
            "-vf", "scale='if(gt(iw,ih),-2,min(360,iw))':'if(gt(iw,ih),min(360,ih),-2)'",
            "-q:v", "3", thumbnail.path,
        ]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        return bench_run(arguments[0], argv) == 0
    }

    private static func text<T>(_ characters: T) -> String {
        withUnsafeBytes(of: characters) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private func original(_ uuid: String, _ source: URL) -> URL {
        storage.original(uuid, pathExtension: source.pathExtension.lowercased())
    }
    private func thumbnail(_ uuid: String) -> URL { storage.thumbnail(uuid) }
}
