import Foundation

// CoreLocation does not exist on Linux. PhotoKit hands out and accepts
// `CLLocation`, so `Photos` provides the part of CoreLocation it needs, with
// Apple's names and meanings.

/// Latitude or longitude in degrees (WGS 84).
public typealias CLLocationDegrees = Double
/// A distance in metres.
public typealias CLLocationDistance = Double
/// An accuracy in metres; negative means invalid.
public typealias CLLocationAccuracy = Double
/// A direction in degrees from true north; negative means invalid.
public typealias CLLocationDirection = Double
/// A speed in metres per second; negative means invalid.
public typealias CLLocationSpeed = Double
/// The accuracy of a speed, in metres per second.
public typealias CLLocationSpeedAccuracy = Double
/// The accuracy of a direction, in degrees.
public typealias CLLocationDirectionAccuracy = Double

/// A latitude and longitude in degrees.
public struct CLLocationCoordinate2D: Sendable, Equatable {
    /// Degrees north of the equator; negative is south.
    public var latitude: CLLocationDegrees
    /// Degrees east of Greenwich; negative is west.
    public var longitude: CLLocationDegrees

    /// The coordinate (0, 0).
    public init() {
        self.init(latitude: 0, longitude: 0)
    }

    /// A coordinate from a latitude and a longitude in degrees.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// An invalid coordinate, as CoreLocation defines it.
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

/// Whether a coordinate lies within latitude ±90 and longitude ±180.
public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
    (-90...90).contains(coordinate.latitude) && (-180...180).contains(coordinate.longitude)
}

/// Makes a coordinate, as CoreLocation's C function does.
public func CLLocationCoordinate2DMake(_ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}

/// A position with its altitude, accuracy, course, speed and time. Immutable.
open class CLLocation: NSObject, NSCopying, @unchecked Sendable {
    /// The latitude and longitude.
    public let coordinate: CLLocationCoordinate2D
    /// Metres above sea level.
    public let altitude: CLLocationDistance
    /// Radius of uncertainty in metres; negative when the coordinate is invalid.
    public let horizontalAccuracy: CLLocationAccuracy
    /// Uncertainty of the altitude in metres; negative when the altitude is invalid.
    public let verticalAccuracy: CLLocationAccuracy
    /// Direction of travel in degrees from true north; negative when unknown.
    public let course: CLLocationDirection
    /// Uncertainty of the course in degrees; negative when unknown.
    public let courseAccuracy: CLLocationDirectionAccuracy
    /// Metres per second; negative when unknown.
    public let speed: CLLocationSpeed
    /// Uncertainty of the speed in metres per second; negative when unknown.
    public let speedAccuracy: CLLocationSpeedAccuracy
    /// When the position was determined.
    public let timestamp: Date

    /// A location at a coordinate, with unknown altitude, course and speed, timestamped now.
    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0,
            horizontalAccuracy: 0, verticalAccuracy: -1, timestamp: Date())
    }

    /// A location with altitude and accuracies, and unknown course and speed.
    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy,
            course: -1, courseAccuracy: -1, speed: -1, speedAccuracy: -1, timestamp: timestamp)
    }

    /// A location with course and speed.
    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy,
        course: CLLocationDirection, speed: CLLocationSpeed, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy,
            course: course, courseAccuracy: -1, speed: speed, speedAccuracy: -1, timestamp: timestamp)
    }

    /// A location with every property given.
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy, verticalAccuracy vAccuracy: CLLocationAccuracy,
        course: CLLocationDirection, courseAccuracy: CLLocationDirectionAccuracy,
        speed: CLLocationSpeed, speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = CLLocationCoordinate2DIsValid(coordinate) ? hAccuracy : -1
        self.verticalAccuracy = vAccuracy
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.timestamp = timestamp
    }

    /// The great-circle distance to another location, in metres.
    public func distance(from location: CLLocation) -> CLLocationDistance {
        let radians = Double.pi / 180
        let lat1 = coordinate.latitude * radians
        let lat2 = location.coordinate.latitude * radians
        let dLat = lat2 - lat1
        let dLon = (location.coordinate.longitude - coordinate.longitude) * radians
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371_000 * 2 * atan2(sqrt(a), sqrt(1 - a))
    }

    /// Locations are immutable, so a copy is the location itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// Equal when every property is equal.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLLocation else { return false }
        return coordinate == other.coordinate && altitude == other.altitude
            && horizontalAccuracy == other.horizontalAccuracy && verticalAccuracy == other.verticalAccuracy
            && course == other.course && speed == other.speed && timestamp == other.timestamp
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(coordinate.latitude)
        hasher.combine(coordinate.longitude)
        hasher.combine(timestamp)
        return hasher.finalize()
    }

    open override var description: String {
        String(
            format: "<%+.8f,%+.8f> +/- %.2fm, alt %.2fm, %@", coordinate.latitude, coordinate.longitude,
            horizontalAccuracy, altitude, timestamp.description)
    }
}
