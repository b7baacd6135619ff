import Foundation

/// Where an upload job sends its resource: an HTTP request's URL, method
/// and headers (PhotoKit's `URLRequest` destination), stored as JSON.
package struct UploadDestination: Sendable, Hashable, Codable {
    package var url: String
    package var method: String
    package var headers: [String: String]

    package init(url: String, method: String, headers: [String: String]) {
        self.url = url
        self.method = method
        self.headers = headers
    }

    /// The most bytes a destination may take, as JSON: a URL and a few headers.
    package static let maximumStoredBytes = 16 * 1024

    /// Its stored form.
    package var stored: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The destination a stored form holds; nil when it holds none.
    package init?(stored: String) {
        guard let value = try? JSONDecoder().decode(Self.self, from: Data(stored.utf8)) else { return nil }
        self = value
    }
}

/// An upload job's state. Raw values are stored (`upload_job.state`) and
/// are PhotoKit's `PHAssetResourceUploadJob.State` raw values.
package enum UploadJobState: Int, Sendable, CaseIterable {
    case registered = 1
    case pending = 2
    case failed = 3
    case succeeded = 4
    case cancelled = 5

    /// Whether the job still has its sending ahead of it.
    package var isUnfinished: Bool { self == .registered || self == .pending }
}

/// What an upload job does. Raw values are stored (`upload_job.job_type`)
/// and are PhotoKit's `PHAssetResourceUploadJob.Type` raw values.
package enum UploadJobType: Int, Sendable, CaseIterable {
    /// Sends the resource's original bytes to the destination.
    case upload = 0
    /// Makes the resource's file local (from object storage) and sends nothing.
    case downloadOnly = 1
}

/// Which jobs a fetch by action finds, as PhotoKit's `PHAssetResourceUploadJob.Action` says.
package enum UploadJobAction: Int, Sendable, CaseIterable {
    /// Finished (succeeded or failed) and not acknowledged.
    case acknowledge = 1
    /// Failed, not acknowledged, never retried.
    case retry = 2
    /// Registered or pending.
    case process = 3

    /// The condition on `upload_job`'s bare columns.
    var condition: String {
        switch self {
        case .acknowledge: "state IN (\(UploadJobState.succeeded.rawValue), \(UploadJobState.failed.rawValue)) AND acknowledged = 0"
        case .retry: "state = \(UploadJobState.failed.rawValue) AND acknowledged = 0 AND retried = 0"
        case .process: "state IN (\(UploadJobState.registered.rawValue), \(UploadJobState.pending.rawValue))"
        }
    }
}

/// One row of `upload_job`.
package struct UploadJobRecord: Sendable, Equatable {
    package var id: Int64
    package var uuid: String
    /// The client whose job it is; "" for the owner's.
    package var client: String
    package var assetUUID: String
    package var resourceID: Int64
    package var type: UploadJobType
    package var state: UploadJobState
    package var destination: UploadDestination?
    /// The destination's answer's headers, names lower-cased; nil until it answered.
    package var responseHeaders: [String: String]?
    /// Why it failed; nil unless it did.
    package var error: String?
    package var isAcknowledged: Bool
    package var wasRetried: Bool
    /// How many times a performer started sending it.
    package var attempts: Int
    package var createdAt: Date
    package var updatedAt: Date

    /// Its columns, in the order ``init(row:)`` reads them.
    static let selection =
        "id, uuid, client, asset_uuid, resource_id, job_type, state, destination, response_headers, error, acknowledged, retried, attempts, created_at, updated_at"

    init(row: any SQLColumnReader) throws(StoredValueError) {
        id = try row[0]
        uuid = try row[1]
        client = try row[2]
        assetUUID = try row[3]
        resourceID = try row[4]
        type = UploadJobType(rawValue: try row[5]) ?? .upload
        state = UploadJobState(rawValue: try row[6]) ?? .failed
        destination = UploadDestination(stored: try row[7])
        responseHeaders = (try row[8] as String?).flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) }
        error = try row[9]
        isAcknowledged = try row[10]
        wasRetried = try row[11]
        attempts = try row[12]
        createdAt = Date(timeIntervalSince1970: try row[13])
        updatedAt = Date(timeIntervalSince1970: try row[14])
    }
}

/// A client's upload-job extension, enabled: its options and how to run it.
package struct UploadExtensionRecord: Sendable, Equatable {
    /// "" for the owner.
    package var client: String
    package var preventsExpensiveNetworkAccess: Bool
    /// The command that runs the extension's `processJobs()`; nil when none was registered.
    package var command: [String]?
    package var enabledAt: Date

    package init(client: String, preventsExpensiveNetworkAccess: Bool, command: [String]?, enabledAt: Date) {
        self.client = client
        self.preventsExpensiveNetworkAccess = preventsExpensiveNetworkAccess
        self.command = command
        self.enabledAt = enabledAt
    }

    static let selection = "client, prevents_expensive_network_access, command, enabled_at"

    init(row: any SQLColumnReader) throws(StoredValueError) {
        client = try row[0]
        preventsExpensiveNetworkAccess = try row[1]
        command = (try row[2] as String?).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        enabledAt = Date(timeIntervalSince1970: try row[3])
    }
}

/// A change to upload jobs, made in a change block with the rest of it.
package enum UploadJobChange: Sendable {
    /// A new job, registered.
    case create(NewUploadJob)
    /// A finished job acknowledged: it no longer counts against the limit.
    case acknowledge(uuid: String)
    /// A failed job sent again, to a new destination when given.
    case retry(uuid: String, destination: UploadDestination?)
    /// A registered or pending job called off.
    case cancel(uuid: String)
    /// A performer starts sending a job: registered (or pending, after a
    /// restart) becomes pending, its attempts counted.
    case start(uuid: String)
    /// A performer's outcome of a pending job.
    case finish(uuid: String, succeeded: Bool, responseHeaders: [String: String]?, error: String?)
    /// The client's extension enabled (or its options changed).
    case enableExtension(preventsExpensiveNetworkAccess: Bool, command: [String]?)
    /// The client's extension disabled: its unfinished jobs wait.
    case disableExtension
}

/// A job a change block creates.
package struct NewUploadJob: Sendable {
    package var uuid: String
    package var assetUUID: String
    package var resourceID: Int64
    package var type: UploadJobType
    package var destination: UploadDestination?

    package init(uuid: String, assetUUID: String, resourceID: Int64, type: UploadJobType, destination: UploadDestination?) {
        self.uuid = uuid
        self.assetUUID = assetUUID
        self.resourceID = resourceID
        self.type = type
        self.destination = destination
    }
}

/// The most unacknowledged jobs (registered, pending, succeeded or failed)
/// one client may have: PhotoKit's `PHAssetResourceUploadJob.jobLimit`.
package let uploadJobLimit = 200
