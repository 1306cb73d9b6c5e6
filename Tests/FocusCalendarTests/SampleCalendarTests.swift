import FocusCalendar
import Foundation
import Testing

/// `data/sample-calendar.ics` at the package root, found from this file's path.
private func sampleCalendar() throws -> ICSDocument {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try ICSReader.parse(data: Data(contentsOf: root.appendingPathComponent("data/sample-calendar.ics")))
}

@Suite struct SampleCalendarTests {
    @Test func sampleWeekOfNovemberTwentyThirdIsAsTheReadmeShows() throws {
        let doc = try sampleCalendar()
        #expect(doc.name == "Classes")
        #expect(spans(busy(doc, "2026-11-22T23:00:00Z", "2026-11-29T23:00:00Z")) == [
            "2026-11-23T08:00:00Z–2026-11-23T09:30:00Z Math 101",
            "2026-11-23T11:00:00Z–2026-11-23T12:00:00Z Lunch",
            "2026-11-24T09:00:00Z–2026-11-24T10:30:00Z Algorithms lecture",
            "2026-11-24T11:00:00Z–2026-11-24T12:00:00Z Lunch",
            "2026-11-24T17:00:00Z–2026-11-24T18:30:00Z Gym",
            "2026-11-25T08:00:00Z–2026-11-25T09:30:00Z Math 101",
            "2026-11-25T11:00:00Z–2026-11-25T12:00:00Z Lunch",
            "2026-11-26T09:00:00Z–2026-11-26T10:30:00Z Algorithms lecture",
            "2026-11-26T11:00:00Z–2026-11-26T12:00:00Z Lunch",
            "2026-11-26T17:00:00Z–2026-11-26T18:30:00Z Gym",
            "2026-11-27T11:00:00Z–2026-11-27T12:00:00Z Lunch",
            "2026-11-27T12:00:00Z–2026-11-27T15:00:00Z Physics lab",
            "2026-11-27T23:00:00Z–2026-11-28T23:00:00Z Climbing trip to Saxon Switzerland",
        ])
    }

    @Test func sampleWeeksHaveNoEndAndFollowSummerTime() throws {
        let doc = try sampleCalendar()
        let september = busy(doc, "2026-09-06T22:00:00Z", "2026-09-13T22:00:00Z")
        #expect(september.count == 13)  // the supervisor meeting still happens in September
        #expect(spans(Array(september.prefix(2))) == [
            "2026-09-07T07:00:00Z–2026-09-07T08:30:00Z Math 101",
            "2026-09-07T10:00:00Z–2026-09-07T11:00:00Z Lunch",
        ])
        let later = busy(doc, "2028-03-06T23:00:00Z", "2028-03-13T23:00:00Z")
        #expect(later.count == 13)
    }
}
