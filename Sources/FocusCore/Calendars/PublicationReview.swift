import FocusCalendar
import FoundationEssentials

/// What the server's side of a published calendar says before focus writes to it (README,
/// "Your real calendar"): the events focus wrote that are gone there (written again), moved
/// (pinned where the person put them), or otherwise changed (left as they are), events of this
/// focus it no longer follows (followed again), and whether another machine's plan is there.
package struct PublicationReview: Sendable, Equatable {
    /// A block the person moved: pin it at `time`; the event's version there is `etag`.
    package struct Move: Sendable, Equatable {
        package var event: PublishedEvent
        package var time: DateInterval
        package var etag: String?

        package init(event: PublishedEvent, time: DateInterval, etag: String?) {
            self.event = event
            self.time = time
            self.etag = etag
        }
    }

    /// Gone from the server (deleted in another app): forgotten, and written again if wanted.
    package var gone: [PublishedEvent] = []
    /// Written over there by another machine's focus: no longer this machine's to write or delete.
    package var lost: [PublishedEvent] = []
    package var moved: [Move] = []
    /// Changed there in another way, for the first time: left as they are (with a warning).
    package var edited: [PublishedEvent] = []
    /// New records to keep: a new ETag for an unchanged event, an edited event's mark, events
    /// of this focus found untracked (to be written or deleted as the plan says).
    package var records: [PublishedEvent] = []
    /// Blocks still ahead that another machine's focus publishes here, that machine's name, and
    /// its publisher name (the smallest, when there are several).
    package var otherPlan: (count: Int, host: String, publisher: String)?

    package init() {}

    package static func == (a: PublicationReview, b: PublicationReview) -> Bool {
        a.gone == b.gone && a.lost == b.lost && a.moved == b.moved && a.edited == b.edited && a.records == b.records
            && a.otherPlan?.count == b.otherPlan?.count && a.otherPlan?.host == b.otherPlan?.host
            && a.otherPlan?.publisher == b.otherPlan?.publisher
    }
}

extension Publication {
    /// Reviews what changed on the server since the last publication. `complete`: `changed` is
    /// the whole calendar (every published event not in it is gone); else `removed` lists what
    /// went. `key` makes two spellings of one URL equal. A conditional write answered 412 on a
    /// member that no longer exists (RFC 7232 section 3.1; DAViCal and Radicale do) is found
    /// gone here, before any write.
    ///
    /// Two machines that began to publish into one calendar at the same moment both find the
    /// other's plan; `yields` says which gives way (the one whose publisher name sorts after the
    /// other's), so that exactly one plan stays.
    package static func yields(_ publisher: String, to other: String) -> Bool { other < publisher }

    package static func review(published: [PublishedEvent], changed: [ServerCopy], removed: [String], complete: Bool,
                               publisher: String, now: Date, key: (String) -> String) -> PublicationReview {
        var review = PublicationReview()
        var byURL: [String: PublishedEvent] = [:]
        for event in published { byURL[key(event.url)] = event }
        let changedURLs = Set(changed.map { key($0.url) })
        let goneURLs = complete ? Set(byURL.keys).subtracting(changedURLs) : Set(removed.map(key)).subtracting(changedURLs)
        review.gone = published.filter { goneURLs.contains(key($0.url)) }
        var others = 0
        var otherHost: String?
        var otherName: String?
        for copy in changed {
            if let record = byURL[key(copy.url)] {
                guard copy.etag == nil || copy.etag != record.etag else { continue }
                if copy.byFocus, let other = copy.publisher, other != publisher {
                    review.lost.append(record)
                    continue
                }
                judge(copy, record: record, into: &review)
            } else if copy.byFocus, copy.publisher == publisher {
                // Written here before focus lost track of it (a publication stopped by a failure,
                // an account connected again): followed again, so the plan decides its fate.
                review.records.append(PublishedEvent(uid: copy.uid, kind: copy.isBlock ? .block : .session, url: copy.url, etag: copy.etag,
                                                     fingerprint: "", end: copy.time?.end ?? now, start: copy.time?.start))
            } else if copy.byFocus, copy.isBlock, let other = copy.publisher, other != publisher, !copy.cancelled,
                      (copy.time?.end ?? .distantFuture) > now {
                others += 1
                if otherName == nil || other < otherName! {
                    otherName = other
                    otherHost = copy.host ?? "another machine"
                }
            }
        }
        if others > 0, let otherName { review.otherPlan = (others, otherHost ?? "another machine", otherName) }
        return review
    }

    /// The events gone there that mean "not in this slot" (README, "Publishing"): blocks still
    /// ahead, deleted in the calendar app. When every block ahead went at once (two or more),
    /// the calendar was emptied or made again rather than each one declined: they come back
    /// whole, as a deleted calendar does.
    package static func declined(_ gone: [PublishedEvent], published: [PublishedEvent], now: Date) -> [PublishedEvent] {
        let ahead = { (e: PublishedEvent) in e.kind == .block && !e.leftToThePerson && (e.start ?? e.end) > now }
        let declined = gone.filter(ahead)
        let all = published.filter(ahead).count
        return declined.count >= 2 && declined.count >= all ? [] : declined
    }

    /// Whether what changed in a calendar since the look before a publication's writes is those
    /// writes and nothing else: every changed member is an event recorded with that entity tag,
    /// and no recorded event went. The publication's token may then move past its own writes, so
    /// that the next look sees what another app does to them: a server that reports changes as
    /// the difference of two states (Xandikos) never reports an event made and then deleted
    /// since a token.
    package static func onlyOwnWrites(_ changes: RemoteChanges, published: [PublishedEvent], key: (String) -> String) -> Bool {
        guard !changes.complete else { return false }
        var recorded: [String: String?] = [:]
        for event in published { recorded[key(event.url)] = event.etag }
        for resource in changes.changed {
            guard let etag = resource.etag, case let tag?? = recorded[key(resource.url)], tag == etag else { return false }
        }
        return !changes.removed.contains { recorded[key($0)] != nil }
    }

    /// A published event whose copy on the server is not the version focus wrote.
    private static func judge(_ copy: ServerCopy, record: PublishedEvent, into review: inout PublicationReview) {
        var updated = record
        updated.etag = copy.etag
        // A server that gave no ETag for focus's write: its first one is focus's version.
        if record.etag == nil, record.kind == .session {
            review.records.append(updated)
            return
        }
        guard record.kind == .block, let start = record.start else {
            if record.leftToThePerson || record.kind == .block { review.records.append(updated) } else {
                updated.fingerprint = leftFingerprint
                review.records.append(updated)
                review.edited.append(updated)
            }
            return
        }
        switch BlockPin.decide(written: DateInterval(start: start, end: max(start, record.end)), found: copy.time, cancelled: copy.cancelled) {
        case .unchanged where record.content.map { $0 != fingerprint(copy.content) } ?? false:
            // At its time, but it reads otherwise (its summary or description edited there):
            // left as it is, with one warning, never written over.
            if !record.leftToThePerson { review.edited.append(updated) }
            updated.fingerprint = leftFingerprint
            review.records.append(updated)
        case .unchanged:
            review.records.append(updated)
        case let .pin(start, end):
            review.moved.append(PublicationReview.Move(event: record, time: DateInterval(start: start, end: end), etag: copy.etag))
        case .edited:
            if !record.leftToThePerson { review.edited.append(updated) }
            updated.fingerprint = leftFingerprint
            review.records.append(updated)
        }
    }
}
