import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosMedia

/// The Live Photo effect Apple's `.AAE` adjustments give a photo, read as
/// Photos reads them, and adjustments files that are damaged or hostile.
@Suite struct AppleAdjustmentsTests {
    @Test func theRenderTypesNameTheEffectAsPhotosReadsThem() {
        let cases: [(Int, LivePhotoEffect?)] = [
            (0, nil), (AppleAdjustmentsFiles.loop, .loop), (AppleAdjustmentsFiles.bounce, .bounce),
            (AppleAdjustmentsFiles.longExposure, .longExposure), (AppleAdjustmentsFiles.portrait, nil),
            // Several: Loop wins, then Bounce.
            (AppleAdjustmentsFiles.loop | AppleAdjustmentsFiles.bounce | AppleAdjustmentsFiles.longExposure, .loop),
            (AppleAdjustmentsFiles.bounce | AppleAdjustmentsFiles.longExposure, .bounce),
            // Other bits (Portrait, spatial) beside an effect leave it as it is.
            (AppleAdjustmentsFiles.portrait | 0x1000 | AppleAdjustmentsFiles.longExposure, .longExposure), (0x1000, nil),
        ]
        for (renderTypes, effect) in cases {
            #expect(AppleAdjustments.livePhotoEffect(propertyList: AppleAdjustmentsFiles.propertyList(renderTypes: renderTypes)) == effect, "\(renderTypes)")
        }
    }

    /// exiftool, which knows Photos' adjustments files, reads the test's
    /// files as one: the shape the tests rely on is Photos'.
    @Test func exiftoolReadsTheTestFilesAsPhotosAdjustments() throws {
        let scratch = try ScratchDirectory("aae")
        let url = try AppleAdjustmentsFiles.write("IMG_0001.AAE", in: scratch.url, renderTypes: AppleAdjustmentsFiles.bounce)
        let output = try DebianTool.run("exiftool", ["-s", "-FileType", "-AdjustmentRenderTypes", "-AdjustmentFormatIdentifier", url.path])
        #expect(output.contains("FileType") && output.contains("AAE"), "\(output)")
        #expect(output.contains("AdjustmentRenderTypes") && output.contains(": 8"), "\(output)")
        #expect(AppleAdjustments.livePhotoEffect(ofFileAt: url) == .bounce)
    }

    @Test func whatIsNotPhotosXMLAdjustmentsGivesNoEffect() throws {
        // Binary, even with the same keys; not a dictionary; a render type that is not a number.
        let binary = try PropertyListSerialization.data(
            fromPropertyList: ["adjustmentRenderTypes": 1], format: .binary, options: 0)
        #expect(AppleAdjustments.livePhotoEffect(propertyList: binary) == nil)
        let xml = try PropertyListSerialization.data(fromPropertyList: ["adjustmentRenderTypes": 1], format: .xml, options: 0)
        #expect(AppleAdjustments.livePhotoEffect(propertyList: xml) == .loop, "the same keys, as XML")
        let array = try PropertyListSerialization.data(fromPropertyList: [1, 2], format: .xml, options: 0)
        #expect(AppleAdjustments.livePhotoEffect(propertyList: array) == nil)
        let text = try PropertyListSerialization.data(fromPropertyList: ["adjustmentRenderTypes": "1"], format: .xml, options: 0)
        #expect(AppleAdjustments.livePhotoEffect(propertyList: text) == nil)
        #expect(AppleAdjustments.livePhotoEffect(propertyList: Data()) == nil)
        // Larger than any Photos writes.
        var large = AppleAdjustmentsFiles.propertyList(renderTypes: 1)
        large.append(Data(repeating: 0x20, count: AppleAdjustments.maximumSize))
        #expect(AppleAdjustments.livePhotoEffect(propertyList: large) == nil)
        // Empty containers open nothing: they count for no depth.
        let empties = Data(("<plist><dict><key>a</key>" + String(repeating: "<dict/><array/>", count: 100) + "</dict></plist>").utf8)
        #expect(AppleAdjustments.nesting(ofXMLPropertyList: empties) == 1)
    }

    /// Deep nesting is refused before Foundation's parser, which recurses,
    /// would use up the stack on it; damaged and random files never trap.
    @Test func hostileAndDamagedFilesAnswerWithoutTrapping() {
        let deep = Data(("<plist>" + String(repeating: "<array>", count: 60_000)).utf8)
        #expect(AppleAdjustments.livePhotoEffect(propertyList: deep) == nil)
        #expect(AppleAdjustments.nesting(ofXMLPropertyList: deep) == 60_000)
        let justDeepEnough = Data(
            ("<plist><dict><key>adjustmentRenderTypes</key><integer>8</integer><key>x</key>"
                + String(repeating: "<array>", count: AppleAdjustments.maximumNesting - 1)
                + String(repeating: "</array>", count: AppleAdjustments.maximumNesting - 1) + "</dict></plist>").utf8)
        #expect(AppleAdjustments.livePhotoEffect(propertyList: justDeepEnough) == .bounce)

        var random = SeededRandom.fromEnvironment()
        let original = [UInt8](AppleAdjustmentsFiles.propertyList(renderTypes: AppleAdjustmentsFiles.loop))
        let alphabet = Array("<>/[]{}&;!?\"'=#x0123456789arydictkeyintegrplsD \n".utf8)
        for _ in 0..<1_000 {
            var damaged = original
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let index = Int.random(in: 0..<damaged.count, using: &random)
                let byte = Bool.random(using: &random) ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: damaged[index] = byte
                case 1: damaged.insert(byte, at: index)
                default: damaged.remove(at: index)
                }
            }
            if Int.random(in: 0..<4, using: &random) == 0 { damaged = Array(damaged.prefix(Int.random(in: 0...damaged.count, using: &random))) }
            _ = AppleAdjustments.livePhotoEffect(propertyList: Data(damaged))
            let noise = (0..<Int.random(in: 0...256, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = AppleAdjustments.livePhotoEffect(propertyList: Data(noise))
        }
    }

    @Test func aRenderedVideosVariationKeyNamesItsEffect() {
        #expect(LivePhotoEffect(variationIdentifier: "1") == .loop)
        #expect(LivePhotoEffect(variationIdentifier: "2") == .bounce)
        #expect(LivePhotoEffect(variationIdentifier: " 3") == .longExposure)
        for text in ["0", "4", "", "-1", "1.0", "loop", "99999999999999999999"] { #expect(LivePhotoEffect(variationIdentifier: text) == nil, "\(text)") }
    }
}
