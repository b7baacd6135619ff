import Hummingbird
import Synchronization

/// The methods each route of the router takes, read from the router
/// itself once every route is added, so that a request for a known path
/// with another method gets 405 and `Allow`. Cost: a scan of the routes
/// per 404, which only a request no route takes pays.
final class RoutedMethods: Sendable {
    private let routes = Mutex<[(segments: [Substring], methods: Set<String>)]>([])

    /// An empty table, filled by ``register(_:)``.
    init() {}

    /// Records the router's routes: call after the last route is added.
    func register(_ routes: [Router<some RequestContext>.RouteDescription]) {
        let grouped = Dictionary(grouping: routes, by: { $0.path.description })
        self.routes.withLock { table in
            table = grouped.map { path, routes in
                (path.split(separator: "/"), Set(routes.map(\.method.rawValue)))
            }
        }
    }

    /// The methods a path's route takes, HEAD with GET; nil for a path no route takes.
    func allowedMethods(_ path: String) -> [String]? {
        let segments = path.split(separator: "/")
        let methods = routes.withLock { table in
            table.filter { route in
                route.segments.count == segments.count
                    && zip(route.segments, segments).allSatisfy { $0.first == "{" || $0 == "*" || $0 == $1 }
            }.map(\.methods)
        }
        guard !methods.isEmpty else { return nil }
        let all = methods.reduce(into: Set<String>()) { $0.formUnion($1) }
        return (all.contains("GET") ? all.union(["HEAD"]) : all).sorted()
    }
}
