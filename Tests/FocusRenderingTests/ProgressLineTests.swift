import FocusRendering
import Testing

/// The progress line of long commands: what a person reads while an import runs.
@Suite struct ProgressLineTests {
    @Test func countedItemsShowDoneOfTotalRateAndTimeLeft() {
        let line = ProgressLine.render(verb: "Importing", done: 412_000, total: 1_000_000, unit: .items("sessions"), elapsed: 412_000.0 / 27_500)
        #expect(line == "Importing 412,000 / 1,000,000 sessions · 27,500/s · 22 s left")
    }

    @Test func bytesShowDecimalUnits() {
        let line = ProgressLine.render(verb: "Checking", done: 12_300_000, total: 80_000_000, unit: .bytes, elapsed: 1)
        #expect(line == "Checking 12.3 MB / 80.0 MB · 12.3 MB/s · 6 s left")
    }

    @Test func anUnknownTotalHasNoTimeLeft() {
        let line = ProgressLine.render(verb: "Exporting", done: 5_000, total: nil, unit: .items("sessions"), elapsed: 2)
        #expect(line == "Exporting 5,000 sessions · 2,500/s")
    }

    @Test func nothingDoneYetHasNoRate() {
        #expect(ProgressLine.render(verb: "Importing", done: 0, total: 10, unit: .items("sessions"), elapsed: 0.5) == "Importing 0 / 10 sessions")
    }

    @Test func theLineIsCutToTheTerminalWidthSoItNeverWraps() {
        let line = ProgressLine.render(verb: "Importing", done: 412_000, total: 1_000_000, unit: .items("sessions"), elapsed: 10, width: 20)
        #expect(line.count == 19)
        #expect(line.hasPrefix("Importing 412,000"))
    }

    @Test func aStepOfUnknownSizeShowsItsNameAndTheSecondsGoneBy() {
        #expect(ProgressLine.phase("Reading its events", elapsed: 2.7) == "Reading its events · 2 s")
        #expect(ProgressLine.phase("Building the report", elapsed: 0.6, width: 10) == "Building ")
    }

    @Test func numbersAndDurations() {
        #expect(ProgressLine.grouped(0) == "0")
        #expect(ProgressLine.grouped(999) == "999")
        #expect(ProgressLine.grouped(1_000) == "1,000")
        #expect(ProgressLine.grouped(1_234_567) == "1,234,567")
        #expect(ProgressLine.bytes(812) == "812 B")
        #expect(ProgressLine.bytes(999_999) == "1.0 MB")
        #expect(ProgressLine.bytes(1_200_000_000) == "1.2 GB")
        #expect(ProgressLine.duration(0.2) == "1 s")
        #expect(ProgressLine.duration(59) == "59 s")
        #expect(ProgressLine.duration(200) == "3 min 20 s")
        #expect(ProgressLine.duration(120) == "2 min")
        #expect(ProgressLine.duration(3_900) == "1 h 5 min")
    }
}
