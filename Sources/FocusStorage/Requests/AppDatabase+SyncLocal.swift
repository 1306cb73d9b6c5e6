import FocusCore
import FoundationEssentials
import FocusSQLite

extension AppDatabase {
    // MARK: The local side

    /// Every named task, subtask and session as a sync item, and the tables' fingerprint as
    /// read (one snapshot).
    package func localSyncItems() throws(FocusError) -> (items: [String: SyncItem], fingerprint: String) {
        try read { db in
            var items: [String: SyncItem] = [:]
            // Never edited here: 0, older than any edit (the triggers stamp edits with the wall
            // clock; creation times follow FOCUS_NOW, so the two are never compared).
            // 0 until the row is edited: its creation stands for its last edit (README: the later
            // edit wins, and a task made on two machines was made at two times).
            func modified(_ row: Row) -> Int64 {
                let edited = max(0, row.storedInteger("modifiedAt") ?? 0)
                return edited > 0 ? edited : max(0, row.storedInteger("createdAt") ?? 0) &* 1000
            }
            // A task's stand-in subtask (`SyncIdentity.standInUID`) gives it its due date,
            // estimate and other planning, and being done closes the to-do; it is no item of its own.
            for row in try Row.fetchAll(db, sql: """
                SELECT t.syncUid, t.title, t.notes, t.archived, t.modifiedAt, t.createdAt,
                       d.id AS standIn, d.due, d.estimateSeconds, d.done, d.modifiedAt AS standInModified,
                       d.startDate, d.spanSeconds, d.earliestMinutes, d.priority, d.maxPerDaySeconds
                FROM task t LEFT JOIN subtask d ON d.taskId = t.id AND d.syncUid = \(SyncIdentity.standInUID(sqlColumn: "t.syncUid"))
                WHERE t.syncUid IS NOT NULL AND t.deletedElsewhere = 0
                """) {
                let uid = row.text("syncUid")
                let standIn = row.storedInteger("standIn") != nil
                items[uid] = .task(SyncedTask(uid: uid, title: row.text("title"), notes: row.optionalText("notes"),
                                              archived: row.bool("archived") || (standIn && row.bool("done")),
                                              modified: max(modified(row), standIn ? max(0, row.storedInteger("standInModified") ?? 0) : 0),
                                              due: standIn ? row.optionalDate("due") : nil,
                                              estimateSeconds: standIn ? row.optionalNumber("estimateSeconds", .positiveSeconds).map { Int($0) } : nil,
                                              planning: standIn ? standInPlanning(row) : StandInPlanning()))
            }
            for row in try Row.fetchAll(db, sql: """
                SELECT s.syncUid, t.syncUid AS taskUid, s.title, s.notes, s.estimateSeconds, s.startDate, s.due, s.spanSeconds,
                       s.earliestMinutes, s.done, s.modifiedAt, s.createdAt, s.priority, s.maxPerDaySeconds, s.every, s.onDay,
                       s.periodStart, series.syncUid AS seriesUid
                FROM subtask s JOIN task t ON t.id = s.taskId LEFT JOIN subtask series ON series.id = s.seriesId
                WHERE s.syncUid IS NOT NULL AND t.syncUid IS NOT NULL AND s.syncUid <> \(SyncIdentity.standInUID(sqlColumn: "t.syncUid")) AND s.deletedElsewhere = 0
                """) {
                let uid = row.text("syncUid")
                var subtask = SyncedSubtask(
                    uid: uid, taskUID: row.text("taskUid"), title: row.text("title"), notes: row.optionalText("notes"),
                    estimateSeconds: row.optionalNumber("estimateSeconds", .positiveSeconds).map { Int($0) }, startDate: row.optionalText("startDate"),
                    due: row.optionalDate("due"), spanSeconds: row.optionalNumber("spanSeconds", .positiveSeconds).map { Int($0) },
                    earliestMinutes: row.optionalNumber("earliestMinutes", .minuteOfDay).map { Int($0) }, done: row.bool("done"),
                    modified: modified(row), priority: row.optionalNumber("priority", .priority).map { Int($0) } ?? 0,
                    maxPerDaySeconds: row.optionalNumber("maxPerDaySeconds", .positiveSeconds).map { Int($0) })
                // Recurring work (README, "Planning"): a series' rule, an instance's series and period.
                subtask.every = row.optionalText("every")
                subtask.onDay = subtask.every == nil ? nil : row.optionalNumber("onDay", .count).map { Int($0) }
                subtask.seriesUID = row.optionalText("seriesUid")
                subtask.periodStart = subtask.seriesUID == nil ? nil : row.optionalText("periodStart")
                items[uid] = .subtask(subtask)
            }
            let rows = try Row.fetchCursor(db, sql: """
                SELECT l.syncUid, t.syncUid AS taskUid, s.syncUid AS subtaskUid, t.title AS taskTitle, s.title AS subtaskTitle,
                       l.startedAt, l.endedAt, l.plannedSeconds, l.focusedSeconds, l.status, l.note, l.modifiedAt, l.createdAt,
                       \(AppDatabase.tagNames(of: "l")) AS tagNames
                FROM timeLog l JOIN task t ON t.id = l.taskId LEFT JOIN subtask s ON s.id = l.subtaskId
                WHERE l.syncUid IS NOT NULL AND t.syncUid IS NOT NULL AND (l.subtaskId IS NULL OR s.syncUid IS NOT NULL)
                """)
            while let row = try rows.next() {
                let uid = row.text("syncUid")
                let (start, end) = StoredNumber.session(start: row.storedInteger("startedAt"), end: row.storedInteger("endedAt"))
                let label = row.optionalText("subtaskTitle").map { row.text("taskTitle") + "/" + $0 } ?? row.text("taskTitle")
                items[uid] = .session(SyncedSession(
                    uid: uid, taskUID: row.text("taskUid"), subtaskUID: row.optionalText("subtaskUid"), label: label,
                    start: Date(unixSeconds: start), end: Date(unixSeconds: end), plannedSeconds: row.seconds("plannedSeconds"),
                    focusedSeconds: min(row.seconds("focusedSeconds"), Int(end - start)), status: row.text("status"),
                    note: row.optionalText("note"), modified: modified(row), tags: AppDatabase.tags(row.optionalText("tagNames"))))
            }
            return (items, try AppDatabase.localFingerprint(db))
        }
    }

