import FocusCalendar
import Foundation
import Testing

@Suite struct FixtureTests {
    @Test func googleExportExpandsWeeklyRuleSkipsExceptionDateAndKeepsAllDayLocal() throws {
        let doc = try fixture("google")
        #expect(doc.name == "Ana Work")
        #expect(spans(busy(doc, "2026-11-01", "2026-12-01")) == [
            "2026-11-02T15:00:00Z–2026-11-02T16:00:00Z Weekly sync",
            "2026-11-04T23:00:00Z–2026-11-06T23:00:00Z Conference days",
            "2026-11-09T15:00:00Z–2026-11-09T16:00:00Z Weekly sync",
            "2026-11-10T13:00:00Z–2026-11-10T14:00:00Z Dentist",
            "2026-11-23T15:00:00Z–2026-11-23T16:00:00Z Weekly sync",
            "2026-11-30T15:00:00Z–2026-11-30T16:00:00Z Weekly sync",
        ])
        // UNTIL=20261207T225959Z keeps December 7 and nothing after.
        #expect(spans(busy(doc, "2026-12-01", "2027-02-01")) == ["2026-12-07T15:00:00Z–2026-12-07T16:00:00Z Weekly sync"])
    }

    @Test func googleFoldedDescriptionIsUnfoldedAndUnescaped() throws {
        let dentist = try #require(fixture("google").events.first { $0.summary == "Dentist" })
        #expect(dentist.description == "Check-up and cleaning.\nBring the insurance card, the referral and the X-ray from last year; arrive 10 minutes early.\nDr. Müller, Praxis am Park")
        #expect(dentist.location == "Praxis am Park")
        #expect(try fixture("google").events[1].location == "Estrel Congress Center, Berlin")
    }

    @Test func outlookExportUsesWindowsZonesAndAppliesMovedAndCancelledOccurrences() throws {
        let data = try fixtureData("outlook")
        #expect(String(decoding: data, as: UTF8.self).contains("\r\n "))
        let doc = try ICSReader.parse(data: data)
        #expect(spans(busy(doc, "2026-10-01", "2027-01-01")) == [
            "2026-10-05T08:00:00Z–2026-10-05T09:00:00Z Team meeting",
            "2026-10-12T08:00:00Z–2026-10-12T09:00:00Z Team meeting",
            "2026-10-20T12:00:00Z–2026-10-20T13:00:00Z Team meeting (moved)",
            "2026-10-26T09:00:00Z–2026-10-26T10:00:00Z Team meeting",
            "2026-10-28T13:00:00Z–2026-10-28T14:00:00Z Call with the New York office",
            "2026-11-09T09:00:00Z–2026-11-09T10:00:00Z Team meeting",
            "2026-11-12T14:00:00Z–2026-11-12T15:00:00Z Budget review",
            "2026-11-16T09:00:00Z–2026-11-16T10:00:00Z Team meeting",
            "2026-11-23T09:00:00Z–2026-11-23T10:00:00Z Team meeting",
            "2026-11-30T09:00:00Z–2026-11-30T10:00:00Z Team meeting",
            "2026-12-07T09:00:00Z–2026-12-07T10:00:00Z Team meeting",
        ])
    }

    @Test func outlookFoldedUIDAndDescriptionSurviveUnfolding() throws {
        let doc = try fixture("outlook")
        let uid = "040000008200E00074C5B7101A82E00800000000D0F1A2B3C4D5DC01000000000000000010000000A1B2C3D4E5F60718293A4B5C6D7E8F90"
        #expect(doc.events.filter { $0.uid == uid }.count == 3)
        #expect(doc.events[0].description == "Agenda: status of each workstream, blockers, next steps. Please update the tracker before the meeting so that we can keep it to one hour.\n")
        #expect(doc.timeZones.map(\.tzid) == [
            "W. Europe Standard Time", "Eastern Standard Time",
            "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna",
        ])
    }

    @Test func appleExportIgnoresAlarmPropertiesAndReadsCrossZoneEnd() throws {
        let doc = try fixture("apple")
        let yoga = doc.events[0]
        #expect(yoga.uid == "9F3A6C2E-1B4D-4E8F-A0B1-C2D3E4F50617")
        #expect(yoga.summary == "Yoga")
        #expect(yoga.description == nil)
        #expect(yoga.location == "Yoga Studio Mitte\nTorstraße 1, 10119 Berlin")
        #expect(spans(busy(doc, "2026-11-01", "2027-01-01")) == [
            "2026-11-03T17:30:00Z–2026-11-03T18:30:00Z Yoga",
            "2026-11-17T17:30:00Z–2026-11-17T18:30:00Z Yoga",
            "2026-11-20T06:15:00Z–2026-11-20T09:30:00Z Flight to Lisbon ✈️",
            "2026-12-01T17:30:00Z–2026-12-01T18:30:00Z Yoga",
            "2026-12-15T17:30:00Z–2026-12-15T18:30:00Z Yoga",
            "2026-12-29T17:30:00Z–2026-12-29T18:30:00Z Yoga",
        ])
    }

    @Test func floatingTimesAreReadInTheLocalZone() throws {
        let doc = try fixture("floating")
        #expect(spans(busy(doc, "2026-11-01", "2026-12-01", in: berlin)) == [
            "2026-11-09T06:00:00Z–2026-11-09T07:00:00Z Morning run",
            "2026-11-10T06:00:00Z–2026-11-10T07:00:00Z Morning run",
            "2026-11-10T19:00:00Z–2026-11-10T20:30:00Z Reading",
            "2026-11-11T06:00:00Z–2026-11-11T07:00:00Z Morning run",
            "2026-11-11T11:00:00Z–2026-11-11T11:30:00Z Call in an unknown zone",
            "2026-11-12T16:00:00Z–2026-11-12T16:00:00Z Submit report",
            "2026-11-12T23:00:00Z–2026-11-13T23:00:00Z Day off",
        ])
        #expect(spans(busy(doc, "2026-11-01", "2026-12-01", in: newYork)) == [
            "2026-11-09T12:00:00Z–2026-11-09T13:00:00Z Morning run",
            "2026-11-10T12:00:00Z–2026-11-10T13:00:00Z Morning run",
            "2026-11-11T01:00:00Z–2026-11-11T02:30:00Z Reading",
            "2026-11-11T12:00:00Z–2026-11-11T13:00:00Z Morning run",
            "2026-11-11T17:00:00Z–2026-11-11T17:30:00Z Call in an unknown zone",
            "2026-11-12T22:00:00Z–2026-11-12T22:00:00Z Submit report",
            "2026-11-13T05:00:00Z–2026-11-14T05:00:00Z Day off",
        ])
    }

    @Test func zeroLengthEventCountsOnlyWhenItsInstantIsInsideTheWindow() throws {
        let doc = try fixture("floating")
        let report = { (from: String, to: String) in
            busy(doc, from, to, in: utcZone).filter { $0.summary == "Submit report" }.count
        }
        #expect(report("2026-11-12T17:00:00Z", "2026-11-12T18:00:00Z") == 1)
        #expect(report("2026-11-12T16:00:00Z", "2026-11-12T17:00:00Z") == 0)
    }

    @Test func newYorkDailyStandupKeepsNineOClockAcrossNovemberFirst() throws {
        let doc = try fixture("dst")
        let standups = busy(doc, "2026-10-01", "2027-04-01").filter { $0.summary == "New York standup" }
        #expect(standups.count == 14)
        #expect(spans(Array(standups[4...7])) == [
            "2026-10-30T13:00:00Z–2026-10-30T13:15:00Z New York standup",
            "2026-10-31T13:00:00Z–2026-10-31T13:15:00Z New York standup",
            "2026-11-01T14:00:00Z–2026-11-01T14:15:00Z New York standup",
            "2026-11-02T14:00:00Z–2026-11-02T14:15:00Z New York standup",
        ])
        #expect(standups.first?.start == utc("2026-10-26T13:00:00Z"))
        #expect(standups.last?.start == utc("2026-11-08T14:00:00Z"))
    }

    @Test func berlinWeeklySeminarKeepsNineOClockAcrossOctoberTwentyFifth() throws {
        let doc = try fixture("dst")
        #expect(spans(busy(doc, "2026-10-01", "2027-04-01").filter { $0.summary == "Berlin seminar" }) == [
            "2026-10-12T07:00:00Z–2026-10-12T08:30:00Z Berlin seminar",
            "2026-10-19T07:00:00Z–2026-10-19T08:30:00Z Berlin seminar",
            "2026-10-26T08:00:00Z–2026-10-26T09:30:00Z Berlin seminar",
            "2026-11-02T08:00:00Z–2026-11-02T09:30:00Z Berlin seminar",
            "2026-11-09T08:00:00Z–2026-11-09T09:30:00Z Berlin seminar",
        ])
    }

    @Test func repeatedWallTimeIsTheFirstAndSkippedWallTimeMovesForward() throws {
        let doc = try fixture("dst")
        let all = busy(doc, "2026-10-01", "2027-04-01")
        #expect(spans(all.filter { $0.summary == "Repeated half hour" }) == ["2026-10-25T00:30:00Z–2026-10-25T01:00:00Z Repeated half hour"])
        #expect(spans(all.filter { $0.summary == "Skipped half hour" }) == ["2027-03-28T01:30:00Z–2027-03-28T02:30:00Z Skipped half hour"])
    }

    @Test func unknownZoneNameIsResolvedByTheFilesOwnVTimeZone() throws {
        let doc = try fixture("custom-vtimezone")
        #expect(spans(busy(doc, "2026-01-01", "2027-01-01")) == [
            "2026-03-10T02:30:00Z–2026-03-10T03:15:00Z Case-insensitive zone name",
            "2026-10-21T03:30:00Z–2026-10-21T04:30:00Z Station review",
            "2026-10-28T03:30:00Z–2026-10-28T04:30:00Z Station review",
            "2026-11-04T04:30:00Z–2026-11-04T05:30:00Z Station review",
            "2026-11-11T04:30:00Z–2026-11-11T05:30:00Z Station review",
        ])
    }

    @Test func cancelledAndTransparentEventsAreNotBusy() throws {
        let doc = try fixture("transparent-cancelled")
        #expect(spans(busy(doc, "2026-11-16", "2026-11-23", in: utcZone)) == [
            "2026-11-16T09:00:00Z–2026-11-16T10:00:00Z Busy block",
            "2026-11-16T16:00:00Z–2026-11-16T17:00:00Z Reading group",
            "2026-11-17T13:00:00Z–2026-11-17T14:00:00Z Tentative meeting",
            "2026-11-17T16:00:00Z–2026-11-17T17:00:00Z Reading group",
            "2026-11-19T16:00:00Z–2026-11-19T17:00:00Z Reading group",
            "2026-11-20T16:00:00Z–2026-11-20T17:00:00Z Reading group",
        ])
    }

    @Test func monthlyRulesWithOrdinalsSetPositionsAndNegativeMonthDays() throws {
        let doc = try fixture("monthly-rules")
        let all = busy(doc, "2026-01-01", "2026-07-01", in: utcZone)
        func starts(_ summary: String) -> [String] {
            all.filter { $0.summary == summary }.map { $0.start.formatted(Date.ISO8601FormatStyle()) }
        }
        #expect(starts("Second Tuesday") == [
            "2026-01-13T17:00:00Z", "2026-02-10T17:00:00Z", "2026-03-10T17:00:00Z",
            "2026-04-14T17:00:00Z", "2026-05-12T17:00:00Z", "2026-06-09T17:00:00Z",
        ])
        #expect(starts("Last Friday") == [
            "2026-01-30T15:00:00Z", "2026-02-27T15:00:00Z", "2026-03-27T15:00:00Z",
            "2026-04-24T15:00:00Z", "2026-05-29T15:00:00Z", "2026-06-26T15:00:00Z",
        ])
        #expect(starts("Last workday") == [
            "2026-01-30T16:00:00Z", "2026-02-27T16:00:00Z", "2026-03-31T16:00:00Z",
            "2026-04-30T16:00:00Z", "2026-05-29T16:00:00Z", "2026-06-30T16:00:00Z",
        ])
        #expect(spans(all.filter { $0.summary == "Last day of the month" }) == [
            "2026-01-31T00:00:00Z–2026-02-01T00:00:00Z Last day of the month",
            "2026-02-28T00:00:00Z–2026-03-01T00:00:00Z Last day of the month",
            "2026-03-31T00:00:00Z–2026-04-01T00:00:00Z Last day of the month",
            "2026-04-30T00:00:00Z–2026-05-01T00:00:00Z Last day of the month",
            "2026-05-31T00:00:00Z–2026-06-01T00:00:00Z Last day of the month",
            "2026-06-30T00:00:00Z–2026-07-01T00:00:00Z Last day of the month",
        ])
        #expect(all.filter { $0.summary == "Last day of the month" }.allSatisfy { $0.allDay })
    }

    @Test func hostileRulesAreBoundedOverOneHour() throws {
        let doc = try fixture("hostile-rules")
        let hour = busy(doc, "2026-11-01T00:00:00Z", "2026-11-01T01:00:00Z", in: utcZone)
        #expect(hour.count == 3600)
        #expect(hour.allSatisfy { $0.summary == "Every second forever" })
        #expect(hour.first?.start == utc("2026-11-01T00:00:00Z"))
        #expect(hour.last?.start == utc("2026-11-01T00:59:59Z"))
    }

    @Test func hostileRulesAreBoundedOverOneYear() throws {
        let doc = try fixture("hostile-rules")
        let year = busy(doc, "2026-01-01", "2027-01-01", in: utcZone)
        func count(_ summary: String) -> Int { year.filter { $0.summary == summary }.count }
        #expect(count("A billion days") == 365)
        #expect(count("The 31st of February") == 1)  // DTSTART itself is always an occurrence
        #expect(count("A billion seconds from 2020") == 0)  // the step cap ends it years before 2026
        let secondly = count("Every second forever")
        #expect(secondly > 10_000 && secondly <= ICSExpansionLimits.stepsPerEvent / 2 + 1)
        let combinatorial = count("Every ten seconds by expansion")
        #expect(combinatorial > 10_000 && combinatorial <= ICSExpansionLimits.stepsPerEvent)
        #expect(year.count <= ICSExpansionLimits.occurrencesPerCall)
    }

    @Test func impossibleRuleInALaterWindowYieldsNothing() throws {
        let doc = try fixture("hostile-rules")
        let later = busy(doc, "2030-01-01", "2031-01-01", in: utcZone)
        #expect(later.filter { $0.summary == "The 31st of February" }.isEmpty)
        #expect(later.filter { $0.summary == "A billion days" }.count == 365)
    }
}
