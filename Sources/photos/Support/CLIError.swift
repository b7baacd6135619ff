import ArgumentParser
import Foundation
import Photos

/// Why a command failed, which decides its exit code: 1 for the user's
/// input (a bad argument, an unknown identifier), 2 for the library.
enum CLIError: Error, CustomStringConvertible {
    case user(String)
    case library(any Error)

    var exitCode: Int32 {
        switch self {
        case .user: 1
        case .library(let error):
            // An identifier that names nothing, or a change the library refuses, is the user's input.
            if let error = error as? PHPhotosError,
                [.identifierNotFound, .invalidResource, .changeNotSupported, .persistentChangeTokenExpired].contains(error.code)
            {
                1
            } else {
                2
            }
        }
    }

    var description: String {
        switch self {
        case .user(let message): message
        case .library(let error): Self.message(error)
        }
    }

    /// One line for an error: a PhotoKit error's description and code.
    static func message(_ error: any Error) -> String {
        if let error = error as? PHPhotosError {
            return "\(error.localizedDescription) (PHPhotosError \(error.code.rawValue))"
        }
        if let error = error as? CLIError { return error.description }
        return String(describing: error)
    }
}