    /// A few numbers that change whenever a task, subtask or session is added, edited or
    /// removed (counts, newest ids, latest edits); nil when sync is not set up. Read by the
    /// daemon once after each commit it sees (a few milliseconds for a long history).
    package func syncSignature() throws(FocusError) -> [Int64]? {
        try read { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM syncTarget WHERE id = 1") == true else { return nil }
            var signature: [Int64] = []
            for table in ["task", "subtask", "timeLog"] {
                let row = try Row.fetchOne(db, sql: "SELECT count(*), ifnull(max(id), 0) FROM \(table)")
                signature += [row?.storedInteger(0) ?? 0, row?.storedInteger(1) ?? 0]
                signature.append(try Int64.fetchOne(db, sql: "SELECT ifnull(max(modifiedAt), 0) FROM \(table)") ?? 0)
            }
            // The running session too: its checkpoint goes to the other machines when it starts,
            // pauses, resumes, moves to a break or ends.
            let active = try String.fetchOne(db, sql: """
                SELECT pid || '|' || phase || '|' || state || '|' || cycle || '|' || ifnull(endsAt, 0) || '|'
                       || CASE state WHEN 'paused' THEN remainingSeconds ELSE 0 END FROM activeSession WHERE id = 1
                """)
            var hash = FNV1a()
            hash.add((active ?? "none").utf8)
            signature.append(Int64(bitPattern: hash.value))
            return signature
        }
    }

    /// Whether the database holds anything worth a backup before a first sync.
    package func holdsHistory() throws(FocusError) -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM task) OR EXISTS (SELECT 1 FROM timeLog)") ?? false }
    }

    /// What a sync would send now: items changed, added or removed since the versions agreed.
    /// `named`: rows without a shared name yet (named by the next sync) are not counted.
    package func pendingSyncCount(named: Bool = false) throws(FocusError) -> (changed: Int, added: Int, removed: Int) {
        let states = try syncStates()
        let local = try localSyncItems().items
        var changed = 0, added = 0
        let unnamed = named ? 0 : try read { db in
            try Int.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM task WHERE syncUid IS NULL) + (SELECT count(*) FROM subtask WHERE syncUid IS NULL)
                     + (SELECT count(*) FROM timeLog WHERE syncUid IS NULL)
                """) ?? 0
        }
        var differing: [String] = []
        for (uid, item) in local {
            if let state = states[uid] {
                if state.digest != item.digest { differing.append(uid) }
            } else {
                added += 1
            }
        }
        // A title told apart only here (`Buy milk (2)`) is not a change to send (README).
        let bases = try syncBases(differing)
        for uid in differing {
            let base = bases[uid].flatMap { try? SyncCodec.decode($0, zone: LocalCalendar(zone: .utc)) }
            guard let item = local[uid], let state = states[uid], SyncPlan.disambiguatedHere(item, theirs: base).digest == state.digest else {
                changed += 1
                continue
            }
        }
        let removed = states.keys.filter { local[$0] == nil }.count
        return (changed, added + unnamed, removed)
    }
    /// A stand-in's planning as its row holds it (`SyncedTask.planning`).
    private func standInPlanning(_ row: Row) -> StandInPlanning {
        StandInPlanning(startDate: row.optionalText("startDate"), spanSeconds: row.optionalNumber("spanSeconds", .positiveSeconds).map { Int($0) },
                        earliestMinutes: row.optionalNumber("earliestMinutes", .minuteOfDay).map { Int($0) },
                        priority: row.optionalNumber("priority", .priority).map { Int($0) } ?? 0,
                        maxPerDaySeconds: row.optionalNumber("maxPerDaySeconds", .positiveSeconds).map { Int($0) })
    }
}
