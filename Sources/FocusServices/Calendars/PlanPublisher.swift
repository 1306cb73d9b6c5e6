import FocusCalendar
import FocusCore
import FocusStorage
import FocusText
import FoundationEssentials

/// Writes the plan to a CalDAV calendar (README, "Your real calendar"): each planned block
/// still ahead is one event there (`CATEGORIES:focus`, opaque, the subtask's notes as its
/// description, `X-FOCUS-BLOCK` so focus never reads it back as busy time, `X-FOCUS-PUBLISHER`
/// naming this focus so no other machine's focus writes over it), created with
/// `If-None-Match: *`, updated with `If-Match`, deleted when the block goes. With sessions, the
/// worked sessions of the planning window too, as `export --format ics` writes them.
///
/// Each publication first looks at what changed in the calendar since the last one (RFC 6578):
/// an event deleted there is written again, a block moved there is pinned where the person put
/// it (`BlockPin`), an event edited otherwise is left as it is, and a calendar holding another
/// machine's plan is not written to (one calendar holds one plan). Only what changed is written;
/// only events this focus wrote are ever touched.
package struct PlanPublisher {
    let env: ServiceContext
    let client: any CalDAVClient

    package init(env: ServiceContext, client: any CalDAVClient) {
        self.env = env
        self.client = client
    }

    package struct Summary {
        package var created = 0
        package var restored = 0
        package var updated = 0
        package var deleted = 0
        package var unchanged = 0
        package var blocks = 0
        package var sessions = 0
        package var warnings: [String] = []
        /// Things the person should know that are not problems (a block pinned, a calendar made again).
        package var notes: [String] = []
        /// Set when the calendar holds another machine's plan: nothing was written.
        package var otherPlan: (count: Int, host: String, publisher: String)?
    }

    /// The events the plan and history want in the calendar, their texts, and the block each
    /// block event stands for.
    func wanted(_ target: PublishTarget, db: AppDatabase, publisher: String) throws -> (events: [WantedEvent], texts: [String], blocks: [String: BlockView]) {
        let now = env.now()
        let blocks = try db.blocks(startingFrom: env.calendar.startOfDay(env.calendar.day(of: now)))
        let notes = try db.subtaskNotes()
        let marks = ["X-FOCUS-PUBLISHER:" + publisher, "X-FOCUS-HOST:" + Self.host]
        var events: [WantedEvent] = []
        var texts: [String] = []
        var byUID: [String: BlockView] = [:]
        for (var event, block) in PlanEvents.blockEvents(blocks, now: now, calendar: env.calendar, publisher: publisher) {
            event.description = notes[block.subtaskID] ?? "Work block planned by focus."
            event.properties = ["CATEGORIES:focus", "TRANSP:OPAQUE", "X-FOCUS-BLOCK:" + (block.id.map(String.init) ?? event.uid)] + marks
            let text = ICSWriter.calendar(events: [event], stamp: now)
            var want = WantedEvent(uid: event.uid, kind: .block, fingerprint: Publication.fingerprint(text), end: event.end,
                                   index: texts.count, start: event.start)
            // What a person reads in it, as the calendar's copy will be read back (`ServerCopy.content`).
            want.content = PublishedCopyReader.copy(data: Data(text.utf8), url: "", etag: nil, local: env.calendar)
                .map { Publication.fingerprint($0.content) }
            events.append(want)
            texts.append(text)
            byUID[event.uid] = block
        }
        if target.sessions {
            let from = now.addingTimeInterval(-Double(CalendarFile.daysBack * 86_400))
            _ = try db.exportSessions(from: from, to: nil) { record, identity in
                var event = PlanEvents.sessionEvent(record, identity: identity)
                event.properties = ["CATEGORIES:focus", "TRANSP:TRANSPARENT", "X-FOCUS-SESSION:" + record.status.rawValue] + marks
                let text = ICSWriter.calendar(events: [event], stamp: now)
                events.append(WantedEvent(uid: event.uid, kind: .session, fingerprint: Publication.fingerprint(text), end: event.end,
                                          index: texts.count, start: event.start))
                texts.append(text)
            }
        }
        return (events, texts, byUID)
    }

    /// This machine's name, as events carry it for the messages of another machine's focus:
    /// letters, digits, dots and dashes only (a property value needs no escaping then).
    static let host: String = {
        let name = String(SyncEngine.hostName().unicodeScalars.filter { $0.isASCIIAlphanumeric || $0 == "." || $0 == "-" })
        return name.isEmpty ? "unknown" : name
    }()

    /// Publishes to one target; every write is recorded as soon as the server took it. A
    /// calendar that holds another machine's plan is not written to (`otherPlan` says so), unless
    /// `established` and the other machine is the one that gives way (`Publication.yields`).
    package func publish(_ target: PublishTarget, endpoint: CalDAVEndpoint, db: AppDatabase, established: Bool = false) throws -> Summary {
        // One writer at a time per database (`PublishLock`).
        let lock = try PublishLock.acquire(database: env.databasePath)
        defer { lock?.release() }
        let publisher = try db.publisherName()
        var summary = Summary()
        let before = try wanted(target, db: db, publisher: publisher)
        let (review, token) = try look(target, endpoint: endpoint, db: db, publisher: publisher, summary: &summary,
                                       wanted: (before.events, before.texts))
        if let other = review.otherPlan, !established || Publication.yields(publisher, to: other.publisher) {
            summary.otherPlan = other
            return summary
        }
        try db.setPublishToken(targetID: target.id, token)
        let declined = try apply(review, target: target, db: db, blocks: before.blocks, summary: &summary)
        let (wanted, texts, _) = try self.wanted(target, db: db, publisher: publisher)
        // A moved block is recorded as the text focus would now write for it: the person's copy
        // is not written over.
        for move in review.moved {
            guard let want = wanted.first(where: { $0.uid == move.event.uid }) else { continue }
            try db.recordPublished(targetID: target.id, PublishedEvent(uid: want.uid, kind: .block, url: move.event.url, etag: move.etag,
                                                                         fingerprint: want.fingerprint, end: move.time.end, start: move.time.start,
                                                                         content: move.event.content))
        }
        let actions = Publication.actions(wanted: wanted, published: try db.publishedEvents(targetID: target.id), now: env.now())
        summary.blocks = wanted.filter { $0.kind == .block }.count
        summary.sessions = wanted.count - summary.blocks
        let writer = Writer(publisher: self, target: target, endpoint: endpoint, db: db, texts: texts, gone: Set(review.gone.map(\.uid)).subtracting(declined),
                            token: token, publisherName: publisher)
        try writer.perform(actions, summary: &summary)
        if summary.created + summary.restored + summary.updated + summary.deleted > 0, let token {
            try catchUp(target, since: token, endpoint: endpoint, db: db)
        }
        try db.notePublication(targetID: target.id, at: env.now(), error: nil)
        return summary
    }

    /// Moves the publication's token past its own writes when they are all that changed since
    /// the look (`Publication.onlyOwnWrites`); otherwise the next look reads them again.
    private func catchUp(_ target: PublishTarget, since token: String, endpoint: CalDAVEndpoint, db: AppDatabase) throws {
        guard let after = try? client.changes(in: target.url, since: token, endpoint), let next = after.token,
              Publication.onlyOwnWrites(after, published: try db.publishedEvents(targetID: target.id), key: CalDAVAddress.normalized)
        else { return }
        try db.setPublishToken(targetID: target.id, next)
    }

    /// What changed in the calendar since the last publication, reviewed; the calendar is made
    /// again when it was deleted there. With `wanted`, this focus's events found there without a
    /// record that are as it would write them are recorded so (`Publication.followedAsWritten`).
    func look(_ target: PublishTarget, endpoint: CalDAVEndpoint, db: AppDatabase, publisher: String, summary: inout Summary,
              wanted: (events: [WantedEvent], texts: [String])? = nil) throws -> (review: PublicationReview, token: String?) {
        let changes: RemoteChanges
        do {
            changes = try client.changes(in: target.url, since: target.syncToken, endpoint)
        } catch {
            guard try calendarIsGone(target, endpoint: endpoint, db: db) else { throw error }
            // Deleted in another app: made again, and every event written again (nothing to warn about).
            _ = try client.makeCalendar(target.url, displayName: target.name, endpoint)
            try db.forgetAllPublished(targetID: target.id)
            summary.notes.append("calendar \(DisplayText(target.name).string) was deleted there: made it again.")
            return (PublicationReview(), nil)
        }
        let (copies, found) = self.copies(in: changes)
        var review = Publication.review(published: try db.publishedEvents(targetID: target.id), changed: copies, removed: changes.removed,
                                        complete: changes.complete, publisher: publisher, now: env.now(), key: CalDAVAddress.normalized)
        if let wanted {
            review.records = Publication.followedAsWritten(review.records, found: found, wanted: wanted.events, texts: wanted.texts,
                                                           publisher: publisher, key: CalDAVAddress.normalized)
        }
        return (review, changes.token)
    }

    /// The events among `changes` that read, in their order, and with their texts by address
    /// (`CalDAVAddress.normalized`): what the review and a refused new event are judged on.
    func copies(in changes: RemoteChanges) -> (ordered: [ServerCopy], byAddress: [String: (copy: ServerCopy, text: String)]) {
        var byAddress: [String: (copy: ServerCopy, text: String)] = [:]
        let ordered = changes.changed.compactMap { r -> ServerCopy? in
            guard let data = r.data, let copy = PublishedCopyReader.copy(data: data, url: r.url, etag: r.etag, local: env.calendar) else { return nil }
            byAddress[CalDAVAddress.normalized(r.url)] = (copy, String(decoding: data, as: UTF8.self))
            return copy
        }
        return (ordered, byAddress)
    }

    /// Whether the target's calendar is no longer in its account (a failure that is not that,
    /// a server that is down, is the caller's to report).
    private func calendarIsGone(_ target: PublishTarget, endpoint: CalDAVEndpoint, db: AppDatabase) throws -> Bool {
        guard let account = try db.accounts().first(where: { $0.id == target.accountID }) else { return false }
        let home = account.discovered
        guard let calendars = try? client.calendars(home, endpoint) else { return false }
        let url = CalDAVAddress.normalized(target.url)
        return !calendars.contains { CalDAVAddress.normalized($0.url) == url }
    }

    /// Stores what the review found: events gone or taken over there forgotten, new versions
    /// recorded, moved blocks pinned (then the plan is made again around them).
    private func apply(_ review: PublicationReview, target: PublishTarget, db: AppDatabase, blocks: [String: BlockView],
                       summary: inout Summary) throws -> Set<String> {
        let declining = Publication.declined(review.gone, published: try db.publishedEvents(targetID: target.id), now: env.now())
        for event in review.gone + review.lost { try db.forgetPublished(targetID: target.id, uid: event.uid) }
        for event in review.records { try db.recordPublished(targetID: target.id, event) }
        for event in review.edited where event.kind == .block {
            let name = blocks[event.uid].map { "'\(DisplayText($0.path).string)'" } ?? "an event focus wrote (\(DisplayText(event.uid).string))"
            summary.warnings.append("\(name) was changed in the calendar: left as it is (delete it there and focus writes it again).")
        }
        var pinned = false
        for move in review.moved {
            guard let block = blocks[move.event.uid], let id = block.id,
                  try db.pinBlock(id: id, uid: move.event.uid, start: move.time.start, end: move.time.end) else {
                // Its block is no longer planned here (it ended, or went): the moved event is left as it is.
                var left = move.event
                left.etag = move.etag
                left.fingerprint = Publication.leftFingerprint
                try db.recordPublished(targetID: target.id, left)
                continue
            }
            pinned = true
            let when = RelativeTime.shortDateTime(move.time.start, calendar: env.calendar, now: env.now())
            summary.notes.append("\(DisplayText(block.path).string) is pinned at \(when), where it was moved in the calendar "
                + "(`focus plan --unpin \(Quoted.shell(block.path))` lets focus plan it again).")
        }
        var declined: [(block: BlockView, uid: String)] = []
        for event in declining {
            guard let block = blocks[event.uid], let id = block.id,
                  try db.declineSlot(blockID: id, until: env.calendar.startOfDay(env.calendar.day(of: block.start).adding(days: 1))) else { continue }
            declined.append((block, event.uid))
        }
        if pinned || !declined.isEmpty { _ = Planning.replanIfStale(env, db) }
        try sayDeclined(declined.map(\.block), db: db, summary: &summary)
        return Set(declined.map(\.uid))
    }

    /// `Thesis/Draft: not at Tue 14:25 (deleted in the calendar); planned Wed 09:00`, once per
    /// block deleted there, with the work's next block after the re-plan.
    private func sayDeclined(_ declined: [BlockView], db: AppDatabase, summary: inout Summary) throws {
        guard !declined.isEmpty else { return }
        let now = env.now()
        let ahead = try db.blocks(startingFrom: now).filter { $0.status == .planned && $0.start >= now }
        for block in declined {
            let at = RelativeTime.shortDateTime(block.start, calendar: env.calendar, now: now)
            let next = ahead.filter { $0.subtaskID == block.subtaskID }.min { $0.start < $1.start }
            let then = next.map { "planned " + RelativeTime.shortDateTime($0.start, calendar: env.calendar, now: now) } ?? "not planned again before its due date"
            summary.notes.append("\(DisplayText(block.path).string): not at \(at) (deleted in the calendar); \(then).")
        }
    }

    /// What the publication wrote, as `PublishRenderer` says it.
    package static func published(_ summary: Summary, target: PublishTarget) -> PublishReport {
        .published(PublishedPlan(calendar: target.name, blocks: summary.blocks, sessions: summary.sessions, created: summary.created,
                                 restored: summary.restored, updated: summary.updated, deleted: summary.deleted))
    }
}
