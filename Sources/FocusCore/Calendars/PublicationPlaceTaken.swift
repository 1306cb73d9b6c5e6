import FocusCalendar
import FoundationEssentials

/// What becomes of a new event of a publication whose address was found taken (README, "Your
/// real calendar"): its `If-None-Match: *` write was answered 412 (RFC 7232 section 3.2).
/// Most often the event there is this focus's own: the server stored an earlier send of the
/// same write and its answer was lost (a connection cut after the server wrote, a timeout, a
/// proxy), so the write was sent again, or the next publication creates it again.
package enum PlaceTaken: Sendable, Equatable {
    /// This focus's own event, as focus writes it now: followed from now on, in version `etag`.
    case adopt(etag: String?)
    /// This focus's own event in another version: written over, only in version `etag`
    /// (`If-Match`; nil: the server gave none, any version).
    case overwrite(etag: String?)
    /// Not this focus's event for that block (another app's, another machine's focus's), or
    /// nothing that reads: left as it is, with a warning (focus writes over no event it did
    /// not write).
    case leave
}

extension Publication {
    /// Decides what to do about a new event `want` (whose text focus writes is `text`) refused
    /// because its address is taken, given what the calendar holds there (`found`, nil when
    /// nothing there reads as an event, and its text `foundText`). The event there is this
    /// focus's own for that block when it has the same UID, was written by focus
    /// (`X-FOCUS-BLOCK` or `X-FOCUS-SESSION`, the one of `want`'s kind) and names this focus as
    /// its publisher (`X-FOCUS-PUBLISHER`, a name no other database's focus has).
    package static func placeTaken(_ want: WantedEvent, text: String, found: ServerCopy?, foundText: String?, publisher: String) -> PlaceTaken {
        guard let found, found.uid == want.uid, found.byFocus, found.isBlock == (want.kind == .block),
              let name = found.publisher, !publisher.isEmpty, name == publisher else { return .leave }
        return foundText.map { sameEvent($0, text) } == true ? .adopt(etag: found.etag) : .overwrite(etag: found.etag)
    }

    /// This focus's events found in the calendar without a record here (the review's records
    /// without a fingerprint: a write whose answer was lost, a publication cut off), made
    /// records the plan can judge: one that is as focus writes it now (`placeTaken` adopts it)
    /// gets the fingerprint of what focus writes, so that it is not written again; any other
    /// keeps none and is written over. `found`: the copy there and its text, by `key` of its
    /// address (two spellings of one URL alike); `texts`: the wanted events' texts
    /// (`WantedEvent.index`).
    package static func followedAsWritten(_ records: [PublishedEvent], found: [String: (copy: ServerCopy, text: String)],
                                          wanted: [WantedEvent], texts: [String], publisher: String,
                                          key: (String) -> String) -> [PublishedEvent] {
        var byUID: [String: WantedEvent] = [:]
        for want in wanted { byUID[want.uid] = want }
        return records.map { record in
            guard record.fingerprint.isEmpty, let want = byUID[record.uid], let there = found[key(record.url)],
                  case .adopt = placeTaken(want, text: texts[want.index], found: there.copy, foundText: there.text, publisher: publisher)
            else { return record }
            var followed = record
            followed.fingerprint = want.fingerprint
            return followed
        }
    }

    /// Whether two texts of an event say the same: the properties of their first VEVENT,
    /// unfolded (RFC 5545 section 3.1), in any order, DTSTAMP aside (it changes with every
    /// write). A server may keep an event with its properties in another order, or folded
    /// otherwise, than it was written (Radicale sorts them).
    package static func sameEvent(_ a: String, _ b: String) -> Bool {
        let lines = eventLines(a)
        return !lines.isEmpty && lines == eventLines(b)
    }

    private static func eventLines(_ text: String) -> [String] {
        var lines: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += line.dropFirst()
            } else {
                lines.append(String(line))
            }
        }
        guard let begin = lines.firstIndex(of: "BEGIN:VEVENT"), let end = lines[begin...].firstIndex(of: "END:VEVENT") else { return [] }
        return lines[(begin + 1)..<end].filter { !$0.uppercased().hasPrefix("DTSTAMP") }.sorted()
    }
}
