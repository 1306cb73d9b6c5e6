import FocusCalendar
import FocusCore
import FocusNetwork
import FocusStorage
import FoundationEssentials

/// Writes the plan to a CalDAV calendar (README, "Your real calendar"): each planned block
/// still ahead is one event there (its UID the one `calendar export` gives it, so the same
/// block is one event whichever way it reached the calendar; `CATEGORIES:focus`, opaque, the
/// subtask's notes as its description, `X-FOCUS-BLOCK` so focus never reads it back as busy
/// time), created with `If-None-Match: *`, updated with `If-Match`, deleted when the block goes.
/// With sessions, the worked sessions of the planning window too, as `export --format ics`
/// writes them. Only what changed is written; only events focus wrote are ever touched.
struct PlanPublisher {
    let env: FocusEnvironment
    let client: any CalDAVClient

    struct Summary {
        var created = 0
        var updated = 0
        var deleted = 0
        var unchanged = 0
        var blocks = 0
        var sessions = 0
        var warnings: [String] = []
    }

    /// The events the plan and history want in the calendar, with their texts.
    func wanted(_ target: PublishTarget, db: AppDatabase) throws -> (events: [WantedEvent], texts: [String]) {
        let now = env.now()
        let blocks = try db.blocks(startingFrom: env.calendar.startOfDay(env.calendar.day(of: now)))
        let notes = try db.subtaskNotes()
        var events: [WantedEvent] = []
        var texts: [String] = []
        let idByStart = Dictionary(blocks.compactMap { b in b.id.map { ("\(b.subtaskID)-\(Int(b.start.timeIntervalSince1970))", $0) } },
                                   uniquingKeysWith: { a, _ in a })
        for var event in CalendarExportCommand.events(blocks, now: now, calendar: env.calendar) {
            let subtaskID = Int64(event.uid.prefix { $0 != "-" }) ?? 0
            event.description = notes[subtaskID].map { $0 } ?? "Work block planned by focus."
            let blockID = idByStart["\(subtaskID)-\(Int(event.start.timeIntervalSince1970))"].map(String.init) ?? event.uid
            event.properties = ["CATEGORIES:focus", "TRANSP:OPAQUE", "X-FOCUS-BLOCK:" + blockID]
            let text = ICSWriter.calendar(events: [event], stamp: now)
            events.append(WantedEvent(uid: event.uid, kind: .block, fingerprint: Publication.fingerprint(text), end: event.end, index: texts.count))
            texts.append(text)
        }
        if target.sessions {
            let from = now.addingTimeInterval(-Double(CalendarImportCommand.daysBack * 86_400))
            _ = try db.exportSessions(from: from, to: nil) { record, identity in
                var event = ExportCommand.event(record, identity: identity)
                event.properties = ["CATEGORIES:focus", "TRANSP:TRANSPARENT", "X-FOCUS-SESSION:" + record.status.rawValue]
                let text = ICSWriter.calendar(events: [event], stamp: now)
                events.append(WantedEvent(uid: event.uid, kind: .session, fingerprint: Publication.fingerprint(text), end: event.end, index: texts.count))
                texts.append(text)
            }
        }
        return (events, texts)
    }

