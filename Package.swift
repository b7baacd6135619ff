// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "OpenPhotoKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Photos", targets: ["Photos"]),
        .executable(name: "photos", targets: ["photos"]),
    ],
    // A program that keeps its libraries on disk needs neither backend:
    // `.package(url: …, traits: [])` builds `Photos` without postgres-nio,
    // AsyncHTTPClient or SwiftNIO. The `photos` command and the server use both.
    traits: [
        .trait(name: "PostgreSQL", description: "Libraries in a PostgreSQL database (postgres://…), through postgres-nio."),
        .trait(name: "ObjectStorage", description: "Originals in S3-compatible object storage (s3://…), through AsyncHTTPClient."),
        .default(enabledTraits: ["PostgreSQL", "ObjectStorage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        // `swift package generate-documentation --target Photos` builds the DocC catalog.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libvips and libexif from Debian (libvips-dev, libexif-dev), found through pkg-config.
        // libvips' headers sit in /usr/include and need only GLib's include
        // paths, which gobject-2.0's pkg-config gives; vips.pc would also pull
        // in the private flags of every image library libvips links (-pthread
        // among them, which SwiftPM refuses with a warning).
        .systemLibrary(
            name: "CVips",
            pkgConfig: "gobject-2.0",
            providers: [.apt(["libvips-dev"])]
        ),
        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        // The cities of GeoNames (population 15,000 and more) with their time zones, from libgeonames0:
        // a photo's zone from where it was taken.
        // (No pkgConfig: geonames.pc brings gio's -pthread, which SwiftPM refuses; glib's paths come with CVips.)
        .systemLibrary(name: "CGeonames", providers: [.apt(["libgeonames-dev"])]),
        // Extended attributes, for the server's uploads: in the C library, but not in Swift's Glibc module.
        .systemLibrary(name: "CExtendedAttributes"),
        // The variadic libvips calls Swift cannot make, EXIF reading/writing with
        // libexif, and content hashes with xxHash (libxxhash-dev).
        .target(
            name: "CPhotosMedia",
            dependencies: ["CVips", "CExif"],
            linkerSettings: [
                .linkedLibrary("vips"), .linkedLibrary("xxhash"), .linkedLibrary("jpeg"), .linkedLibrary("brotlidec"), .linkedLibrary("heif"),
                .linkedLibrary("m"),
            ]
        ),
        // Decoding, metadata and encoding of image and video files.
        .target(
            name: "PhotosMedia",
            dependencies: ["CPhotosMedia", "CVips", "CGeonames"]
        ),
        // The engine both backends share: queries, commits, history and access, over
        // one SQL connection type. With the backends, the only code that speaks SQL.
        .target(
            name: "PhotosStore",
            dependencies: [
                // Database values and their conversions, which statements carry.
                .product(name: "GRDB", package: "GRDB.swift")
            ]
        ),
        // The SQLite backend, every library's default: a library directory, its
        // schema and migrations, readers and the writer, through GRDB.
        .target(
            name: "PhotosSQLite",
            dependencies: [
                "PhotosStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for reading a row's values straight from its statement.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // Object storage for a library's files: an S3-compatible client
        // (AWS Signature Version 4 on async-http-client and swift-crypto).
        .target(
            name: "PhotosObjectStorage",
            dependencies: [
                "PhotosStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),
        // The PostgreSQL backend: a library's catalogue and history in a
        // PostgreSQL database that several machines share (postgres-nio).
        .target(
            name: "PhotosPostgres",
            dependencies: [
                "PhotosStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The public PhotoKit API (`import Photos`).
        .target(
            name: "Photos",
            dependencies: [
                "PhotosStore", "PhotosSQLite", "PhotosMedia", .product(name: "Crypto", package: "swift-crypto"),
                .target(name: "PhotosPostgres", condition: .when(traits: ["PostgreSQL"])),
                .target(name: "PhotosObjectStorage", condition: .when(traits: ["ObjectStorage"])),
                // scrypt, for share links' passwords.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // Tesseract's C interface (libtesseract-dev): text read in images.
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract", providers: [.apt(["libtesseract-dev"])]),
        // Faces found and described by dlib (libdlib-dev), behind a small C interface;
        // its matrix arithmetic runs on OpenBLAS (libopenblas-dev), kept to the caller's thread.
        .target(
            name: "CFaces",
            // Optimised in every configuration: dlib's detector and network are
            // templates compiled here, 100 times slower unoptimised (13 s a
            // photo), and its assertions, which DEBUG turns on, slower still.
            cxxSettings: [.unsafeFlags(["-O2", "-UDEBUG"]), .define("NDEBUG")],
            linkerSettings: [.linkedLibrary("dlib"), .linkedLibrary("openblas")]
        ),
        // What the indexer sees in pixels, with models packages ship: text (Tesseract) and faces (dlib).
        .target(
            name: "PhotosVision",
            dependencies: ["CTesseract", "CFaces"]
        ),
        // Understanding for search, run in the background as a PhotoKit client
        // that follows the library's persistent history: places, words, text, …
        .target(
            name: "PhotosIndexing",
            dependencies: ["Photos", "PhotosStore", "PhotosMedia", "PhotosVision", "CPhotosMedia"]
        ),
        // The web gallery: plain JavaScript modules, a style sheet and a page,
        // bundled as resources and served by PhotosServer at `/`.
        .target(
            name: "PhotosGallery",
            resources: [.copy("Web")]
        ),
        // `photos serve`: the library over HTTP (Hummingbird), on the public Photos API.
        .target(
            name: "PhotosServer",
            dependencies: [
                "Photos", "PhotosIndexing", "PhotosGallery", "CExtendedAttributes",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
            ],
            resources: [.copy("OpenAPI/openapi.yaml")],
            // The JSON routes' types and their registration, generated from
            // the document at build time (OpenAPI/openapi-generator-config.yaml).
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // A Swift client of `photos serve`: its types and calls generated at build
        // time from the server's OpenAPI document, the one HTTP contract.
        .target(
            name: "PhotosClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // The command-line tool. It uses the public Photos API only; PhotosMedia
        // renders the demo's sample photos, tells which files of a folder
        // are not photos or videos, and writes the XMP sidecars of exports.
        .executableTarget(
            name: "photos",
            dependencies: [
                "Photos", "PhotosIndexing", "PhotosMedia", "PhotosServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // Upload jobs' requests, streamed: `photos upload-jobs run`.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "photos-bench",
            dependencies: [
                "Photos", "PhotosIndexing", "PhotosStore", "PhotosSQLite", "PhotosMedia", "CBenchVips", "CBenchSQLite", "PhotosServer", "PhotosPostgres",
                "PhotosObjectStorage", "PhotosVision", "CTesseract", "CFaces", "PhotosTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The media benchmarks' baselines: libvips, libexif, libjpeg and xxHash called directly.
        .target(
            name: "CBenchVips",
            dependencies: ["CVips", "CExif"],
            linkerSettings: [.linkedLibrary("xxhash"), .linkedLibrary("jpeg")]
        ),
        // The fetch benchmarks' lowest baseline: SQLite's C API called directly.
        .target(
            name: "CBenchSQLite",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        // Drives a library from a separate process, for the multi-process tests.
        .executableTarget(
            name: "photos-test-helper",
            dependencies: ["Photos", "PhotosIndexing"]
        ),
        // Test support: a batch-update replay for change details, a seeded random generator,
        // and the database surgery that damage tests do.
        .target(
            name: "PhotosTestSupport",
            dependencies: [
                "PhotosStore", "PhotosSQLite", "PhotosMedia", "PhotosObjectStorage", "PhotosPostgres", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/PhotosTestSupport"
        ),
        .testTarget(
            name: "PhotosTests",
            dependencies: [
                "Photos", "PhotosIndexing", "PhotosMedia", "PhotosVision", "PhotosObjectStorage", "photos-test-helper", "PhotosTestSupport",
            ]
        ),
        .testTarget(
            name: "PhotosStoreTests",
            dependencies: ["PhotosStore", "PhotosSQLite", "PhotosTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "PhotosSQLiteTests",
            dependencies: ["PhotosSQLite", "PhotosStore", "PhotosTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The `photos` command run as a process, end to end.
        .testTarget(
            name: "PhotosCommandTests",
            dependencies: ["photos", "Photos", "PhotosMedia", "PhotosStore", "PhotosSQLite", "PhotosPostgres", "PhotosTestSupport"]
        ),
        .testTarget(
            name: "PhotosServerTests",
            dependencies: [
                "PhotosServer", "Photos", "PhotosMedia", "PhotosTestSupport", "photos", "CExtendedAttributes",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Yams", package: "Yams"),
                "PhotosClient",
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "PhotosObjectStorageTests",
            dependencies: ["PhotosObjectStorage", "PhotosTestSupport"]
        ),
        .testTarget(
            name: "PhotosPostgresTests",
            dependencies: [
                "PhotosPostgres", "PhotosSQLite", "PhotosTestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // photos-bench's statistics: medians, intervals, rows over runs.
        .testTarget(
            name: "PhotosBenchTests",
            dependencies: ["photos-bench"]
        ),
        .testTarget(
            name: "PhotosMediaTests",
            dependencies: ["PhotosMedia", "CPhotosMedia", "PhotosTestSupport"]
        ),
    ],
    cxxLanguageStandard: .cxx17
)

// The language features our Swift code builds with ahead of the language
// mode that makes them the default, as Hummingbird does: existentials
// spelled `any`. (MemberImportVisibility, which Hummingbird also turns on,
// is left off: Glibc's structs, `timespec` and `stat`, are attributed to
// CDispatch in one build and to CoreFoundation in the next, so no import
// satisfies it reliably on Linux.)
let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]
for target in package.targets where target.type != .system && !target.name.hasPrefix("C") {
    target.swiftSettings = (target.swiftSettings ?? []) + upcomingFeatures
}
