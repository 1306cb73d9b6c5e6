import FocusCalendar
import FocusCore
import FocusCoreTestSupport
import FocusServices
import FocusStorage
import Foundation
import Testing

// One iCalendar reader (FocusCalendar): a calendar file, a feed and sync's calendar objects read
// the same text the same way, whatever ends its lines and however its TEXT values end.

@Suite("iCalendar text read the same by every path")
struct CalendarTextTests {
    let fixture = CalendarFixtures.bareCRAndTrailingBackslash
    let utc = LocalCalendar(zone: .utc)

    @Test("`calendar import` reads the event of a file with bare CR line ends, its title's trailing backslash kept")
    func importReadsTheFixture() throws {
        let world = try ServiceWorld()
        let horizon = DateInterval(start: world.now.addingTimeInterval(-86_400), end: world.now.addingTimeInterval(30 * 86_400))
        let (name, events, busy) = try CalendarFile.expand(fixture, file: "old-mac.ics", name: nil, horizon: horizon, local: utc,
                                                           strict: true, warn: { Issue.record("unexpected warning: \($0)") })
        #expect(name == "Old Mac")
        #expect(events == 1)
        #expect(busy.map(\.summary) == [CalendarFixtures.bareCRTitle])
        #expect(busy.map(\.start) == [CalendarFixtures.bareCRStart])
        #expect(busy.map(\.end) == [CalendarFixtures.bareCREnd])
    }

    @Test("A feed stores the same busy time from the same text")
    func feedStoresTheFixture() throws {
        let world = try ServiceWorld()
        let fixture = self.fixture
        let address = "https://example.org/old-mac.ics"
        let fetcher = FeedFetcher(env: world.context(), client: ScriptedHTTPClient { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "text/calendar"], body: fixture)
        })
        guard case let .body(data, _, _) = try CalendarFeed.fetch(address, state: FeedState(), conditional: false, label: address,
                                                                   client: fetcher.client)
        else { Issue.record("the feed was not fetched"); return }
        _ = try fetcher.store(data, address: address, state: FeedState(), name: nil, nameFallback: "feed", label: address, db: world.db,
                              verb: .subscribed, warn: { Issue.record("unexpected warning: \($0)") })
        let busy = try world.db.busyEvents(from: CalendarFixtures.bareCRStart.addingTimeInterval(-86_400),
                                           to: CalendarFixtures.bareCREnd.addingTimeInterval(86_400), zone: utc,
                                           expand: { _, _, _, _, _ in [] })
        #expect(busy.map(\.summary) == [CalendarFixtures.bareCRTitle])
        #expect(busy.map(\.calendar) == ["Old Mac"])
        #expect(busy.map(\.start) == [CalendarFixtures.bareCRStart])
        #expect(busy.map(\.end) == [CalendarFixtures.bareCREnd])
    }

    @Test("Sync reads the same text as the same session, and writes it back over itself unchanged in what it does not own")
    func syncReadsTheFixture() throws {
        let item = try #require(try SyncCodec.decode(fixture, zone: utc))
        guard case let .session(session) = item else { Issue.record("not a session: \(item)"); return }
        #expect(session.uid == CalendarFixtures.bareCRUID)
        #expect(session.label == CalendarFixtures.bareCRTitle)
        #expect(session.start == CalendarFixtures.bareCRStart)
        #expect(session.end == CalendarFixtures.bareCREnd)
        // Written over the original and read again, it is the same session.
        let written = SyncCodec.encode(item, stamp: CalendarFixtures.bareCRStart, over: fixture, zone: utc)
        #expect(try SyncCodec.decode(Data(written.utf8), zone: utc) == item)
        #expect(written.contains("X-WR-CALNAME:Old Mac\r\n"))
    }

    @Test("FocusCalendar's reader and the content lines sync reads give the same title and times")
    func contentLinesMatchTheReader() throws {
        let document = try ICSReader.parse(data: fixture, strict: true)
        let event = try #require(document.events.first)
        let props = try #require(ICSText.firstComponent(ICSText.lines(fixture), named: ["VEVENT"]))
        #expect(event.summary == CalendarFixtures.bareCRTitle)
        #expect(props.text("SUMMARY") == event.summary)
        #expect(props.value("UID") == event.uid)
        #expect(SyncCodec.instant(props.first("DTSTART"), zone: utc) == CalendarFixtures.bareCRStart)
    }
}
