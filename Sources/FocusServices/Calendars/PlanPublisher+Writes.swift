import FocusText
import FocusCore
import FocusNetwork
import FocusStorage
import FoundationEssentials

extension PlanPublisher {
    /// Performs a publication's writes. A conditional write refused with 412 is checked against
    /// the calendar's listing before anything else: DAViCal and Radicale answer 412, not 404, to
    /// an `If-Match` on a member that no longer exists (RFC 7232 section 3.1), and such an event
    /// is gone there, to be written again.
    struct Writer {
        let publisher: PlanPublisher
        let target: PublishTarget
        let endpoint: CalDAVEndpoint
        let db: AppDatabase
        let texts: [String]
        /// UIDs of events found deleted there: writing them is writing them again.
        let gone: Set<String>
        /// The calendar's members and their ETags, read once at the first 412.
        private var listing: [String: String?]?

        init(publisher: PlanPublisher, target: PublishTarget, endpoint: CalDAVEndpoint, db: AppDatabase, texts: [String], gone: Set<String>) {
            self.gone = gone
            self.publisher = publisher
            self.target = target
            self.endpoint = endpoint
            self.db = db
            self.texts = texts
        }

        private var client: any CalDAVClient { publisher.client }

        mutating func perform(_ action: PublishAction, summary: inout Summary) throws {
            switch action {
            case let .create(want):
                try create(want, summary: &summary, again: false)
            case let .update(want, existing):
                switch try client.put(existing.url, ics: data(want), ifMatch: existing.etag ?? "*", endpoint) {
                case let .written(etag):
                    try record(want, url: existing.url, etag: etag)
                    summary.updated += 1
                case .missing:
                    try db.forgetPublished(targetID: target.id, uid: existing.uid)
                    try create(want, summary: &summary, again: true)
                case .changedOnServer:
                    if try isGone(existing.url) {
                        try db.forgetPublished(targetID: target.id, uid: existing.uid)
                        try create(want, summary: &summary, again: true)
                    } else {
                        summary.warnings.append("'\(DisplayText(summaryOf(want)).string)' was changed in the calendar while focus wrote it: left as it is for now.")
                    }
                }
            case let .delete(existing):
                switch try client.delete(existing.url, ifMatch: existing.etag, endpoint) {
                case .written:
                    summary.deleted += 1
                case .missing:
                    break
                case .changedOnServer:
                    if try !isGone(existing.url) {
                        summary.warnings.append("an event focus wrote (\(DisplayText(existing.uid).string)) was changed in the calendar since: left there, and focus no longer manages it.")
                    }
                }
                try db.forgetPublished(targetID: target.id, uid: existing.uid)
            case let .forget(existing):
                try db.forgetPublished(targetID: target.id, uid: existing.uid)
            }
        }

        /// A new event (`If-None-Match: *`). Something already at its address is never written
        /// over: it is another machine's event of the same work (the review found none of
        /// this focus's there).
        private mutating func create(_ want: WantedEvent, summary: inout Summary, again: Bool) throws {
            let url = Publication.resourceURL(calendar: target.url, uid: want.uid)
            switch try client.put(url, ics: data(want), ifMatch: nil, endpoint) {
            case let .written(etag):
                try record(want, url: url, etag: etag)
                if again || gone.contains(want.uid) { summary.restored += 1 } else { summary.created += 1 }
            case .changedOnServer, .missing:
                summary.warnings.append("'\(DisplayText(summaryOf(want)).string)' was not written: another event is at its place in the calendar, and focus writes over no event it did not write.")
            }
        }

        /// Whether a member is absent from the calendar's listing (read once per publication).
        private mutating func isGone(_ url: String) throws -> Bool {
            if listing == nil {
                let members = try client.members(of: target.url, endpoint).members
                listing = Dictionary(members.map { (CalDAVHTTPClient.normalized($0.url), $0.etag) }, uniquingKeysWith: { a, _ in a })
            }
            return listing?[CalDAVHTTPClient.normalized(url)] == nil
        }

        private func data(_ want: WantedEvent) -> Data { Data(texts[want.index].utf8) }

        private func record(_ want: WantedEvent, url: String, etag: String?) throws {
            try db.recordPublished(targetID: target.id, PublishedEvent(uid: want.uid, kind: want.kind, url: url, etag: etag,
                                                                         fingerprint: want.fingerprint, end: want.end, start: want.start))
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
    /// publishing there. Returns the lines to say.
    /// `endpoint` gives an account's endpoint (its login) when `endpoints` has none.
    package static func publishAll(env: ServiceContext, db: AppDatabase, endpoint endpointOf: (StoredAccount) throws -> CalDAVEndpoint,
                                   endpoints: [Int64: CalDAVEndpoint] = [:], client: (any CalDAVClient)? = nil,
                                   onlyWhenChanged: Bool = false) -> [String] {
        guard let targets = try? db.publishTargets(), !targets.isEmpty, let accounts = try? db.accounts() else { return [] }
        let client = client ?? env.caldav ?? CalDAVHTTPClient.live(env)
        let publisher = PlanPublisher(env: env, client: client)
        var lines: [String] = []
        for target in targets {
            guard let account = accounts.first(where: { $0.id == target.accountID }) else { continue }
            if onlyWhenChanged, target.lastError == nil, (try? publisher.isCurrent(target, db: db)) == true { continue }
            do {
                let endpoint = try endpoints[account.id] ?? endpointOf(account)
                let summary = try publisher.publish(target, endpoint: endpoint, db: db, established: true)
                if let other = summary.otherPlan {
                    let deleted = try publisher.stop(target, endpoint: endpoint, db: db)
                    lines.append("warning: " + otherPlanMessage(other, target: target.name)
                        + " This machine stopped publishing there (\(deleted) of its own block\(deleted == 1 ? "" : "s") ahead deleted).")
                    continue
                }
                lines += summary.notes.map { "note: " + $0 } + summary.warnings.map { "warning: " + $0 }
                if summary.created + summary.restored + summary.updated + summary.deleted > 0 { lines.append(line(summary, target: target)) }
            } catch {
                let message = (error as? FocusError)?.description ?? "\(error)"
                try? db.notePublication(targetID: target.id, at: nil, error: message)
                lines.append("warning: the plan was not published to \(DisplayText(target.name).string) (it will be when the server answers): \(message)")
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
        var deleted = 0
        for event in try db.publishedEvents(targetID: target.id) where event.kind == .block && event.end > env.now() && !event.leftToThePerson {
            if let etag = event.etag, case .written = try client.delete(event.url, ifMatch: etag, endpoint) { deleted += 1 }
            try db.forgetPublished(targetID: target.id, uid: event.uid)
        }
        try db.removePublishTarget(id: target.id)
        return deleted
    }
}