    /// Publishes to one target; every write is recorded as soon as the server took it.
    func publish(_ target: PublishTarget, endpoint: CalDAVEndpoint, db: AppDatabase) throws -> Summary {
        let (wanted, texts) = try wanted(target, db: db)
        let published = try db.publishedEvents(targetID: target.id)
        let actions = Publication.actions(wanted: wanted, published: published, now: env.now())
        var summary = Summary()
        summary.blocks = wanted.filter { $0.kind == .block }.count
        summary.sessions = wanted.count - summary.blocks
        summary.unchanged = wanted.count - actions.filter { if case .delete = $0 { return false } else { return true } }.count
        func record(_ want: WantedEvent, url: String, etag: String?) throws {
            try db.recordPublished(targetID: target.id, PublishedEvent(uid: want.uid, kind: want.kind, url: url, etag: etag,
                                                                         fingerprint: want.fingerprint, end: want.end))
        }
        func create(_ want: WantedEvent) throws {
            let url = Publication.resourceURL(calendar: target.url, uid: want.uid)
            let data = Data(texts[want.index].utf8)
            switch try client.put(url, ics: data, ifMatch: nil, endpoint) {
            case let .written(etag):
                try record(want, url: url, etag: etag)
            case .changedOnServer, .missing:
                // The resource is there already under focus's own name for this UID (a
                // publication interrupted after the server took it): replace it.
                if case let .written(etag) = try client.put(url, ics: data, ifMatch: "*", endpoint) {
                    try record(want, url: url, etag: etag)
                }
            }
            summary.created += 1
        }
        for action in actions {
            switch action {
            case let .create(want):
                try create(want)
            case let .update(want, existing):
                switch try client.put(existing.url, ics: Data(texts[want.index].utf8), ifMatch: existing.etag ?? "*", endpoint) {
                case let .written(etag):
                    try record(want, url: existing.url, etag: etag)
                    summary.updated += 1
                case .missing:
                    try db.forgetPublished(targetID: target.id, uid: existing.uid)
                    try create(want)
                case .changedOnServer:
                    summary.warnings.append("'\(Sanitized.terminal(summaryOf(texts[want.index])))' was changed in the calendar since focus wrote it: left as it is (remove it there and focus writes it again).")
                }
            case let .delete(existing):
                switch try client.delete(existing.url, ifMatch: existing.etag, endpoint) {
                case .written, .missing:
                    summary.deleted += 1
                case .changedOnServer:
                    summary.warnings.append("an event focus wrote (\(existing.uid)) was changed in the calendar since: left there, and focus no longer manages it.")
                }
                try db.forgetPublished(targetID: target.id, uid: existing.uid)
            }
        }
        try db.notePublication(targetID: target.id, at: env.now(), error: nil)
        return summary
    }

    private func summaryOf(_ text: String) -> String {
        for line in text.split(separator: "\r\n") where line.hasPrefix("SUMMARY:") { return String(line.dropFirst(8)) }
        return "a block"
    }

    /// One line about a publication.
    static func line(_ summary: Summary, target: PublishTarget) -> String {
        var what = "\(summary.blocks) planned block\(summary.blocks == 1 ? "" : "s")"
        if summary.sessions > 0 { what += " and \(summary.sessions) session\(summary.sessions == 1 ? "" : "s")" }
        var changes: [String] = []
        if summary.created > 0 { changes.append("\(summary.created) new") }
        if summary.updated > 0 { changes.append("\(summary.updated) updated") }
        if summary.deleted > 0 { changes.append("\(summary.deleted) removed") }
        let detail = changes.isEmpty ? "nothing changed" : changes.joined(separator: ", ")
        return "Published \(what) to \(Sanitized.terminal(target.name)) (\(detail))."
    }

    /// Publishes the plan to every target (after a re-plan): failures are warnings, the plan
    /// itself is already saved. Returns the lines to say.
    static func publishAll(env: FocusEnvironment, db: AppDatabase, login: CalDAVLogin, endpoints: [Int64: CalDAVEndpoint] = [:],
                           client: (any CalDAVClient)? = nil) -> [String] {
        guard let targets = try? db.publishTargets(), !targets.isEmpty, let accounts = try? db.accounts() else { return [] }
        let client = client ?? env.caldav ?? CalDAVHTTPClient.live(env)
        var lines: [String] = []
        for target in targets {
            guard let account = accounts.first(where: { $0.id == target.accountID }) else { continue }
            do {
                let endpoint = try endpoints[account.id] ?? login.endpoint(account, env: env)
                let summary = try PlanPublisher(env: env, client: client).publish(target, endpoint: endpoint, db: db)
                lines += summary.warnings.map { "warning: " + $0 }
                if summary.created + summary.updated + summary.deleted > 0 { lines.append(line(summary, target: target)) }
            } catch {
                let message = (error as? FocusError)?.description ?? "\(error)"
                try? db.notePublication(targetID: target.id, at: nil, error: message)
                lines.append("warning: the plan was not published to \(Sanitized.terminal(target.name)): \(message)")
            }
        }
        return lines
    }
}
