import Foundation
import PhotosMedia

/// Files as cameras and phones write them, which no encoder Debian ships
/// makes whole: made from real encoders' output (libvips' JPEG and TIFF,
/// ffmpeg's MP4) with the camera's own structure added around it.
package enum CameraFiles {
    /// A camera raw file as exiftool reads it and libvips cannot: a TIFF
    /// whose header says Panasonic RAW, with the camera's `tags` (exiftool
    /// arguments) and, optionally, an embedded JPEG preview, written in
    /// `folder`. exiftool writes into such a file only when its pixels are
    /// one strip: 128 rows at most.
    package static func raw(width: Int, height: Int, preview: (width: Int, height: Int)?, tags: [String], in folder: URL) throws -> URL {
        let tiff = try ImageCodec.encode(
            try ImageCodec.decode(
                data: try SampleImage.jpeg(
                    width: width, height: height,
                    from: (0, 0, 0), to: (255, 255, 255))),
            as: .tiff)
        var bytes = [UInt8](tiff)
        bytes[2] = 0x55  // "IIU\0": Panasonic's raw header, which libtiff refuses
        let url = folder.appendingPathComponent(UUID().uuidString + ".rw2")
        try Data(bytes).write(to: url)
        var arguments = ["-q", "-overwrite_original"] + tags
        if let preview {
            let jpeg = folder.appendingPathComponent(UUID().uuidString + ".jpg")
            try SampleImage.jpeg(width: preview.width, height: preview.height, from: (20, 40, 60), to: (220, 180, 90), exif: ExifFields())
                .write(to: jpeg)
            arguments.append("-JpgFromRaw<=" + jpeg.path)
        }
        _ = try DebianTool.run("exiftool", arguments + [url.path])
        return url
    }

    /// The two XMP schemas Google's Motion Photos locate their video with.
    package enum MotionPhotoSchema: CaseIterable, Sendable {
        /// GCamera's `MicroVideoOffset`, in `MVIMG_` files.
        case microVideo
        /// The Container directory, in Pixel's `.MP.jpg` files.
        case container
    }

    /// A Google Motion Photo at `url`: the JPEG `still` with the XMP of
    /// `schema` locating `movie`, an MP4 appended after it.
    package static func motionPhoto(_ url: URL, still: Data, movie: Data, schema: MotionPhotoSchema) throws {
        switch schema {
        case .microVideo:
            try still.write(to: url)
            _ = try DebianTool.run(
                "exiftool",
                [
                    "-q", "-overwrite_original", "-XMP-GCamera:MicroVideo=1", "-XMP-GCamera:MicroVideoVersion=1",
                    "-XMP-GCamera:MicroVideoOffset=\(movie.count)", url.path,
                ])
        case .container:
            let xmp = """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                 <rdf:Description rdf:about="" xmlns:Container="http://ns.google.com/photos/1.0/container/"
                   xmlns:Item="http://ns.google.com/photos/1.0/container/item/" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
                   GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1">
                  <Container:Directory><rdf:Seq>
                   <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0"/></rdf:li>
                   <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\(movie.count)"/></rdf:li>
                  </rdf:Seq></Container:Directory>
                 </rdf:Description></rdf:RDF></x:xmpmeta>
                """
            let body = Data("http://ns.adobe.com/xap/1.0/\0".utf8) + Data(xmp.utf8)
            try (still.prefix(2) + Data([0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)]) + body + still.dropFirst(2))
                .write(to: url)
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: movie)
    }
}
