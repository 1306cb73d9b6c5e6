import FocusCalendar
import FocusCore
import Foundation
import Testing

/// What a publication finds in the calendar before it writes (README, "Your real calendar").
@Suite struct PublicationReviewTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let calendar = "https://dav.example.org/cal/"

    func at(_ minutes: Int) -> Date { now.addingTimeInterval(Double(minutes * 60)) }

    func published(_ uid: String, etag: String, from: Int = 60, to: Int = 85) -> PublishedEvent {
        PublishedEvent(uid: uid, kind: .block, url: calendar + uid + ".ics", etag: etag, fingerprint: "f", end: at(to), start: at(from))
    }

    func copy(_ uid: String, etag: String, from: Int = 60, to: Int = 85, publisher: String? = "me", byFocus: Bool = true) -> ServerCopy {
        ServerCopy(url: calendar + uid + ".ics", etag: etag, uid: uid, byFocus: byFocus, isBlock: byFocus, publisher: publisher,
                   host: publisher == "me" ? "laptop" : "desktop", time: DateInterval(start: at(from), end: at(to)), cancelled: false)
    }

    func review(_ published: [PublishedEvent], _ changed: [ServerCopy], removed: [String] = [], complete: Bool = false) -> PublicationReview {
        Publication.review(published: published, changed: changed, removed: removed, complete: complete, publisher: "me", now: now, key: { $0 })
    }

    @Test func anEventDeletedThereIsGoneAndOnlyThat() {
        let a = published("a", etag: "1"), b = published("b", etag: "2")
        #expect(review([a, b], [], removed: [a.url]).gone == [a])
        // A whole listing: what it lacks is gone.
        #expect(review([a, b], [copy("b", etag: "2")], complete: true).gone == [a])
        #expect(review([a, b], [copy("a", etag: "1"), copy("b", etag: "2")], complete: true) == PublicationReview())
    }

    @Test func aMovedBlockIsAMoveWithItsNewVersion() {
        let a = published("a", etag: "1")
        let found = review([a], [copy("a", etag: "9", from: 300, to: 325)])
        #expect(found.moved == [PublicationReview.Move(event: a, time: DateInterval(start: at(300), end: at(325)), etag: "9")])
        #expect(found.gone.isEmpty && found.edited.isEmpty)
    }

    @Test func anEditThatIsNotAMoveIsLeftToThePersonOnce() {
        let a = published("a", etag: "1")
        let first = review([a], [copy("a", etag: "9")])
        // Same times, new ETag: recorded as is (a block's text edit keeps the time).
        #expect(first.records.map(\.etag) == ["9"] && first.moved.isEmpty)
        var allDay = copy("a", etag: "9")
        allDay.time = nil
        let second = review([a], [allDay])
        #expect(second.edited.count == 1 && second.records.first?.leftToThePerson == true)
        // Seen again later: no second warning.
        let third = review(second.records, [allDay.with(etag: "10")])
        #expect(third.edited.isEmpty)
    }

    @Test func anotherMachinesPlanIsSeenAndItsEventsAreNeverOurs() {
        let mine = published("a", etag: "1")
        let found = review([mine], [copy("x", etag: "5", publisher: "other"), copy("a", etag: "6", publisher: "other")])
        #expect(found.otherPlan?.count == 1 && found.otherPlan?.host == "desktop" && found.otherPlan?.publisher == "other")
        // Two machines that started together: exactly one gives way.
        #expect(Publication.yields("me", to: "other") != Publication.yields("other", to: "me"))
        #expect(found.lost == [mine], "written over there by another machine: no longer this machine's to write or delete")
        // Its ended blocks are history, and events of people are not plans.
        let history = review([], [copy("y", etag: "5", from: -120, to: -95, publisher: "other"), copy("z", etag: "6", publisher: nil, byFocus: false)])
        #expect(history.otherPlan == nil)
    }

    @Test func thisMachinesEventsFoundUntrackedAreFollowedAgain() {
        let found = review([], [copy("a", etag: "3")], complete: true)
        #expect(found.records.map(\.uid) == ["a"] && found.otherPlan == nil)
        // Followed with an empty fingerprint: the plan's version is written over it, or it is deleted.
        #expect(Publication.actions(wanted: [], published: found.records, now: now) == [.delete(found.records[0])])
    }

    @Test func blockUIDsNameTheSameWorkOnEveryMachineAndNeverCollide() {
        let day = LocalDate(year: 2026, month: 11, day: 25)
        let synced = Publication.blockUID(subtaskSyncUID: "focus-subtask-00ab@focus", publisher: "p1", subtaskID: 3, day: day, ordinal: 2)
        #expect(synced == "focus-block-00ab-20261125-2@focus")
        #expect(Publication.blockUID(subtaskSyncUID: "focus-subtask-00ab@focus", publisher: "p2", subtaskID: 7, day: day, ordinal: 2) == synced)
        // Not synced: each machine's own, never another's.
        #expect(Publication.blockUID(subtaskSyncUID: nil, publisher: "p1", subtaskID: 3, day: day, ordinal: 1)
            != Publication.blockUID(subtaskSyncUID: nil, publisher: "p2", subtaskID: 3, day: day, ordinal: 1))
        #expect(Publication.blockUID(subtaskSyncUID: nil, publisher: nil, subtaskID: 3, day: day, ordinal: 1) == "3-20261125-1@focus")
    }
}

private extension ServerCopy {
    func with(etag: String) -> ServerCopy {
        var copy = self
        copy.etag = etag
        return copy
    }
}
