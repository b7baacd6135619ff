import Foundation
import Hummingbird
import Logging
import NIOCore
import Photos
import PhotosGallery
import PhotosIndexing
import ServiceLifecycle
import UnixSignals

/// `photos serve`: a library over HTTP.
///
/// Every route but sign-in sits behind hummingbird-auth's authenticators
/// (`BearerAuthenticator`, `SessionAuthenticator`) and `TokenPolicy`
/// (where a request is authorised); each route then works through the
/// `PHPhotoLibrary` instance of the token's client, so the engine applies
/// that client's grant to every fetch, image, change and event. Routes are
/// grouped by resource under `Routes/`.
public struct PhotoServer: Sendable {
    /// Where and how the server listens.
    public struct Configuration: Sendable {
        /// The address to listen on (default 127.0.0.1: this machine only).
        public var host: String
        /// 0 picks a free port (see `onListening`).
        public var port: Int
        /// A connection with no request for this long is closed, so idle
        /// and slowloris clients hold nothing for long.
        public var idleTimeout: Duration
        /// How often an idle event stream sends a comment.
        public var heartbeat: Duration
        /// How long a stalled event-stream reader is waited for.
        public var streamWriteTimeout: Duration
        /// Failed sign-ins allowed per address per minute.
        public var signInFailuresPerMinute: Int
        /// The largest file an upload may bring.
        public var maximumUploadLength: Int
        /// The most client library instances kept open at once (each holds
        /// files and database connections); past it, the one used least
        /// lately closes.
        public var maximumOpenClients: Int
        /// The longest one database statement of a request may run before
        /// it is stopped (503).
        public var queryDeadline: Duration
        /// The most bytes one token's unfinished uploads may declare in all.
        public var uploadQuota: Int
        /// How often uploads abandoned (a day without a byte) or left by
        /// revoked and expired tokens are removed.
        public var uploadSweepInterval: Duration
        /// What the server takes as now when it judges uploads abandoned,
        /// tokens expired, and a bearer token's proof lapsed.
        public var clock: @Sendable () -> Date
        /// Whether it keeps the search index up to date while it runs, on a
        /// niced thread of its own (`PhotosIndexing`'s `BackgroundIndexer`).
        public var indexesInBackground = true
        /// The languages text in photos is read in, Tesseract's names (`eng`,
        /// `deu`, …), each needing its Debian package (`tesseract-ocr-deu`).
        public var textLanguages = ["eng"]
        /// The tile server the gallery's map draws under its country
        /// outlines; nil (the default) for none, so the gallery loads
        /// nothing from another origin.
        public var mapTiles: MapTiles?

        /// A configuration with the defaults: loopback port 8080, a minute's idle
        /// timeout, heartbeats every 15 s, 10 failed sign-ins a minute, 16 GiB
        /// uploads and 32 GiB of unfinished ones per token (swept every ten
        /// minutes), 64 client instances open, 10 s a statement.
        public init(
            host: String = "127.0.0.1", port: Int = 8080, idleTimeout: Duration = .seconds(60),
            heartbeat: Duration = .seconds(15), streamWriteTimeout: Duration = .seconds(30),
            signInFailuresPerMinute: Int = 10, maximumUploadLength: Int = 16 << 30, maximumOpenClients: Int = 64,
            queryDeadline: Duration = .seconds(10), uploadQuota: Int = 32 << 30, uploadSweepInterval: Duration = .seconds(600),
            clock: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.host = host
            self.port = port
            self.idleTimeout = idleTimeout
            self.heartbeat = heartbeat
            self.streamWriteTimeout = streamWriteTimeout
            self.signInFailuresPerMinute = signInFailuresPerMinute
            self.maximumUploadLength = maximumUploadLength
            self.maximumOpenClients = maximumOpenClients
            self.queryDeadline = queryDeadline
            self.uploadQuota = uploadQuota
            self.uploadSweepInterval = uploadSweepInterval
            self.clock = clock
        }
    }

    /// Where and how it listens.
    public let configuration: Configuration
    let libraries: LibraryPool
    let uploads: UploadStore
    let metrics = ServerMetrics()
    let authentication: TokenAuthority
    let streams = EventStreams()
    /// The threads requests do their blocking work on, shared fairly.
    let work: BlockingWork
    let logger: Logger
    /// The HTTP contract, served to clients.
    let document: OpenAPIDocument
    /// Keeps the search index up to date while ``run(onListening:)`` serves; nil when configured off.
    let indexer: BackgroundIndexer?

