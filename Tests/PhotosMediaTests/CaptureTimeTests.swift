import Foundation
import Testing

@testable import PhotosMedia

/// Dates as files write them, in metadata and in names.
@Suite struct CaptureTimeTests {
    private func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }

    @Test func metadataDatesInEveryShapeWritersUse() {
        let utc = Date(timeIntervalSince1970: 1_591_576_200)  // 2020-06-08 00:30:00 UTC
        #expect(CaptureTime.parse("2020:06:08 02:30:00", offset: "+02:00") == CaptureTime(date: utc, utcOffset: 7200))
        #expect(CaptureTime.parse("2020:06:08 02:30:00+02:00") == CaptureTime(date: utc, utcOffset: 7200))
        #expect(CaptureTime.parse("2020-06-08T00:30:00Z") == CaptureTime(date: utc, utcOffset: 0))
        #expect(CaptureTime.parse("2020-06-08T00:30:00.250000Z") == CaptureTime(date: utc + 0.25, utcOffset: 0))
        #expect(CaptureTime.parse("2020-06-07T19:30:00-0500") == CaptureTime(date: utc, utcOffset: -18_000))
        #expect(CaptureTime.parse("2020:06:08 00:30") == CaptureTime(date: local(2020, 6, 8, 0, 30, 0), utcOffset: nil))
        #expect(CaptureTime.parse("2020:06:08") == CaptureTime(date: local(2020, 6, 8, 12, 0, 0), utcOffset: nil), "a day alone is its noon")
        for placeholder in [
            "0000:00:00 00:00:00", "    :  :     :  :  ", "", "2020:02:30 10:00:00", "2020:13:01 10:00:00",
            "yesterday", "2020:06:08 25:00:00", "١٢٣٤:٠٦:٠٨ ٠٠:٣٠:٠٠",
        ] {
            #expect(CaptureTime.parse(placeholder) == nil, "\(placeholder)")
        }
    }

    @Test func namesPhonesAndToolsGiveTheirFiles() {
        let named: [(String, Date)] = [
            ("IMG_20200608_003000.jpg", local(2020, 6, 8, 0, 30, 0)),
            ("VID_20200608_003000.mp4", local(2020, 6, 8, 0, 30, 0)),
            ("PXL_20200608_003000123.jpg", local(2020, 6, 8, 0, 30, 0)),
            ("PXL_20200608_003000123.MP.jpg", local(2020, 6, 8, 0, 30, 0)),
            ("20200608_003000.jpg", local(2020, 6, 8, 0, 30, 0)),
            ("Screenshot_20200608-003000.png", local(2020, 6, 8, 0, 30, 0)),
            ("Screenshot_2020-06-08-00-30-00-123_com.android.chrome.jpg", local(2020, 6, 8, 0, 30, 0)),
            ("Screenshot 2020-06-08 at 00.30.00.png", local(2020, 6, 8, 0, 30, 0)),
            ("signal-2020-06-08-003000.jpg", local(2020, 6, 8, 0, 30, 0)),
            ("2020-06-08 00.30.00.jpg", local(2020, 6, 8, 0, 30, 0)),
            ("IMG-20200608-WA0001.jpg", local(2020, 6, 8, 12, 0, 0)),
            ("PANO_20200608_003000.jpg", local(2020, 6, 8, 0, 30, 0)),
        ]
        for (name, date) in named {
            #expect(CaptureTime.fromFileName(name) == CaptureTime(date: date, utcOffset: nil), "\(name)")
        }
        for name in [
            "IMG_0001.JPG", "DSC01234.ARW", "P1000123.JPG", "IMG_12345678.jpg", "20201399_120000.jpg",
            "20200230_120000.jpg", "120200608_003000.jpg", "IMG_30200608_003000.jpg", "photo 1989-06-08.jpg", ".",
        ] {
            #expect(CaptureTime.fromFileName(name) == nil, "\(name)")
        }
    }

    /// Any day and time written in each phone's pattern reads back as itself.
    @Test func everyTimeWrittenInANameReadsBack() {
        var generator = SystemRandomNumberGenerator()
        let patterns = [
            "IMG_%04d%02d%02d_%02d%02d%02d.jpg", "PXL_%04d%02d%02d_%02d%02d%02d417.jpg",
            "Screenshot_%04d-%02d-%02d-%02d-%02d-%02d.png", "Screenshot %04d-%02d-%02d at %02d.%02d.%02d.png",
        ]
        for _ in 0..<500 {
            let parts = [
                Int.random(in: 1990...2025, using: &generator), Int.random(in: 1...12, using: &generator),
                Int.random(in: 1...28, using: &generator), Int.random(in: 0...23, using: &generator),
                Int.random(in: 0...59, using: &generator), Int.random(in: 0...59, using: &generator),
            ]
            let pattern = patterns.randomElement(using: &generator)!
            let name = String(format: pattern, parts[0], parts[1], parts[2], parts[3], parts[4], parts[5])
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .current
            let read = CaptureTime.fromFileName(name).map { calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: $0.date) }
            let components = read.map { [$0.year!, $0.month!, $0.day!, $0.hour!, $0.minute!, $0.second!] }
            // A wall-clock time in a daylight-saving gap moves by the gap; the day never does.
            #expect(components?.prefix(3) == parts.prefix(3), "\(name)")
        }
    }
}
