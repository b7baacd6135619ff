import Foundation

/// When a photo or video was taken, as a file records it: an instant, and
/// the UTC offset of the clock that recorded it when the file says so.
/// Without an offset the time was read as this machine's local time, as
/// cameras that record no offset record local time.
package struct CaptureTime: Sendable, Equatable {
    package var date: Date
    /// Seconds east of UTC; nil when the file gives no offset.
    package var utcOffset: Int?

    package init(date: Date, utcOffset: Int?) {
        self.date = date
        self.utcOffset = utcOffset
    }

    /// Reads a date as EXIF, XMP, IPTC and exiftool write them:
    /// "YYYY:MM:DD HH:MM:SS", "-" or "T" accepted as separators, seconds
    /// optional, a fraction and an offset ("+02:00", "Z") allowed at the end,
    /// or an offset given apart (EXIF's OffsetTime). A date without a time
    /// is noon of that day, so that no offset can move it to another day.
    /// nil for anything else, and for years before 1800 or past 9999.
    package static func parse(_ text: String, offset separateOffset: String? = nil) -> CaptureTime? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        var offsetText = separateOffset
        if body.hasSuffix("Z") {
            body = body.dropLast()
            offsetText = offsetText ?? "+00:00"
        } else if body.count > 10, let sign = body.lastIndex(where: { $0 == "+" || $0 == "-" }),
            body.distance(from: body.startIndex, to: sign) >= 10, body[sign...].count <= 6
        {
            offsetText = offsetText ?? String(body[sign...])
            body = body[..<sign]
        }
        var fraction = 0.0
        if let dot = body.lastIndex(of: "."), body.distance(from: body.startIndex, to: dot) >= 16 {
            fraction = Double("0" + body[dot...]) ?? 0
            body = body[..<dot]
        }
        let fields = body.split(whereSeparator: { ":- T".contains($0) })
        guard fields.count == 3 || fields.count == 5 || fields.count == 6,
            fields.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let numbers = fields.compactMap { Int($0) }
        guard numbers.count == fields.count else { return nil }
        let dateOnly = numbers.count == 3
        let components = DateComponents(
            year: numbers[0], month: numbers[1], day: numbers[2],
            hour: dateOnly ? 12 : numbers[3], minute: dateOnly ? 0 : numbers[4],
            second: numbers.count == 6 ? numbers[5] : 0)
        let utcOffset = offsetText.flatMap(offsetSeconds)
        guard let date = date(from: components, utcOffset: utcOffset) else { return nil }
        return CaptureTime(date: date.addingTimeInterval(fraction), utcOffset: utcOffset)
    }

    /// The date a phone, messenger or screenshot tool wrote into a file's
    /// name: "IMG_20200608_003000.jpg", "PXL_20200608_003000123.jpg",
    /// "VID_20200608_003000.mp4", "20200608_003000.jpg", "Screenshot_20200608-003000.png",
    /// "Screenshot 2020-06-08 at 00.30.00.png", "signal-2020-06-08-003000.jpg",
    /// "IMG-20200608-WA0001.jpg" (a day only: noon). Read as local time,
    /// without an offset; nil when the name holds no plausible date (a year
    /// from 1990 to next year, a real day and time).
    package static func fromFileName(_ name: String, now: Date = Date()) -> CaptureTime? {
        let characters = Array(name.utf8)
        func digits(at index: Int, count: Int) -> Int? {
            guard index >= 0, index + count <= characters.count else { return nil }
            var value = 0
            for byte in characters[index..<index + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func isDigit(_ index: Int) -> Bool { index >= 0 && index < characters.count && (48...57).contains(characters[index]) }
        func isSeparator(_ index: Int) -> Bool {
            index < characters.count && [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: " ")].contains(characters[index])
        }
        let latestYear = Calendar.utc.component(.year, from: now) + 1
        for start in characters.indices where !isDigit(start - 1) {
            // The day: YYYYMMDD or YYYY-MM-DD (any of - _ . as the separator).
            var index = start
            guard let year = digits(at: index, count: 4), (1990...latestYear).contains(year) else { continue }
            index += 4
            let separated = isSeparator(index) && characters[index] != UInt8(ascii: " ")
            if separated { index += 1 }
            guard let month = digits(at: index, count: 2), (1...12).contains(month) else { continue }
            index += 2
            if separated {
                guard isSeparator(index) else { continue }
                index += 1
            }
            guard let day = digits(at: index, count: 2), (1...31).contains(day) else { continue }
            index += 2
            guard !isDigit(index) else { continue }
            var components = DateComponents(year: year, month: month, day: day, hour: 12, minute: 0, second: 0)
            // The time, when one follows: HHMMSS or HH-MM-SS (or . : as the separator),
            // after "_", "-", " ", "T" or " at ".
            var time = index
            if characters[time...].starts(with: Array(" at ".utf8)) {
                time += 4
            } else if time < characters.count, isSeparator(time) || characters[time] == UInt8(ascii: "T") {
                time += 1
            }
            if let hour = digits(at: time, count: 2), hour < 24 {
                var cursor = time + 2
                let timeSeparated =
                    cursor < characters.count && [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "_")].contains(characters[cursor])
                if timeSeparated { cursor += 1 }
                if let minute = digits(at: cursor, count: 2), minute < 60 {
                    cursor += 2
                    if timeSeparated, cursor < characters.count, characters[cursor] == characters[time + 2] { cursor += 1 }
                    if let second = digits(at: cursor, count: 2), second < 60 {
                        components.hour = hour
                        components.minute = minute
                        components.second = second
                    }
                }
            }
            guard let date = date(from: components, utcOffset: nil) else { continue }
            return CaptureTime(date: date, utcOffset: nil)
        }
        return nil
    }

    /// The same time where it was taken, when the file gave no offset: a
    /// clock reading (EXIF without OffsetTime, a name), read in this
    /// machine's zone, is read again in the zone of the place; an instant
    /// (a video's UTC creation time) stays and gains the place's offset. A
    /// time with an offset, or no place's zone, is left as it is.
    package func placed(in zone: TimeZone?, isClockReading: Bool) -> CaptureTime {
        guard utcOffset == nil, let zone else { return self }
        guard isClockReading else { return CaptureTime(date: date, utcOffset: zone.secondsFromGMT(for: date)) }
        var here = Calendar(identifier: .gregorian)
        here.timeZone = .current
        var there = Calendar(identifier: .gregorian)
        there.timeZone = zone
        let fraction = date.timeIntervalSinceReferenceDate - date.timeIntervalSinceReferenceDate.rounded(.down)
        let clock = here.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        guard let moved = there.date(from: clock) else { return self }
        return CaptureTime(date: moved + fraction, utcOffset: zone.secondsFromGMT(for: moved))
    }

    /// A UTC offset as EXIF writes it ("+02:00", "-0530", "Z"), in seconds; nil when malformed.
    package static func offsetSeconds(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "Z" { return 0 }
        guard let sign = trimmed.first, sign == "+" || sign == "-" else { return nil }
        let rest = trimmed.dropFirst()
        let parts: [Int]
        if rest.contains(":") {
            parts = rest.split(separator: ":").compactMap { Int($0) }
        } else if rest.count == 4, let number = Int(rest) {
            parts = [number / 100, number % 100]
        } else if rest.count <= 2, let hours = Int(rest) {
            parts = [hours, 0]
        } else {
            return nil
        }
        guard parts.count == 2, (0...14).contains(parts[0]), (0..<60).contains(parts[1]) else { return nil }
        let seconds = parts[0] * 3600 + parts[1] * 60
        return sign == "-" ? -seconds : seconds
    }

    /// The instant of a wall-clock time: in the offset given, or in this
    /// machine's zone; nil for a day that does not exist (30 February).
    private static func date(from components: DateComponents, utcOffset: Int?) -> Date? {
        guard let year = components.year, (1800...9999).contains(year) else { return nil }
        var calendar = Calendar.utc
        calendar.timeZone = utcOffset.flatMap(TimeZone.init(secondsFromGMT:)) ?? .current
        guard let date = calendar.date(from: components),
            calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: components.year, month: components.month, day: components.day)
        else { return nil }
        return date
    }
}
