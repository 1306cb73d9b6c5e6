import FocusCalendar
import FocusText
import FocusCore
import FocusStorage
import FoundationEssentials

extension PlanPublisher {
    /// Performs a publication's writes, several at once where the server keeps up
    /// (`WriteSender`): every PUT first, then the DELETEs, so that a publication cut off leaves
    /// the old blocks beside the new rather than neither. A conditional write refused with 412
    /// is checked against the calendar's listing once the others ended: DAViCal and Radicale
    /// answer 412, not 404, to an `If-Match` on a member that no longer exists (RFC 7232 section
    /// 3.1), and such an event is gone there, to be written again (together, after the rest).
    /// A new event refused because its address is taken is checked against what the calendar
    /// holds there (`Publication.placeTaken`): this focus's own, whose first write the server
    /// stored without the answer reaching focus, is followed (and written over if it differs).
    struct Writer {
        let publisher: PlanPublisher
        let target: PublishTarget
        let endpoint: CalDAVEndpoint
        let db: AppDatabase
        let texts: [String]
        /// UIDs of events found deleted there: writing them is writing them again.
        let gone: Set<String>
        /// The sync token of the look before the writes (nil: none): what changed since holds
        /// every event this publication wrote.
        let token: String?
        /// This database's publisher name (`X-FOCUS-PUBLISHER`).
        let publisherName: String

        init(publisher: PlanPublisher, target: PublishTarget, endpoint: CalDAVEndpoint, db: AppDatabase, texts: [String], gone: Set<String>,
             token: String?, publisherName: String) {
            self.gone = gone
            self.token = token
            self.publisherName = publisherName
            self.publisher = publisher
            self.target = target
            self.endpoint = endpoint
            self.db = db
            self.texts = texts
        }

        private var sender: WriteSender { WriteSender(env: publisher.env, client: publisher.client, endpoint: endpoint) }

        /// What is left to do once the first writes were answered.
        private struct Refusals {
            /// Events to write again as new (their old version is not there).
            var again: [WantedEvent] = []
            /// Updates and deletions refused with 412: gone there, or changed there.
            var updates: [(want: WantedEvent, existing: PublishedEvent)] = []
            var deletions: [PublishedEvent] = []
            /// New events refused because their address is taken; `again`: written again.
            var taken: [(want: WantedEvent, again: Bool)] = []
        }

        func perform(_ actions: [PublishAction], summary: inout Summary) throws {
            var writes: [PublishAction] = []
            for action in actions {
                if case let .forget(existing) = action {
                    try db.forgetPublished(targetID: target.id, uid: existing.uid)
                } else {
                    writes.append(action)
                }
            }
            var refusals = Refusals()
            try sender.send(orders: writes.map { if case .delete = $0 { 1 } else { 0 } }) { index in
                request(writes[index])
            } answered: { index, answer in
                try record(writes[index], answer, refusals: &refusals, summary: &summary)
            }
            try settle(&refusals, summary: &summary)
            try sender.send(orders: refusals.again.map { _ in 0 }) { index in
                request(.create(refusals.again[index]))
            } answered: { index, answer in
                try created(refusals.again[index], answer, again: true, refusals: &refusals, summary: &summary)
            }
            try claim(refusals.taken, summary: &summary)
        }

        private func request(_ action: PublishAction) -> RemoteWriteRequest {
            switch action {
            case let .create(want): .put(url: Publication.resourceURL(calendar: target.url, uid: want.uid), ics: data(want), ifMatch: nil)
            case let .update(want, existing): .put(url: existing.url, ics: data(want), ifMatch: existing.etag ?? "*")
            case let .delete(existing), let .forget(existing): .delete(url: existing.url, ifMatch: existing.etag)
            }
        }

        /// Records one answer of the first writes; what needs the listing or a second write is
        /// left in `refusals`.
        private func record(_ action: PublishAction, _ answer: RemoteWrite, refusals: inout Refusals, summary: inout Summary) throws {
            switch (action, answer) {
            case let (.create(want), _):
                try created(want, answer, again: false, refusals: &refusals, summary: &summary)
            case let (.update(want, existing), .written(etag)):
                try record(want, url: existing.url, etag: etag)
                summary.updated += 1
            case let (.update(want, existing), .missing):
                try db.forgetPublished(targetID: target.id, uid: existing.uid)
                refusals.again.append(want)
            case let (.update(want, existing), .changedOnServer):
                refusals.updates.append((want, existing))
            case let (.delete(existing), .changedOnServer):
                refusals.deletions.append(existing)
            case let (.delete(existing), _):
                if case .written = answer { summary.deleted += 1 }
                try db.forgetPublished(targetID: target.id, uid: existing.uid)
            case (.forget, _):
                break
            }
        }

