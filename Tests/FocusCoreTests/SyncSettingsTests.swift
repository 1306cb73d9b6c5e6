import FocusCore
import Foundation
import Testing

/// The settings that travel with sync (README, "Two machines"), merged key by key.
private func settings(_ values: [String: (String, Int64)]) -> SyncSettings {
    SyncSettings(values.mapValues { SyncSettings.Value($0.0, modified: $0.1) })
}

@Suite struct SyncSettingsTests {
    @Test func aNewMachineTakesTheCalendarsSettingsAndSendsOnlyWhatTheCalendarLacks() {
        let there = settings(["day_start": ("09:00", 100)])
        let merge = SyncSettings.merge(local: ["day_start": "08:00", "day_end": "22:00"], localModified: 500, agreed: nil, remote: there)
        #expect(merge.apply == ["day_start": "09:00"], "the plan's settings win over a new laptop's defaults")
        #expect(merge.result.values["day_start"]?.value == "09:00")
        #expect(merge.result.values["day_end"]?.value == "22:00")
        #expect(merge.write, "day_end goes to the calendar")
    }

    @Test func aKeyChangedOnOneSideTakesThatSide() {
        let agreed = settings(["day_start": ("08:00", 100), "day_end": ("22:00", 100)])
        let there = settings(["day_start": ("08:00", 100), "day_end": ("18:00", 300)])
        let merge = SyncSettings.merge(local: ["day_start": "07:30", "day_end": "22:00"], localModified: 200, agreed: agreed, remote: there)
        #expect(merge.apply == ["day_end": "18:00"])
        #expect(merge.result.values["day_start"]?.value == "07:30")
        #expect(merge.write)
    }

    @Test func aKeyChangedOnBothKeepsTheLaterChangeAndBothMachinesDecideAlike() {
        let agreed = settings(["day_end": ("22:00", 100)])
        let laptop = SyncSettings.merge(local: ["day_end": "18:00"], localModified: 400, agreed: agreed,
                                        remote: settings(["day_end": ("17:00", 300)]))
        #expect(laptop.result.values["day_end"] == SyncSettings.Value("18:00", modified: 400))
        #expect(laptop.apply.isEmpty && laptop.write)
        let desktop = SyncSettings.merge(local: ["day_end": "17:00"], localModified: 300, agreed: agreed,
                                         remote: settings(["day_end": ("18:00", 400)]))
        #expect(desktop.result.values["day_end"]?.value == "18:00")
        #expect(desktop.apply == ["day_end": "18:00"])
        // The same moment: the larger value, on both.
        let tie = SyncSettings.merge(local: ["day_end": "17:00"], localModified: 400, agreed: agreed, remote: settings(["day_end": ("18:00", 400)]))
        #expect(tie.result.values["day_end"]?.value == "18:00")
    }

    @Test func aKeyThisMachineDoesNotKnowTravelsThroughItUntouched() {
        let there = settings(["buffer": ("15m", 100), "day_start": ("09:00", 100)])
        let merge = SyncSettings.merge(local: ["day_start": "09:00"], localModified: 50, agreed: there, remote: there)
        #expect(merge.result == there)
        #expect(!merge.write && merge.apply.isEmpty)
    }

    @Test func daysOffAddedOnTwoMachinesBothStay() {
        let agreed = settings(["off.2026-12-24": ("yes", 100)])
        let laptopDays = SyncSettings.localValues(config: [:], daysOff: ["2026-12-24", "2026-12-31"], feeds: [])
        let laptop = SyncSettings.merge(local: laptopDays, localModified: 200, agreed: agreed, remote: agreed)
        #expect(laptop.write && laptop.apply.isEmpty)
        // The desktop added 2 January meanwhile and removed nothing.
        let desktopDays = SyncSettings.localValues(config: [:], daysOff: ["2026-12-24", "2027-01-02"], feeds: [])
        let desktop = SyncSettings.merge(local: desktopDays, localModified: 300, agreed: agreed, remote: laptop.result)
        #expect(SyncSettings.changes(desktop, local: desktopDays).config == ["off": "2026-12-24,2026-12-31,2027-01-02"])
        #expect(desktop.result.values.filter { $0.value.value == "yes" }.count == 3)
    }

    @Test func aFeedSubscribedThereIsSubscribedHereAndOneDroppedThereIsDroppedHere() {
        let team = SyncSettings.Feed(address: "https://feeds.example.org/team.ics", name: "Team")
        let there = SyncSettings.merge(local: SyncSettings.localValues(config: [:], daysOff: [], feeds: [team]),
                                       localModified: 100, agreed: nil, remote: nil).result
        let here = SyncSettings.localValues(config: [:], daysOff: [], feeds: [])
        let first = SyncSettings.merge(local: here, localModified: 50, agreed: nil, remote: there)
        #expect(SyncSettings.changes(first, local: here).subscribe == [team])

        var dropped = there
        dropped.values[team.key] = SyncSettings.Value("", modified: 200)
        let nowHere = SyncSettings.localValues(config: [:], daysOff: [], feeds: [team])
        let second = SyncSettings.merge(local: nowHere, localModified: 50, agreed: there, remote: dropped)
        #expect(SyncSettings.changes(second, local: nowHere).drop == [team.address])
    }

    @Test func theSettingsEventReadsBackAsWrittenAndIsTakenOutOfTheItems() throws {
        let written = settings(["day_start": ("09:00", 1_700_000_000_123), "off.2026-12-24": ("yes", 5),
                                "feed.0123456789abcdef": ("https://x.example/a.ics?k=1,2;3\nTeam, the", 7)])
        let data = Data(written.encode(stamp: Date(timeIntervalSince1970: 0)).utf8)
        #expect(SyncSettings.decode(data) == written)
        var changes = RemoteChanges(complete: false, changed: [RemoteResource(url: "https://h/c/s.ics", etag: "\"e1\"", data: data)],
                                    removed: [], token: "t")
        #expect(SyncSettings.take(from: &changes, url: "https://h/c/s.ics") == .present(written, etag: "\"e1\""))
        #expect(changes.changed.isEmpty)
        var quiet = RemoteChanges(complete: false, changed: [], removed: [], token: "t")
        #expect(SyncSettings.take(from: &quiet, url: "https://h/c/s.ics") == nil, "a delta that does not name it: unchanged")
        var whole = RemoteChanges(complete: true, changed: [], removed: [], token: "t")
        #expect(SyncSettings.take(from: &whole, url: "https://h/c/s.ics") == .gone)
        #expect(SyncSettings.decode(Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)) == nil)
    }
}
