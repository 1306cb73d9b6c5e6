import FocusCalendar
import Foundation
import Testing

@Suite struct ICSWriterTests {
    @Test func writesOneEventExactly() {
        let text = ICSWriter.calendar(events: [
            ExportEvent(uid: "block-7@focus", start: utc("2026-11-23T08:00:00Z"), end: utc("2026-11-23T09:30:00Z"),
                        summary: "Thesis: Chapter 2", description: "Planned by focus", status: "CONFIRMED"),
        ], stamp: utc("2026-11-22T12:00:00Z"))
        #expect(text == [
            "BEGIN:VCALENDAR", "PRODID:-//focus//focus//EN", "VERSION:2.0", "CALSCALE:GREGORIAN",
            "BEGIN:VEVENT", "UID:block-7@focus", "DTSTAMP:20261122T120000Z", "DTSTART:20261123T080000Z",
            "DTEND:20261123T093000Z", "SUMMARY:Thesis: Chapter 2", "DESCRIPTION:Planned by focus",
            "STATUS:CONFIRMED", "END:VEVENT", "END:VCALENDAR",
        ].map { $0 + "\r\n" }.joined())
    }

    @Test func emptyCalendarIsStillAValidFile() throws {
        let text = ICSWriter.calendar(events: [], stamp: utc("2026-11-22T12:00:00Z"))
        #expect(text == "BEGIN:VCALENDAR\r\nPRODID:-//focus//focus//EN\r\nVERSION:2.0\r\nCALSCALE:GREGORIAN\r\nEND:VCALENDAR\r\n")
        #expect(try ICSReader.parse(text).events.isEmpty)
    }

    @Test(arguments: [(0, "PT0S"), (45, "PT45S"), (60, "PT1M"), (5400, "PT1H30M"), (3630, "PT1H0M30S"), (7200, "PT2H"), (86_400, "PT24H")])
    func durationsAreWrittenAsRFC5545ReadsThem(seconds: Int, text: String) throws {
        #expect(ICSWriter.duration(seconds: seconds) == text)
        let back = try #require(ICSDuration(parsing: text))
        #expect(back.nominalDays * 86_400 + back.exactSeconds == seconds)
    }

    @Test func textIsEscaped() {
        #expect(ICSWriter.escapeText("Plan; review, then \\ fix\nnext\r\nline\u{07}") == "Plan\\; review\\, then \\\\ fix\\nnext\\nline")
    }

    @Test func calendarNameIsWrittenWhenGiven() {
        let text = ICSWriter.calendar(events: [], stamp: utc("2026-11-22T12:00:00Z"), name: "focus, planned")
        #expect(text.contains("\r\nX-WR-CALNAME:focus\\, planned\r\n"))
    }

    @Test func longLinesAreFoldedAt75OctetsWithoutSplittingCharacters() throws {
        let description = String(repeating: "Zeitplan für Kapitel zwei — Überarbeitung 📚, ", count: 12)
        let text = ICSWriter.calendar(events: [
            ExportEvent(uid: "long@focus", start: utc("2026-11-23T08:00:00Z"), end: utc("2026-11-23T09:00:00Z"),
                        summary: String(repeating: "ü", count: 80), description: description),
        ], stamp: utc("2026-11-22T12:00:00Z"))
        let bytes = Array(text.utf8)
        #expect(text.hasSuffix("\r\n"))
        // Every LF is preceded by CR.
        for (i, b) in bytes.enumerated() where b == 10 { #expect(i > 0 && bytes[i - 1] == 13) }
        let lines = text.components(separatedBy: "\r\n").dropLast()
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines.filter { $0.hasPrefix(" ") }.count > 5)
        // No continuation line starts inside a UTF-8 sequence (String would show U+FFFD).
        #expect(!text.contains("\u{FFFD}"))
        for line in lines where line.hasPrefix(" ") {
            let second = Array(line.utf8)[1]
            #expect(second & 0xC0 != 0x80)
        }
        let event = try #require(ICSReader.parse(text).events.first)
        #expect(event.description == description)
        #expect(event.summary == String(repeating: "ü", count: 80))
    }

    @Test func writtenEventsReadBackAsTheSameEvents() throws {
        let events = [
            ExportEvent(uid: "block-1@focus", start: utc("2026-11-23T08:00:00Z"), end: utc("2026-11-23T08:25:00Z"),
                        summary: "Thesis / Chapter 2", description: "Outline, sources; notes\nsecond line", status: "CONFIRMED"),
            ExportEvent(uid: "block-2@focus", start: utc("2026-11-23T13:00:00Z"), end: utc("2026-11-23T14:30:00Z"),
                        summary: "Math \\ homework, set 4", description: nil, status: nil),
            ExportEvent(uid: "block-3@focus", start: utc("2026-11-24T07:15:00Z"), end: utc("2026-11-24T07:40:00Z"),
                        summary: "Reading: Knuth — §1.2", description: "", status: "TENTATIVE"),
        ]
        let text = ICSWriter.calendar(events: events, stamp: utc("2026-11-22T12:00:00Z"))
        let doc = try ICSReader.parse(text)
        #expect(doc.events.map(\.uid) == events.map(\.uid))
        #expect(doc.events.map(\.summary) == events.map(\.summary))
        #expect(doc.events.map(\.description) == events.map(\.description))
        #expect(doc.events.map(\.status) == ["CONFIRMED", nil, "TENTATIVE"])
        let back = busy(doc, "2026-11-01", "2026-12-01", in: tokyo)
        #expect(back == events.map {
            CalendarOccurrence(start: $0.start, end: $0.end, summary: $0.summary, allDay: false, uid: $0.uid)
        })
    }

    @Test func subSecondTimesAreTruncatedAndEndIsNeverBeforeStart() throws {
        let start = utc("2026-11-23T08:00:00Z").addingTimeInterval(0.75)
        let text = ICSWriter.calendar(events: [
            ExportEvent(uid: "odd@focus", start: start, end: start.addingTimeInterval(-60), summary: "Odd"),
        ], stamp: start)
        #expect(text.contains("\r\nDTSTART:20261123T080000Z\r\nDTEND:20261123T080000Z\r\n"))
        #expect(text.contains("\r\nDTSTAMP:20261123T080000Z\r\n"))
    }
    @Test func foldsFallBetweenCharactersSoAFlagStaysWhole() throws {
        // "SUMMARY:Plan" and seven flags fill 68 octets; the eighth flag (two regional
        // indicators, 8 octets) would straddle the 75th.
        let summary = "Plan" + String(repeating: "🇫🇷", count: 20)
        let text = ICSWriter.calendar(events: [
            ExportEvent(uid: "flags@focus", start: utc("2026-11-23T08:00:00Z"), end: utc("2026-11-23T09:00:00Z"), summary: summary),
        ], stamp: utc("2026-11-22T12:00:00Z"))
        let lines = text.components(separatedBy: "\r\n").dropLast()
        let folded = lines.drop { !$0.hasPrefix("SUMMARY:") }.prefix { $0.hasPrefix("SUMMARY:") || $0.hasPrefix(" ") }
        #expect(folded.first == "SUMMARY:Plan" + String(repeating: "🇫🇷", count: 7))
        #expect(folded.count == 3 && folded.allSatisfy { $0.utf8.count <= 75 })
        for line in folded.dropFirst() { #expect(line.dropFirst().allSatisfy { $0 == "🇫🇷" }, "\(line.unicodeScalars.map(\.value))") }
        #expect(try ICSReader.parse(text).events.first?.summary == summary)
    }
}
