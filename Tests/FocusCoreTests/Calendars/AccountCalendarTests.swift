import FocusCore
import Testing

/// Which calendars of a connected account count after a refresh lists them again (README,
/// "A CalDAV account").
@Suite struct AccountCalendarTests {
    let home = "https://dav.example/alice/"
    func calendar(_ segment: String, _ name: String, _ components: [String] = ["VEVENT"], scheduling: Bool = false) -> RemoteCalendar {
        RemoteCalendar(url: home + segment + "/", displayName: name, components: components, scheduling: scheduling)
    }

    @Test func everyEventCalendarCountsUnlessRemovedByThePersonOrTheSyncCalendar() {
        let found = [calendar("work", "Work"), calendar("travel", "Travel"), calendar("gym", "Gym"), calendar("todo", "To do", ["VTODO"]),
                     calendar("focus", "Focus"), calendar(".in", "Inbox", scheduling: true)]
        let change = CalDAVChoice.reconcile(found: found, connected: [home + "work/", home + "old/"], names: [],
                                            excluded: [home + "gym/"], syncURL: home + "focus/")
        #expect(change.added.map(\.displayName) == ["Travel"])
        #expect(change.removed == [home + "old/"])
    }

    @Test func namesGivenAtConnectStayTheChoice() {
        let found = [calendar("work", "Work"), calendar("travel", "Travel"), calendar("home", "Home")]
        let change = CalDAVChoice.reconcile(found: found, connected: [home + "work/"], names: ["Work", "home"], excluded: [], syncURL: nil)
        #expect(change.added.map(\.displayName) == ["Home"], "named at connect, made since")
        #expect(change.removed.isEmpty)
        let renamed = CalDAVChoice.reconcile(found: [calendar("w", "Job")], connected: [home + "work/"], names: ["Work"], excluded: [], syncURL: nil)
        #expect(renamed == AccountCalendarChanges(added: [], removed: [home + "work/"]))
    }

    @Test func anAccountConnectedBeforeTheChoiceWasKeptOnlyLosesCalendars() {
        let found = [calendar("work", "Work"), calendar("travel", "Travel")]
        let change = CalDAVChoice.reconcile(found: found, connected: [home + "work/", home + "gone/"], names: nil, excluded: [], syncURL: nil)
        #expect(change == AccountCalendarChanges(added: [], removed: [home + "gone/"]))
    }

    @Test(arguments: [
        ("Work &amp; Life", "Work & Life"), ("Work & Life", "Work & Life"), ("a &lt;b&gt; &quot;c&quot; &apos;d&apos;", "a <b> \"c\" 'd'"),
        ("&#233;t&#xE9;", "été"), ("&amp;amp;", "&amp;"), ("fish & chips; peas", "fish & chips; peas"), ("&bogus;", "&bogus;"), ("&#xD800;", "&#xD800;"),
    ])
    func characterReferencesAreDecodedOnce(_ stored: String, _ shown: String) {
        #expect(CalDAVChoice.decodingReferences(stored) == shown)
    }
}

@Suite struct AttendanceTests {
    let me: Set<String> = ["alice@example.org", "alice@home.example"]

    @Test(arguments: [
        ([("mailto:Alice@Example.org", "DECLINED")], true, true),
        ([("mailto:alice@example.org", "ACCEPTED")], true, false),
        ([("mailto:alice@example.org", "TENTATIVE")], true, false),
        ([("mailto:alice@example.org", "TENTATIVE")], false, true),
        ([("mailto:alice@example.org", "NEEDS-ACTION")], false, true),
        ([("mailto:alice@example.org", "ACCEPTED")], false, false),
        ([("mailto:bob@example.org", "DECLINED")], true, false),
        ([("mailto:alice@example.org", "DECLINED"), ("mailto:alice@home.example", "ACCEPTED")], true, false),
        ([("mailto:alice@example.org", "DECLINED"), ("mailto:alice@home.example", "DECLINED")], true, true),
    ])
    func aMeetingIsFreeWhenThePersonDeclinedIt(_ attendees: [(String, String)], _ tentativeBusy: Bool, _ free: Bool) {
        #expect(Attendance.isFree(attendees: attendees.map { (address: $0.0, partstat: $0.1) }, addresses: me, tentativeBusy: tentativeBusy) == free)
    }

    @Test func withoutTheirAddressesEveryMeetingIsBusy() {
        #expect(!Attendance.isFree(attendees: [("mailto:alice@example.org", "DECLINED")], addresses: [], tentativeBusy: false))
    }
}
