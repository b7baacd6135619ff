import NIOPosix

/// Runs blocking library work (SQLite, files, decoding) off the event loops.
func blocking<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await NIOThreadPool.singleton.runIfActive(body)
}