    /// A server for the library the owner's instance `library` opened.
    /// Uploads in progress are kept in the library's `uploads/` folder;
    /// abandoned ones, and those of tokens revoked or expired, are removed
    /// now and then periodically while it runs.
    public init(
        library: PHPhotoLibrary, configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "photos.serve")
    ) throws {
        self.configuration = configuration
        work = BlockingWork(statementDuration: configuration.queryDeadline)
        libraries = LibraryPool(owner: library, maximumClients: configuration.maximumOpenClients)
        uploads = try UploadStore(
            directory: library.filesDirectory.appendingPathComponent("uploads"),
            maximumLength: configuration.maximumUploadLength, quota: configuration.uploadQuota)
        let now = configuration.clock()
        uploads.removeAbandoned(validTokens: Set(try library.accessTokens().filter { !$0.isExpired(at: now) }.map(\.id)), now: now)
        let provenTokens = ProvenTokens(clock: configuration.clock)
        try provenTokens.follow(revocationsOf: library)
        authentication = TokenAuthority(
            libraries: libraries, sessions: BrowserSessions(),
            throttle: SignInThrottle(limit: configuration.signInFailuresPerMinute, window: 60), provenTokens: provenTokens, tokenLookups: FreshLookups())
        self.logger = logger
        document = try OpenAPIDocument.bundled()
        indexer =
            configuration.indexesInBackground
            ? BackgroundIndexer(indexer: LibraryIndexer(library: library, textLanguages: configuration.textLanguages, now: configuration.clock)) : nil
    }

    /// The router with every route, for tests and for ``application(onListening:)``.
    /// Throws only when the generated routes cannot be registered (a
    /// document whose paths the router cannot take).
    func router() throws -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        router.add(middleware: RequestObservation(metrics: metrics))
        let library = libraries.owner
        let routedMethods = RoutedMethods()
        router.add(
            middleware: ProblemMiddleware(
                routes: routedMethods,
                privatePaths: [
                    (uploads.directory.path + "/", "upload "), (uploads.directory.standardizedFileURL.resolvingSymlinksInPath().path + "/", "upload "),
                    (library.filesDirectory.path, "<library>"), (library.filesDirectory.resolvingSymlinksInPath().path, "<library>"),
                    (library.url.path, "<library>"), (library.url.absoluteString, "<library>"),
                ]))
        router.add(middleware: WorkAttribution(work: work))
        GalleryRoutes(files: .bundled, mapTiles: configuration.mapTiles).add(to: router)
        let sessions = authentication.sessions
        let v1 = router.group("v1")
        let sessionRoutes = SessionRoutes(authentication: authentication, sessions: sessions)
        sessionRoutes.addPublic(to: v1)
        let authenticated = v1.group().authenticated(by: authentication)
        sessionRoutes.addAuthenticated(to: authenticated)
        ImageRoutes(libraries: libraries).add(to: authenticated)
        MapRoutes().add(to: authenticated)
        TimelineRoutes(libraries: libraries).add(to: authenticated)
        UploadRoutes(libraries: libraries, uploads: uploads, metrics: metrics).add(to: authenticated)
        HistoryRoutes(
            libraries: libraries, authentication: authentication, streams: streams, heartbeat: configuration.heartbeat,
            writeTimeout: configuration.streamWriteTimeout, metrics: metrics
        ).add(to: authenticated)
        authenticated.get("openapi.json") { [document] _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: document.json)))
        }
        authenticated.get("openapi.yaml") { [document] _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(string: document.yaml)))
        }
        router.group().authenticated(by: authentication).get("metrics") { [metrics, indexer] _, context -> Response in
            guard try context.requirePrincipal().isOwner else { throw Problem(.forbidden, "metrics are for the owner's tokens") }
            if let indexer {
                let coverage = try? await blocking { try indexer.indexer.status(pendingChanges: false) }
                metrics.record(indexing: indexer.progress, status: coverage)
            }
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(string: metrics.text())))
        }
        try JSONRoutes.register(
            JSONRoutes(
                libraries: libraries, uploads: uploads, revocation: revocation, metrics: metrics, textLanguages: configuration.textLanguages,
                mapTiles: configuration.mapTiles),
            on: router.group().authenticated(by: authentication))
        routedMethods.register(router.routes)
        return router
    }

    /// What ends at once when this process revokes a token.
    var revocation: Revocation {
        Revocation(provenTokens: authentication.provenTokens, sessions: authentication.sessions, streams: streams, uploads: uploads)
    }

    private static let serverName = "OpenPhotoKit"

    /// The HTTP application; `onListening` gets the port it bound.
    public func application(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) throws -> some ApplicationProtocol {
        Application(
            router: try router(),
            server: .photos(idleTimeout: configuration.idleTimeout) { [libraries, authentication, metrics, logger] lifecycle in
                CachedRenditionHandler(
                    renditions: libraries.renditions, authentication: authentication, metrics: metrics, logger: logger,
                    serverName: Self.serverName, lifecycle: lifecycle)
            },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: Self.serverName),
            services: [
                UploadSweeper(
                    uploads: uploads, owner: libraries.owner, interval: configuration.uploadSweepInterval,
                    now: configuration.clock)
            ],
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Serves until SIGINT or SIGTERM, then shuts down gracefully: no new
    /// connections, requests in flight (change blocks included) finish,
    /// event streams end cleanly.
    /// Videos browsers cannot play are converted in the background from
    /// the start: those a previous run left are queued again.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        libraries.videoConversions.scheduleMissing(in: libraries.owner)
        indexer?.start()
        defer { indexer?.stop() }
        let streams = self.streams
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(
                        service: try application(onListening: onListening),
                        successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup)
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await withGracefulShutdownHandler {
            try await group.run()
        } onGracefulShutdown: {
            streams.endAll()
        }
    }
}
