import FocusCalendar
import FocusCore
import Foundation
import Testing

/// A publication's new event whose address was found taken (README, "Your real calendar"):
/// this focus's own event there is followed (or written over where it differs), any other is
/// left with a warning.
@Suite struct PublicationPlaceTakenTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)
    let uid = "focus-block-me-3-20261125-1@focus"

    /// The text focus writes for the block (as `ICSWriter` does: its own order, CRLF).
    var written: String {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//focus//focus//EN", "CALSCALE:GREGORIAN", "BEGIN:VEVENT", "UID:\(uid)",
         "DTSTAMP:20261124T220000Z", "DTSTART:20261125T070000Z", "DTEND:20261125T072500Z", "SUMMARY:Thesis/Draft",
         "DESCRIPTION:Outline first", "CATEGORIES:focus", "TRANSP:OPAQUE", "X-FOCUS-BLOCK:3", "X-FOCUS-PUBLISHER:me",
         "X-FOCUS-HOST:laptop", "END:VEVENT", "END:VCALENDAR", ""].joined(separator: "\r\n")
    }

    /// The same event as a server keeps it: properties sorted, a line folded (RFC 5545 section
    /// 3.1: the fold takes one space away), another DTSTAMP.
    var kept: String {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "CALSCALE:GREGORIAN", "PRODID:-//focus//focus//EN", "BEGIN:VEVENT", "UID:\(uid)",
         "DTSTART:20261125T070000Z", "DTEND:20261125T072500Z", "CATEGORIES:focus", "DESCRIPTION:Outline",
         "  first", "DTSTAMP:20261124T220003Z", "SUMMARY:Thesis/Draft", "TRANSP:OPAQUE", "X-FOCUS-BLOCK:3", "X-FOCUS-HOST:laptop",
         "X-FOCUS-PUBLISHER:me", "END:VEVENT", "END:VCALENDAR", ""].joined(separator: "\r\n")
    }

    var want: WantedEvent { WantedEvent(uid: uid, kind: .block, fingerprint: "f", end: start.addingTimeInterval(1500), index: 0, start: start) }

    func found(uid: String? = nil, byFocus: Bool = true, isBlock: Bool = true, publisher: String? = "me", etag: String? = "\"7\"") -> ServerCopy {
        ServerCopy(url: "https://dav.example.org/cal/x.ics", etag: etag, uid: uid ?? self.uid, byFocus: byFocus, isBlock: isBlock,
                   publisher: publisher, host: "laptop", time: DateInterval(start: start, end: start.addingTimeInterval(1500)), cancelled: false)
    }

    func decide(_ copy: ServerCopy?, _ text: String?, publisher: String = "me") -> PlaceTaken {
        Publication.placeTaken(want, text: written, found: copy, foundText: text, publisher: publisher)
    }

    @Test func thisFocussOwnEventAsItWritesItIsFollowedInTheVersionThere() {
        #expect(decide(found(), written) == .adopt(etag: "\"7\""))
        // Kept by the server in its own order and folding, stamped again: the same event.
        #expect(decide(found(), kept) == .adopt(etag: "\"7\""))
        #expect(decide(found(etag: nil), kept) == .adopt(etag: nil))
        // A worked session (`X-FOCUS-SESSION`) as it was written.
        var session = want
        session.kind = .session
        let copy = found(isBlock: false)
        #expect(Publication.placeTaken(session, text: written, found: copy, foundText: kept, publisher: "me") == .adopt(etag: "\"7\""))
    }

    @Test func thisFocussOwnEventInAnotherVersionIsWrittenOverInThatVersionOnly() {
        let moved = kept.replacingOccurrences(of: "DTSTART:20261125T070000Z", with: "DTSTART:20261125T080000Z")
        #expect(decide(found(), moved) == .overwrite(etag: "\"7\""))
        let more = written.replacingOccurrences(of: "END:VEVENT", with: "X-SERVER-NOTE:kept\r\nEND:VEVENT")
        #expect(decide(found(etag: nil), more) == .overwrite(etag: nil))
        // Its text not given: not known to be the same.
        #expect(decide(found(), nil) == .overwrite(etag: "\"7\""))
    }

    @Test func anyOtherEventIsLeft() {
        #expect(decide(nil, nil) == .leave, "nothing there reads")
        #expect(decide(found(publisher: "other"), kept) == .leave, "another machine's focus")
        #expect(decide(found(publisher: nil), kept) == .leave, "an older focus, which named no publisher")
        #expect(decide(found(byFocus: false, isBlock: false, publisher: nil), kept) == .leave, "another app's event with that UID")
        #expect(decide(found(uid: "lunch@example.org"), kept) == .leave, "another UID at that address")
        #expect(decide(found(isBlock: false), kept) == .leave, "this focus's session, not a block")
        #expect(decide(found(), kept, publisher: "") == .leave, "no publisher name here to recognise")
    }

    @Test func thisFocussEventsFoundWithoutARecordAreFollowedAsWrittenWhenTheyAreAsFocusWritesThem() {
        let url = "https://dav.example.org/cal/x.ics"
        let untracked = PublishedEvent(uid: uid, kind: .block, url: url, etag: "\"7\"", fingerprint: "", end: want.end, start: start)
        func follow(_ record: PublishedEvent, _ text: String, wanted: [WantedEvent]? = nil) -> PublishedEvent? {
            Publication.followedAsWritten([record], found: [url: (found(), text)], wanted: wanted ?? [want], texts: [written],
                                          publisher: "me", key: { $0 }).first
        }
        #expect(follow(untracked, kept)?.fingerprint == "f", "as focus writes it: not written again")
        let moved = kept.replacingOccurrences(of: "DTSTART:20261125T070000Z", with: "DTSTART:20261125T080000Z")
        #expect(follow(untracked, moved)?.fingerprint == "", "another version: written over")
        #expect(follow(untracked, kept, wanted: [])?.fingerprint == "", "no longer wanted: the plan deletes it")
        var tracked = untracked
        tracked.fingerprint = "old"
        #expect(follow(tracked, kept) == tracked, "a record focus kept is the review's")
    }

    @Test func twoTextsOfAnEventAreTheSameWhateverTheirOrderFoldingAndStamp() {
        #expect(Publication.sameEvent(written, kept))
        #expect(Publication.sameEvent(written.replacingOccurrences(of: "\r\n", with: "\n"), kept))
        #expect(!Publication.sameEvent(written, kept.replacingOccurrences(of: "SUMMARY:Thesis/Draft", with: "SUMMARY:Thesis/Drafts")))
        #expect(!Publication.sameEvent(written, kept.replacingOccurrences(of: "TRANSP:OPAQUE\r\n", with: "")), "a property fewer")
        #expect(!Publication.sameEvent("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"), "no event")
    }
}