        /// The 412s: an event absent from the calendar's listing (read once) is gone there; one
        /// that is there was changed there and is left as it is.
        private func settle(_ refusals: inout Refusals, summary: inout Summary) throws {
            guard !refusals.updates.isEmpty || !refusals.deletions.isEmpty else { return }
            let members = try publisher.client.members(of: target.url, endpoint).members
            let listed = Set(members.map { CalDAVAddress.normalized($0.url) })
            func isGone(_ url: String) -> Bool { !listed.contains(CalDAVAddress.normalized(url)) }
            for (want, existing) in refusals.updates {
                if isGone(existing.url) {
                    try db.forgetPublished(targetID: target.id, uid: existing.uid)
                    refusals.again.append(want)
                } else {
                    // Left to the person, as the next look would leave it: that look then finds
                    // the edit already said (one warning per edit) and never writes over it.
                    summary.warnings.append(changedThere(want))
                    try db.recordPublished(targetID: target.id, existing.leftThere)
                }
            }
            for existing in refusals.deletions {
                if isGone(existing.url) {
                    try db.forgetPublished(targetID: target.id, uid: existing.uid)
                } else {
                    summary.warnings.append("an event focus wrote (\(DisplayText(existing.uid).string)) was changed in the calendar since: left there, and focus no longer manages it.")
                    try db.recordPublished(targetID: target.id, existing.leftThere)
                }
            }
        }

        /// A new event (`If-None-Match: *`) answered; one whose address is taken is left for
        /// `claim`.
        private func created(_ want: WantedEvent, _ answer: RemoteWrite, again: Bool, refusals: inout Refusals, summary: inout Summary) throws {
            switch answer {
            case let .written(etag):
                try record(want, url: Publication.resourceURL(calendar: target.url, uid: want.uid), etag: etag)
                count(want, again: again, summary: &summary)
            case .changedOnServer:
                refusals.taken.append((want, again))
            case .missing:
                summary.warnings.append(notWritten(want))
            }
        }

        private func count(_ want: WantedEvent, again: Bool, summary: inout Summary) {
            if again || gone.contains(want.uid) { summary.restored += 1 } else { summary.created += 1 }
        }

        private func changedThere(_ want: WantedEvent) -> String {
            "'\(DisplayText(summaryOf(want)).string)' was changed in the calendar while focus wrote it: left as it is (delete it there and focus writes it again)."
        }

        private func notWritten(_ want: WantedEvent) -> String {
            "'\(DisplayText(summaryOf(want)).string)' was not written: another event is at its place in the calendar, and focus writes over no event it did not write."
        }

        /// The new events whose address was taken: what is there is read (what changed since
        /// the look before the writes, one request and a multiget) and judged
        /// (`Publication.placeTaken`). This focus's own is followed, written over (`If-Match`)
        /// where it differs; any other event is left, with a warning.
        private func claim(_ taken: [(want: WantedEvent, again: Bool)], summary: inout Summary) throws {
            guard !taken.isEmpty else { return }
            let there = publisher.copies(in: try publisher.client.changes(in: target.url, since: token, endpoint)).byAddress
            var overwrites: [(want: WantedEvent, again: Bool, url: String, etag: String?)] = []
            for (want, again) in taken {
                let url = Publication.resourceURL(calendar: target.url, uid: want.uid)
                let found = there[CalDAVAddress.normalized(url)]
                switch Publication.placeTaken(want, text: texts[want.index], found: found?.copy, foundText: found?.text, publisher: publisherName) {
                case let .adopt(etag):
                    try record(want, url: found?.copy.url ?? url, etag: etag)
                    count(want, again: again, summary: &summary)
                case let .overwrite(etag):
                    overwrites.append((want, again, found?.copy.url ?? url, etag))
                case .leave:
                    summary.warnings.append(notWritten(want))
                }
            }
            try sender.send(orders: overwrites.map { _ in 0 }) { index in
                .put(url: overwrites[index].url, ics: data(overwrites[index].want), ifMatch: overwrites[index].etag ?? "*")
            } answered: { index, answer in
                let (want, again, url, _) = overwrites[index]
                if case let .written(etag) = answer {
                    try record(want, url: url, etag: etag)
                    count(want, again: again, summary: &summary)
                } else {
                    summary.warnings.append(changedThere(want))
                }
            }
        }

        private func data(_ want: WantedEvent) -> Data { Data(texts[want.index].utf8) }

        private func record(_ want: WantedEvent, url: String, etag: String?) throws {
            try db.recordPublished(targetID: target.id, PublishedEvent(uid: want.uid, kind: want.kind, url: url, etag: etag,
                                                                         fingerprint: want.fingerprint, end: want.end, start: want.start,
                                                                         content: want.content))
        }

