import Foundation

/// How far an extension's processing got.
public enum PHBackgroundResourceUploadProcessingResult: Int, Sendable, Hashable {
    /// It failed.
    case failure = 0
    /// It did some of the work and needs to run again.
    case processing = 1
    /// It is caught up with the library: nothing more to do until something changes.
    case completed = 2
}

/// An app's upload-job extension: what the performer runs when the app's
/// jobs move, to create jobs for what changed, acknowledge the finished
/// ones and retry the failed.
///
/// On Apple's systems an app extension adopts it and the system launches
/// it. Here, the performer (`photos upload-jobs run`) runs the command
/// registered with ``PHAssetResourceUploadJobOptions/extensionCommand``,
/// with the library in `PHOTOS_LIBRARY` and the client in
/// `PHOTOS_CLIENT_ID`; the command's entry point is the type's ``main()``
/// (mark the type `@main`), which makes one instance, calls
/// ``processJobs()`` against `PHPhotoLibrary.shared()`, and exits 0 for
/// `completed`, 75 (try again) for `processing`, 1 for `failure`. The
/// performer runs it again while it reports `processing`, and again
/// after the client's jobs next finish.
public protocol PHBackgroundResourceUploadJobExtension {
    /// Makes the extension, as the system does before asking it anything.
    init()
    /// Creates, acknowledges and retries the app's jobs; returns how far it got.
    func processJobs() async -> PHBackgroundResourceUploadProcessingResult
    /// Called when the performer stops the extension (it is itself
    /// stopping): end what is under way; it will be run again.
    func willTerminate() async
}

extension PHBackgroundResourceUploadJobExtension {
    /// Runs the extension once, as the performer asks: see the type's
    /// documentation. A SIGTERM from the performer calls ``willTerminate()``.
    public static func main() async {
        let extensionInstance = Self()
        // Held as the protocol, not as Self: the handler runs elsewhere, and a metatype is not Sendable.
        let terminated = UncheckedSendable<any PHBackgroundResourceUploadJobExtension>(extensionInstance)
        signal(SIGTERM, SIG_IGN)
        let termination = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
        termination.setEventHandler {
            Task {
                await terminated.value.willTerminate()
                exit(75)
            }
        }
        termination.resume()
        let result = await extensionInstance.processJobs()
        termination.cancel()
        exit(result.exitStatus)
    }
}

extension PHBackgroundResourceUploadProcessingResult {
    /// The status an extension's process exits with for this result.
    package var exitStatus: Int32 {
        switch self {
        case .completed: 0
        case .processing: 75
        case .failure: 1
        }
    }

    /// The result an extension's exit status reports.
    package init(exitStatus: Int32) {
        self = exitStatus == 0 ? .completed : exitStatus == 75 ? .processing : .failure
    }
}
