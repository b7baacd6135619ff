import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A Unix-socket proxy in front of the test server that passes a
/// connection's bytes both ways, and can lose one change block's COMMIT:
/// either the request itself (the server never commits) or only the
/// server's answer (it commits, the client never hears so). Either way
/// the proxy then closes both sides, as a network that fails would.
///
/// A change block is recognised by its `pg_notify`, which the engine sends
/// only when numbering a block; its COMMIT is the next statement whose
/// text is exactly `COMMIT` (not `… READ COMMITTED`).
final class AnswerLosingProxy: Sendable {
    enum Loss: Sendable {
        case request
        case answer
    }

    /// The directory holding the proxy's socket, as a URL's `host=` names it.
    let directory: URL
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let listener: any Channel
    private let armed = ArmedLoss()

    init(upstream socket: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pgproxy-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent((socket as NSString).lastPathComponent).path
        let armed = armed
        listener = try ServerBootstrap(group: group)
            .childChannelInitializer { client in
                ClientBootstrap(group: client.eventLoop).connect(unixDomainSocketPath: socket).flatMapThrowing { server in
                    let connection = ProxiedConnection(client: client, server: server)
                    try client.pipeline.syncOperations.addHandler(Relay(connection: connection, side: .client, armed: armed))
                    try server.pipeline.syncOperations.addHandler(Relay(connection: connection, side: .server, armed: armed))
                }
            }
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).wait()
    }

    /// Loses the next change block's COMMIT, or its answer.
    func lose(_ loss: Loss) {
        armed.state.withLock { $0.loss = loss }
    }

    /// How many COMMITs, or answers, were lost so far.
    var losses: Int { armed.state.withLock { $0.losses } }

    /// The URL of library `name` through the proxy.
    func libraryURL(_ name: String) -> URL {
        URL(string: "postgres://postgres@/postgres?host=\(directory.path)&library=\(name)")!
    }

    func stop() {
        try? listener.close().wait()
        try? group.syncShutdownGracefully()
        try? FileManager.default.removeItem(at: directory)
    }

}

/// The loss the proxy is to apply next, and how many it applied.
private final class ArmedLoss: Sendable {
    let state = Mutex<(loss: AnswerLosingProxy.Loss?, losses: Int)>((nil, 0))

    /// The loss to apply to a change block's COMMIT now sent, consumed.
    func take() -> AnswerLosingProxy.Loss? {
        state.withLock { state in
            guard let loss = state.loss else { return nil }
            state.loss = nil
            state.losses += 1
            return loss
        }
    }
}

/// One client connection and its connection to the server, on one event loop.
private final class ProxiedConnection: @unchecked Sendable {
    let client: any Channel
    let server: any Channel
    /// Whether this connection numbered a block whose COMMIT is still to come.
    var inBlock = false
    /// Whether the server's next bytes are to be lost.
    var losingAnswer = false

    init(client: any Channel, server: any Channel) {
        self.client = client
        self.server = server
    }

    func closeBoth() {
        client.close(promise: nil)
        server.close(promise: nil)
    }
}

private final class Relay: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    enum Side { case client, server }

    let connection: ProxiedConnection
    let side: Side
    let armed: ArmedLoss

    init(connection: ProxiedConnection, side: Side, armed: ArmedLoss) {
        self.connection = connection
        self.side = side
        self.armed = armed
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        switch side {
        case .client:
            let text = String(decoding: bytes.readableBytesView, as: UTF8.self)
            if text.contains("pg_notify") { connection.inBlock = true }
            if connection.inBlock, text.contains("COMMIT\u{0}") {
                connection.inBlock = false
                switch armed.take() {
                case .request?:
                    connection.closeBoth()
                    return
                case .answer?:
                    connection.losingAnswer = true
                case nil:
                    break
                }
            }
            connection.server.writeAndFlush(bytes, promise: nil)
        case .server:
            if connection.losingAnswer {
                connection.closeBoth()
                return
            }
            connection.client.writeAndFlush(bytes, promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.closeBoth()
    }
}