        private func summaryOf(_ want: WantedEvent) -> String {
            for line in texts[want.index].split(separator: "\r\n") where line.hasPrefix("SUMMARY:") { return String(line.dropFirst(8)) }
            return "a block"
        }
    }

    /// Publishes the plan to every target (after a change of plan): failures are warnings, the
    /// plan itself is already saved, and a publication that failed is tried again by the next
    /// one (the daemon's, or the next command's). A calendar found to hold another machine's
    /// plan is given up here: this machine's blocks ahead are deleted from it and focus stops
    /// publishing there. Returns what it has to say, in order.
    /// `endpoint` gives an account's endpoint (its login) when `endpoints` has none.
    package static func publishAll(env: ServiceContext, db: AppDatabase, endpoint endpointOf: (StoredAccount) throws -> CalDAVEndpoint,
                                   endpoints: [Int64: CalDAVEndpoint] = [:], client: (any CalDAVClient)? = nil,
                                   onlyWhenChanged: Bool = false) -> [PublishReport] {
        guard let targets = try? db.publishTargets(), !targets.isEmpty, let accounts = try? db.accounts() else { return [] }
        let client = client ?? env.caldav
        let publisher = PlanPublisher(env: env, client: client)
        var lines: [PublishReport] = []
        for target in targets {
            guard let account = accounts.first(where: { $0.id == target.accountID }) else { continue }
            if onlyWhenChanged, target.lastError == nil, (try? publisher.isCurrent(target, db: db)) == true { continue }
            do {
                let endpoint = try endpoints[account.id] ?? endpointOf(account)
                let summary = try publisher.publish(target, endpoint: endpoint, db: db, established: true)
                if let other = summary.otherPlan {
                    let deleted = try publisher.stop(target, endpoint: endpoint, db: db)
                    lines.append(.gaveUp(calendar: target.name, blocksThere: other.count, host: other.host, deleted: deleted))
                    continue
                }
                lines += summary.notes.map(PublishReport.note) + summary.warnings.map(PublishReport.warning)
                if summary.created + summary.restored + summary.updated + summary.deleted > 0 { lines.append(published(summary, target: target)) }
            } catch {
                let message = (error as? FocusError)?.description ?? "\(error)"
                try? db.notePublication(targetID: target.id, at: nil, error: message)
                lines.append(.failed(calendar: target.name, reason: message))
            }
        }
        return lines
    }

    /// Whether the plan here is what was last published to `target` (nothing to write).
    func isCurrent(_ target: PublishTarget, db: AppDatabase) throws -> Bool {
        let (wanted, _, _) = try wanted(target, db: db, publisher: try db.publisherName())
        return Publication.actions(wanted: wanted, published: try db.publishedEvents(targetID: target.id), now: env.now()).isEmpty
    }

    /// Stops publishing to `target`: this focus's events of blocks still ahead are deleted there
    /// (each only in the version it wrote, `If-Match`), the others stay, and the target is
    /// forgotten. Returns how many were deleted.
    package func stop(_ target: PublishTarget, endpoint: CalDAVEndpoint, db: AppDatabase) throws -> Int {
        let lock = try PublishLock.acquire(database: env.databasePath)
        defer { lock?.release() }
        // What the calendar holds now: events gone or written over by another machine are not
        // this focus's to delete; a block the person moved is deleted in its moved version.
        var ignored = Summary()
        if let (review, _) = try? look(target, endpoint: endpoint, db: db, publisher: try db.publisherName(), summary: &ignored) {
            for event in review.gone + review.lost { try db.forgetPublished(targetID: target.id, uid: event.uid) }
            for event in review.records where !event.leftToThePerson { try db.recordPublished(targetID: target.id, event) }
            for move in review.moved {
                var event = move.event
                event.etag = move.etag
                event.end = move.time.end
                try db.recordPublished(targetID: target.id, event)
            }
        }
        let ahead = try db.publishedEvents(targetID: target.id).filter { $0.kind == .block && $0.end > env.now() && !$0.leftToThePerson }
        let deleting = ahead.filter { $0.etag != nil }
        var deleted = 0
        try WriteSender(env: env, client: client, endpoint: endpoint).send(orders: deleting.map { _ in 0 }) { index in
            .delete(url: deleting[index].url, ifMatch: deleting[index].etag)
        } answered: { index, answer in
            if case .written = answer { deleted += 1 }
            try db.forgetPublished(targetID: target.id, uid: deleting[index].uid)
        }
        for event in ahead where event.etag == nil { try db.forgetPublished(targetID: target.id, uid: event.uid) }
        try db.removePublishTarget(id: target.id)
        return deleted
    }
}
