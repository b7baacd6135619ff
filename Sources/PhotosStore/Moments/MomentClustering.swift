import Foundation

/// A moment: assets taken close together in time and place.
package struct MomentRecord: Sendable, Equatable {
    package var uuid: String
    package var startDate: Date
    package var endDate: Date
    package var assetCount: Int
    /// The mean position of the moment's located assets.
    package var latitude: Double?
    package var longitude: Double?
}

/// A list of moments: every moment of a calendar year, or a cluster of moments close in time.
package struct MomentListRecord: Sendable, Equatable {
    package var uuid: String
    /// `PHCollectionListSubtype` raw value: 1 cluster, 2 year.
    package var subtype: Int
    package var title: String?
    package var startDate: Date
    package var endDate: Date
    package var momentUUIDs: [String]
}

/// Groups a date-ordered stream of assets into moments and moment lists.
///
/// A new moment starts when more than `maximumGap` separates two assets, or
/// when two located assets taken at different times are more than
/// `maximumDistance` apart. A cluster groups moments less than
/// `clusterGap` apart; a year list groups the moments that start in a year.
package struct MomentClustering: Sendable {
    package struct Asset: Sendable {
        package var uuid: String
        package var creationDate: Date
        package var latitude: Double?
        package var longitude: Double?

        package init(uuid: String, creationDate: Date, latitude: Double?, longitude: Double?) {
            self.uuid = uuid
            self.creationDate = creationDate
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    package static let maximumGap: TimeInterval = 4 * 3600
    package static let maximumDistance: Double = 10_000
    package static let clusterGap: TimeInterval = 3 * 24 * 3600

    /// Seeds the derived identifiers so that two libraries never share one.
    let libraryUUID: String

    package init(libraryUUID: String) {
        self.libraryUUID = libraryUUID
    }

    /// The moments of assets sorted by creation date.
    package func moments(of assets: [Asset]) -> [MomentRecord] {
        var moments: [MomentRecord] = []
        var start = 0
        for index in assets.indices where index > 0 && startsMoment(assets[index - 1], assets[index]) {
            moments.append(moment(assets[start..<index]))
            start = index
        }
        if !assets.isEmpty {
            moments.append(moment(assets[start...]))
        }
        return moments
    }

    /// Moment lists of the given subtype (1 cluster, 2 year) over date-ordered moments.
    package func momentLists(of moments: [MomentRecord], subtype: Int, calendar: Calendar = .current) -> [MomentListRecord] {
        var groups: [[MomentRecord]] = []
        for moment in moments {
            let joinsLast: Bool
            if let previous = groups.last?.last {
                joinsLast =
                    subtype == 2
                    ? calendar.component(.year, from: previous.startDate) == calendar.component(.year, from: moment.startDate)
                    : moment.startDate.timeIntervalSince(previous.endDate) <= Self.clusterGap
            } else {
                joinsLast = false
            }
            if joinsLast {
                groups[groups.count - 1].append(moment)
            } else {
                groups.append([moment])
            }
        }
        return groups.map { group in
            let year = calendar.component(.year, from: group[0].startDate)
            return MomentListRecord(
                uuid: derivedUUID("moment-list-\(subtype)-\(subtype == 2 ? String(year) : group[0].uuid)"),
                subtype: subtype,
                title: subtype == 2 ? String(year) : nil,
                startDate: group[0].startDate,
                endDate: group[group.count - 1].endDate,
                momentUUIDs: group.map(\.uuid))
        }
    }

    private func startsMoment(_ previous: Asset, _ next: Asset) -> Bool {
        let gap = next.creationDate.timeIntervalSince(previous.creationDate)
        if gap > Self.maximumGap { return true }
        guard gap > 0, let lat1 = previous.latitude, let lon1 = previous.longitude,
            let lat2 = next.latitude, let lon2 = next.longitude
        else { return false }
        return Self.distance(lat1, lon1, lat2, lon2) > Self.maximumDistance
    }

    private func moment(_ assets: ArraySlice<Asset>) -> MomentRecord {
        let located = assets.filter { $0.latitude != nil && $0.longitude != nil }
        let count = Double(located.count)
        return MomentRecord(
            uuid: derivedUUID("moment-\(assets.first!.uuid)"),
            startDate: assets.first!.creationDate,
            endDate: assets.last!.creationDate,
            assetCount: assets.count,
            latitude: located.isEmpty ? nil : located.reduce(0) { $0 + $1.latitude! } / count,
            longitude: located.isEmpty ? nil : located.reduce(0) { $0 + $1.longitude! } / count)
    }

    /// Great-circle distance in metres.
    static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians
        let dLon = (lon2 - lon1) * radians
        let a =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(lat1 * radians) * cos(lat2 * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 6_371_000 * 2 * atan2(sqrt(a), sqrt(1 - a))
    }

    /// A UUID derived from the library and a key: the same inputs always give the same UUID.
    func derivedUUID(_ key: String) -> String {
        func fnv1a(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in (libraryUUID + "|" + key).utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            return hash
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        let high = fnv1a(0xCBF2_9CE4_8422_2325)
        let low = fnv1a(0x84222325_CBF29CE4)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: high >> (8 * i))
            bytes[8 + i] = UInt8(truncatingIfNeeded: low >> (8 * i))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom, name-based
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        ).uuidString
    }
}
