import FocusCore
import FoundationEssentials
import FocusSQLite

extension AppDatabase {
    /// Everything `focus stats` and `focus report` compute from, read in one transaction (one
    /// consistent snapshot): the sessions overlapping
    /// `[startOfDay(window.historyFrom), startOfDay(window.to + 1))` — index ranges on the
    /// start time, so the cost follows the window, not the size of the history — and the
    /// estimate progress of the subtasks of the tasks shown. `taskPath` (`Thesis`,
    /// `Thesis/Chapter 2`, a prefix or `#ID`) keeps only that task's or subtask's sessions.
    ///
    /// Sessions inside the window come one by one. Before the window (the previous period, the
    /// streak and the 12-week heatmap need only each day's focused time) the sessions that lie
    /// within one local day are summed by SQLite, day by day, and passed as that day's
    /// `StatsDayTotal`: the calculator counts sessions, tasks and insights only inside the
    /// window, so the report is exactly the one the individual sessions give (`statsInputOneByOne`,
    /// beside this, reads those; StatsReaderEqualityTests holds both to one report), for a
    /// fraction of the work.
    /// Sessions before the window that cross a local midnight come one by one. Every range read
    /// by start time reaches back one day before its edge; sessions longer than a day (a
    /// forgotten timer) come from `LongSessions`, read once.
    ///
    /// Without `heatmap` (everything but the HTML report: the 12-week heatmap is the only
    /// figure that needs each earlier day's total) days are read from `window.previous.from`
    /// only, and the days before it are probed for focus one index lookup each, as far back as
    /// the streak goes (`StatsInput.focusDaysBeforeHistory`): the same summary, streak included,
    /// for a fraction of the reading.
    ///
    /// `tag` keeps only the sessions filed under that tag (README, "Tags"); the sessions of the
    /// window that have tags are read once more with their tag names, for the "by tag" figures.
    package func statsInput(
        window: StatsWindow, calendar: LocalCalendar, now: Date, taskPath: String?, tag: String? = nil, heatmap: Bool = true
    ) throws(FocusError) -> StatsInput {
        var input = try statsInput(window: window, calendar: calendar, now: now, taskPath: taskPath, tagFilter: tag, heatmap: heatmap)
        input.tagFilter = tag
        return input
    }

    private func statsInput(
        window: StatsWindow, calendar: LocalCalendar, now: Date, taskPath: String?, tagFilter tag: String?, heatmap: Bool
    ) throws(FocusError) -> StatsInput {
        try read { db in
            var target: PathTarget?
            var filterName: String?
            if let taskPath {
                let catalog = try AppDatabase.catalog(db)
                let resolved = try catalog.resolve(taskPath)
                target = resolved
                filterName = catalog.path(of: resolved)
            }
            var filter = ""
            var filterIDs: [Int64] = []
            // The unary + keeps SQLite on the start-time index: the window, not all of a task's history.
            if let sub = target?.subtaskID, try Bool.fetchOne(db, sql: "SELECT every IS NOT NULL FROM subtask WHERE id = ?", arguments: [sub]) == true {
                // A series' sessions are those of its instances (README, "Planning"); its id is
                // written into the SQL (an integer from the database), as the tag's is below.
                filter = " AND +subtaskId IN (SELECT id FROM subtask WHERE seriesId = \(sub))"
            } else if let sub = target?.subtaskID {
                filter = " AND +subtaskId = ?"
                filterIDs = [sub]
            } else if let task = target?.taskID {
                filter = " AND +taskId = ?"
                filterIDs = [task]
            }
            if let tag {
                // The tag's id written into the SQL (an integer from the database, never text
                // from the person): the day sums number their placeholders by the task filter's.
                filter += " AND +id IN (SELECT timeLogId FROM timeLogTag WHERE tagId = \(try AppDatabase.existingTagID(tag, db) ?? -1))"
            }
            let windowStart = calendar.startOfDay(window.from)
            let windowEnd = calendar.startOfDay(window.to.adding(days: 1))
            var ids = SessionIDs()
            var sessions = try AppDatabase.windowSessions(db, windowStart, windowEnd, filter: filter, filterIDs, &ids)
            var dayTotals: [StatsDayTotal] = []
            // The few sessions longer than a day that reach the days read, in one probe: those
            // that run into the window from more than a day before it are the window's.
            let long = try LongSessions(db, endingAfter: calendar.startOfDay(min(window.historyFrom, window.previous.from)),
                                        startingBefore: windowEnd, filter: filter, filterIDs)
            let lo = windowStart.unixSeconds
            for session in long.crossing(lo, from: .min, before: lo - AppDatabase.dayReach) {
                ids.note(session)
                sessions.append(session)
            }
            let titles = try AppDatabase.titles(db, ids)
            // The tasks shown: every session read so far overlaps (or starts in) the window.
            let shown = ids.tasks.ids
            // The whole history's focus by quarter hour gives the previous period's total without
            // its sessions, and the streak's days before the window take one probe each.
            let tagged = try AppDatabase.taggedSessions(db, windowStart, windowEnd, filter: filter, filterIDs)
            if !heatmap, target == nil, tag == nil, calendar.day(of: now) >= window.from,
               let previous = try AppDatabase.focusExact(db, from: calendar.startOfDay(window.previous.from), to: windowStart, long: long) {
                let earlier = try AppDatabase.focusDays(db, before: window.from, downTo: window.historyFrom, calendar: calendar, long: long, filter: "", [])
                var input = StatsInput(
                    window: window, calendar: calendar, now: now, sessions: sessions, titles: titles,
                    progress: try AppDatabase.progress(db, taskIDs: shown, subtaskID: nil, now: now),
                    focusDaysBeforeHistory: earlier, previousFocusedExact: previous)
                input.taggedSessions = tagged
                return try AppDatabase.rollingUpInstances(input, db)
            }
            let historyFrom = heatmap ? window.historyFrom : window.previous.from
            try AppDatabase.historySessions(db, from: historyFrom, window: window, calendar: calendar, long: long, filter: filter, filterIDs,
                                            into: &sessions, totals: &dayTotals)
            let earlier = heatmap ? 0 : try AppDatabase.focusDays(db, before: historyFrom, downTo: window.historyFrom, calendar: calendar, long: long, filter: filter, filterIDs)
            let progress = try AppDatabase.progress(db, taskIDs: shown, subtaskID: target?.subtaskID, now: now)
            var input = StatsInput(
                window: window, calendar: calendar, now: now, sessions: sessions, dayTotals: dayTotals, titles: titles, progress: progress,
                taskFilter: filterName, historyFrom: historyFrom, focusDaysBeforeHistory: earlier)
            input.taggedSessions = tagged
            return try AppDatabase.rollingUpInstances(input, db)
        }
    }

    /// Recurring work rolls up (README, "Planning"): the sessions of a series' instances count
    /// under the series, by its title, as one subtask.
    static func rollingUpInstances(_ input: StatsInput, _ db: Database) throws -> StatsInput {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM subtask WHERE every IS NOT NULL)") == true else { return input }
        var series: [Int64: Int64] = [:]
        let lookup = try db.cachedStatement(sql: """
            SELECT series.id, series.title FROM subtask JOIN subtask AS series ON series.id = subtask.seriesId WHERE subtask.id = ?
            """)
        var input = input
        for id in Set(input.sessions.map(\.subtaskID) + input.taggedSessions.map(\.session.subtaskID)) where id != 0 {
            guard let row = try Row.fetchOne(lookup, arguments: [id]) else { continue }
            series[id] = row.id(0)
            input.titles.set(row.id(0), row.text(1))
        }
        guard !series.isEmpty else { return input }
        for i in input.sessions.indices { input.sessions[i].subtaskID = series[input.sessions[i].subtaskID] ?? input.sessions[i].subtaskID }
        for i in input.taggedSessions.indices {
            let id = input.taggedSessions[i].session.subtaskID
            input.taggedSessions[i].session.subtaskID = series[id] ?? id
        }
        return input
    }

    /// The columns a `StatsSession` is read from, by position (see `statsSessions`): all of
    /// them in the `timeLog_window` index, so no row of the table is read. Stats have no use for
    /// a session's id, block or note.
    private static let entryColumns = "taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, (status = 'completed') + 2 * (status = 'open')"

    /// Sessions starting in `[from, to)`: an index range on the start time.
    package static let windowSessionsSQL = """
        SELECT \(entryColumns) FROM timeLog WHERE startedAt >= ? AND startedAt < ?
        """

    static func windowSessions(
        _ db: Database, _ from: Date, _ to: Date, filter: String, _ filterIDs: [Int64], _ ids: inout SessionIDs
    ) throws -> [StatsSession] {
        let lo = from.unixSeconds
        // No ORDER BY: the index hands the rows over by start time, and sorting them again by id
        // cost a temporary b-tree (the calculator takes sessions in any order).
        // Room for them all at once: each doubling of a month's array at a million sessions
        // faulted in megabytes of fresh pages. Counting the whole range cost SQLite a twentieth
        // of the command; the first day's count, scaled to the window, costs a thirtieth of that.
        let days = max(1, Int((to.timeIntervalSince(from) / 86_400).rounded(.up)))
        var firstDay = 0
        try eachRow(db, "SELECT count(*) FROM timeLog WHERE startedAt >= ? AND startedAt < ?", [lo, lo + 86_400]) {
            firstDay = $0.count(0)
            return false
        }
        var sessions = try statsSessions(db, sql: windowSessionsSQL + filter, [lo, to.unixSeconds] + filterIDs, capacity: days * firstDay * 5 / 4 + 256, ids: &ids)
        // And those begun the day before that run into the window (earlier ones last longer than
        // a day: the caller adds them from `LongSessions`).
        sessions += try sessionsCrossing(db, lo, from: lo - dayReach, long: .none, filter: filter, filterIDs, ids: &ids)
        return sessions
    }

    /// The sessions overlapping `[from, to)` (`filter` applied) that have tags, once per tag:
    /// those begun from a day before `from`, by the start-time index, and the longer ones from
    /// `timeLog_long`. Nothing is read when no session has a tag.
    static func taggedSessions(_ db: Database, _ from: Date, _ to: Date, filter: String, _ filterIDs: [Int64]) throws -> [TaggedStatsSession] {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM timeLogTag)") == true else { return [] }
        let lo = from.unixSeconds, hi = to.unixSeconds
        let columns = "id, taskId, subtaskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status"
        let near = "SELECT \(columns) FROM timeLog WHERE startedAt >= ? AND startedAt < ? AND endedAt >= ?\(filter)"
        let long = "SELECT \(columns) FROM timeLog INDEXED BY timeLog_long WHERE \(longSessionTerm) AND startedAt < ? AND endedAt > ?\(filter)"
        var out: [TaggedStatsSession] = []
        for (sql, args) in [(near, [lo - dayReach, hi, lo]), (long, [lo - dayReach, lo])] {
            let rows = try Row.fetchAll(db, sql: """
                SELECT tag.name, l.taskId, l.subtaskId, l.startedAt, l.endedAt, l.plannedSeconds, l.focusedSeconds, l.status
                FROM (\(sql)) AS l JOIN timeLogTag ON timeLogTag.timeLogId = l.id JOIN tag ON tag.id = timeLogTag.tagId
                """, arguments: StatementArguments(args + filterIDs))
            for row in rows {
                let (start, end) = StoredNumber.session(start: row.storedInteger(3), end: row.storedInteger(4))
                out.append(TaggedStatsSession(tag: row.text(0), session: StatsSession(
                    taskID: row.id(1), subtaskID: row.optionalID(2) ?? 0, start: start, end: end, plannedSeconds: row.seconds(5),
                    focusedSeconds: min(row.seconds(6), Int(end - start)), completed: row.text(7) == "completed")))
            }
        }
        return out
    }

    /// How far before an instant the start-time index is read for the sessions running over it:
    /// a day. A session may last longer (a forgotten timer, README "Sessions longer than a day");
    /// those come from `LongSessions`.
    static let dayReach: Int64 = 86_400

    /// The WHERE term of the `timeLog_long` partial index (the v8 migration), word for word:
    /// SQLite uses a partial index only for a query that repeats its term.
    static let longSessionTerm = "endedAt - startedAt > 86400"

    /// The sessions longer than a day that end after `endingAfter` and start before
    /// `startingBefore`, `filter` applied: every one a stats read can meet that begins more than
    /// a day before an instant it looks at. Read once per command from `timeLog_long`, which
    /// holds only them: with none stored (the usual case) that is one probe of an empty index,
    /// and every later question is answered from this array.
    struct LongSessions {
        private(set) var sessions: [StatsSession] = []

        /// No sessions: for a read that needs none of those begun more than a day before its edge.
        static let none = LongSessions()
        private init() {}

        static let sql = "SELECT \(entryColumns) FROM timeLog INDEXED BY timeLog_long WHERE \(longSessionTerm) AND startedAt < ? AND endedAt > ?"

        init(_ db: Database, endingAfter since: Date, startingBefore until: Date, filter: String, _ filterIDs: [Int64]) throws {
            var unnamed = SessionIDs()
            sessions = try statsSessions(db, sql: filter.isEmpty ? LongSessions.sql : LongSessions.sql + filter,
                                         [until.unixSeconds, since.unixSeconds] + filterIDs, capacity: 0, ids: &unnamed)
        }

        /// Those that start in `[from, before)` and end after `edge` (and by `limit`): complete
        /// when `before <= edge - dayReach` and `edge` is past the `endingAfter` read, as a
        /// session that starts that early and still runs at `edge` lasts more than a day.
        func crossing(_ edge: Int64, from: Int64, before: Int64, endingBy limit: Int64? = nil) -> [StatsSession] {
            guard from < before, !sessions.isEmpty else { return [] }
            let last = limit ?? .max
            return sessions.filter { session in
                session.start >= from && session.start < before && session.end > edge && session.end <= last
            }
        }
    }

    /// Sessions that start in `[longSince, edge)` and end after `edge` (and by `limit`, when
    /// given), `filter` applied. Those starting in `[from, edge)` come from the quarters: only
    /// those whose latest end is past `edge` are read (see `focusQuarter`), not every session of
    /// the range (for a window's first midnight that was a day of sessions to find the few still
    /// running). Those starting before `from`, at least a day before `edge` (`from <= edge -
    /// dayReach`), last longer than a day and come from `long`.
    static func sessionsCrossing(
        _ db: Database, _ edge: Int64, from: Int64, longSince: Int64 = .min, endingBy limit: Int64? = nil,
        long: LongSessions, filter: String, _ filterIDs: [Int64], ids: inout SessionIDs
    ) throws -> [StatsSession] {
        var sessions = long.crossing(edge, from: longSince, before: min(from, edge), endingBy: limit)
        for session in sessions { ids.note(session) }
        guard from < edge else { return sessions }
        let firstQuarter = from / 900 - (from % 900 < 0 ? 1 : 0)
        let endQuarter = edge / 900 + (edge % 900 > 0 ? 1 : 0)
        var found: [Int64] = []
        try eachRow(db, "SELECT quarter FROM focusQuarter WHERE quarter >= ? AND quarter < ? AND lastEnd > ?", [firstQuarter, endQuarter, edge]) {
            found.append($0.number(0, .quarter))
            return true
        }
        guard !found.isEmpty else { return sessions }
        let sql = "SELECT \(entryColumns) FROM timeLog WHERE startedAt >= ? AND startedAt < ? AND endedAt > ?"
            + (limit == nil ? "" : " AND endedAt <= ?") + filter
        for q in found {
            let args = [max(from, q * 900), min(edge, q * 900 + 900), edge] + (limit.map { [$0] } ?? []) + filterIDs
            sessions += try statsSessions(db, sql: sql, args, ids: &ids)
        }
        return sessions
    }

    /// Appends the sessions of the days from `first` to the window: a total per day for those
    /// within one day, the others as they are.
    static func historySessions(
        _ db: Database, from first: LocalDate, window: StatsWindow, calendar: LocalCalendar, long: LongSessions, filter: String,
        _ filterIDs: [Int64], into sessions: inout [StatsSession], totals: inout [StatsDayTotal]
    ) throws {
        let days = window.from.dayNumber - first.dayNumber
        guard days > 0 else { return }
        var bounds: [Int64] = []
        bounds.reserveCapacity(days + 1)
        for k in 0...days {
            bounds.append(calendar.startOfDay(first.adding(days: k)).unixSeconds)
        }
        let windowStart = bounds[days]
        // Sessions before the window: their names are never shown.
        var unnamed = SessionIDs()
        // Sessions begun before that run into the first history day (and end before the window:
        // those running into it are the window's).
        sessions += try sessionsCrossing(db, bounds[0], from: bounds[0] - dayReach, endingBy: windowStart, long: long,
                                         filter: filter, filterIDs, ids: &unnamed)
        if filter.isEmpty, bounds.allSatisfy({ $0 % 900 == 0 }) {
            try quarterDays(db, bounds, first: first, into: &sessions, totals: &totals)
            return
        }
        let dayTotal = """
            SELECT total(CASE WHEN endedAt <= ?3 THEN focusedSeconds END), count(CASE WHEN endedAt > ?3 AND endedAt <= ?4 THEN 1 END)
            FROM timeLog WHERE startedAt >= ?1 AND startedAt < ?2\(filter.replacing("?", with: "?5"))
            """
        let crossing = "SELECT \(entryColumns) FROM timeLog WHERE startedAt >= ? AND startedAt < ? AND endedAt > ? AND endedAt <= ?\(filter)"
        for k in 0..<days {
            let lo = bounds[k], hi = bounds[k + 1]
            let args = [lo, hi, hi, windowStart] + filterIDs
            var total: Int64 = 0, crossingCount: Int64 = 0
            try eachRow(db, dayTotal, args) { row in
                total = row.total(0, .seconds)
                crossingCount = Int64(row.count(1))
                return false
            }
            if total > 0 { totals.append(StatsDayTotal(day: first.adding(days: k), focusedSeconds: total)) }
            if crossingCount > 0 { sessions += try statsSessions(db, sql: crossing, args, ids: &unnamed) }
        }
    }

    /// The history days of `historySessions` from the quarter-hour totals (every bound on a
    /// quarter hour, no filter): each quarter's focus goes to the day it starts in, unless its
    /// latest end is past that day; then its sessions are read, and those running past the day
    /// are passed as they are (those running into the window are already in the window's).
    static func quarterDays(_ db: Database, _ bounds: [Int64], first: LocalDate, into sessions: inout [StatsSession],
                            totals dayTotals: inout [StatsDayTotal]) throws {
        let days = bounds.count - 1
        let windowStart = bounds[days]
        var totals = [Int64](repeating: 0, count: days)
        var unnamed = SessionIDs()
        var split: [(quarter: Int64, day: Int)] = []
        var k = 0
        try eachRow(db, "SELECT quarter, focusedSeconds, lastEnd FROM focusQuarter WHERE quarter >= ? AND quarter < ?", [bounds[0] / 900, windowStart / 900]) { row in
            let q = row.number(0, .quarter)
            while k < days - 1, q * 900 >= bounds[k + 1] { k += 1 }
            if row.unixSeconds(2) <= bounds[k + 1] {
                totals[k] += row.number(1, .seconds)
            } else {
                split.append((q, k))
            }
            return true
        }
        let quarterSQL = "SELECT \(entryColumns) FROM timeLog WHERE startedAt >= ? AND startedAt < ?"
        for (q, day) in split {
            for session in try statsSessions(db, sql: quarterSQL, [q * 900, q * 900 + 900], ids: &unnamed) {
                if session.end <= bounds[day + 1] {
                    totals[day] += Int64(session.focusedSeconds)
                } else if session.end <= windowStart {
                    sessions.append(session)
                }
            }
        }
        for (k, total) in totals.enumerated() where total > 0 { dayTotals.append(StatsDayTotal(day: first.adding(days: k), focusedSeconds: total)) }
    }

    /// The exact focused seconds of all sessions inside `[from, to)`, each session's share by
    /// wall time as the calculator splits it, from the `focusQuarter` totals: the sum of the
    /// quarters in the range, less the share after `to` of the sessions that start inside and
    /// end after it, plus the share inside of those that start before `from` and end after it.
    /// Nil when either end is not on a quarter hour (a zone with an offset of odd minutes).
    static func focusExact(_ db: Database, from: Date, to: Date, long: LongSessions) throws -> Double? {
        let lo = from.unixSeconds, hi = to.unixSeconds
        guard lo % 900 == 0, hi % 900 == 0, lo < hi else { return nil }
        var whole: Int64 = 0
        // total(), not sum(): a sum of hand-edited values overflows in SQLite (an error), a total cannot.
        try eachRow(db, "SELECT total(focusedSeconds) FROM focusQuarter WHERE quarter >= ? AND quarter < ?", [lo / 900, hi / 900]) {
            whole = $0.total(0, .seconds)
            return false
        }
        var outside: Int64 = 0
        var shares = 0.0
        var unnamed = SessionIDs()
        // First the sessions counted whole that run on past `to` (begun in [lo, hi): those begun
        // more than a day before `to` are long ones), then those begun before `from`.
        for (startsFrom, longSince, edge) in [(max(lo, hi - dayReach), lo, hi), (lo - dayReach, Int64.min, lo)] {
            for session in try sessionsCrossing(db, edge, from: startsFrom, longSince: longSince, long: long, filter: "", [], ids: &unnamed)
            where session.focusedSeconds > 0 {
                let focused = Int64(session.focusedSeconds)
                if edge == hi { outside += focused }
                let wall = Double(session.end - session.start)
                let overlap = Double(min(session.end, hi) - max(session.start, lo))
                if overlap > 0 { shares += StatsMath.share(Double(focused), overlap: overlap, wall: wall) }
            }
        }
        return Double(whole - outside) + shares
    }

    /// The focused seconds inside `[from, to)` as the stats count them (each session's focus
    /// shared out by wall time, so a session across midnight, or a forgotten timer over three
    /// days, gives each day its part): `focusExact` when both ends are on quarter hours, else
    /// the sessions that overlap the range, read by start time. "Today" in `status`, the
    /// countdown and the daemon's day summary is this.
    static func focusInside(_ db: Database, from: Date, to: Date) throws -> Double {
        let lo = from.unixSeconds, hi = to.unixSeconds
        guard lo < hi else { return 0 }
        let long = try LongSessions(db, endingAfter: from, startingBefore: to, filter: "", [])
        if let exact = try focusExact(db, from: from, to: to, long: long) { return exact }
        var unnamed = SessionIDs()
        var sessions = try statsSessions(db, sql: windowSessionsSQL, [lo - dayReach, hi], ids: &unnamed)
        sessions += long.crossing(lo, from: .min, before: lo - dayReach)
        var total = 0.0
        for session in sessions where session.focusedSeconds > 0 && session.end > lo && session.start < hi {
            let overlap = Double(min(session.end, hi) - max(session.start, lo))
            total += StatsMath.share(Double(session.focusedSeconds), overlap: overlap, wall: Double(session.end - session.start))
        }
        return total
    }

    /// How many consecutive days before `first` (back to `limit`, included) have focus, as
    /// the calculator counts it: at least half a second once each session's focus is split by
    /// wall time. A session inside the day with focus settles it in one index probe; a day
    /// without one has its crossing sessions' shares summed.
    static func focusDays(
        _ db: Database, before first: LocalDate, downTo limit: LocalDate, calendar: LocalCalendar, long: LongSessions,
        filter: String, _ filterIDs: [Int64]
    ) throws -> Int {
        let probe = "SELECT 1 FROM timeLog WHERE startedAt >= ? AND startedAt < ? AND endedAt <= ? AND focusedSeconds > 0\(filter) LIMIT 1"
        let overlapping = """
            SELECT startedAt, endedAt, focusedSeconds FROM timeLog
            WHERE startedAt >= ? AND startedAt < ? AND endedAt > ? AND focusedSeconds > 0\(filter)
            """
        var count = 0
        var day = first.adding(days: -1)
        var hi = calendar.startOfDay(first).unixSeconds
        while day >= limit {
            let lo = calendar.startOfDay(day).unixSeconds
            var focus = false
            try eachRow(db, probe, [lo, hi, hi] + filterIDs) { _ in
                focus = true
                return false
            }
            if !focus {
                var exact = 0.0
                func add(_ s: Int64, _ e: Int64, _ focused: Int64) {
                    let wall = Double(e - s)
                    let overlap = Double(min(e, hi) - max(s, lo))
                    if wall > 0, overlap > 0 { exact += StatsMath.share(Double(focused), overlap: overlap, wall: wall) }
                }
                // Those begun more than a day before the day are longer than a day.
                for session in long.crossing(lo, from: .min, before: lo - dayReach) where session.focusedSeconds > 0 {
                    add(session.start, session.end, Int64(session.focusedSeconds))
                }
                try eachRow(db, overlapping, [lo - dayReach, hi, lo] + filterIDs) { row in
                    let (s, e) = StoredNumber.session(start: row.storedInteger(0), end: row.storedInteger(1))
                    add(s, e, min(row.number(2, .seconds), e - s))
                    return true
                }
                focus = StatsMath.seconds(exact) > 0
            }
            guard focus else { break }
            count += 1
            hi = lo
            day = day.adding(days: -1)
        }
        return count
    }

    /// Steps a cached statement bound to integer arguments through SQLite's C API, handing each
    /// row to `row` until it returns false. For the small queries a stats command runs dozens
    /// of times (probes, quarter lists): boxing arguments and copying rows cost more than
    /// SQLite's own work on them.
    /// Every value is read through `RawColumns`, the same checked conversion as every other read.
    static func eachRow(_ db: Database, _ sql: String, _ args: [Int64], _ row: (RawColumns) throws -> Bool) throws {
        let statement = try db.cachedStatement(sql: sql)
        statement.reset()
        for (i, value) in args.enumerated() { try statement.bind(value, at: Int32(i + 1)) }
        defer { statement.reset() }
        let columns = RawColumns(columns: statement.columns)
        while try statement.step() {
            if try !row(columns) { return }
        }
    }

    /// The tasks and subtasks the sessions of a window name, gathered as they are read.
    struct SessionIDs {
        var tasks = IDTable()
        var subtasks = IDTable()

        /// Notes the task and subtask of a session taken from `LongSessions`.
        mutating func note(_ session: StatsSession) {
            if tasks[session.taskID] == nil { tasks.insert(session.taskID, 0) }
            if session.subtaskID != 0, subtasks[session.subtaskID] == nil { subtasks.insert(session.subtaskID, 0) }
        }
    }

    /// Reads `StatsSession` values from a query selecting `entryColumns`, stepped and read through
    /// SQLite's C API (a month over a decade of history is ~8,000 rows, and copying each row
    /// into a `Row` would cost as much as SQLite's own reading of it). Notes the task and
    /// subtask of each in `ids`.
    private static func statsSessions(
        _ db: Database, sql: String, _ args: [Int64], capacity: Int = 64, ids: inout SessionIDs
    ) throws -> [StatsSession] {
        var sessions: [StatsSession] = []
        sessions.reserveCapacity(capacity)
        var lastTask: Int64 = 0, lastSubtask: Int64 = 0
        try eachRow(db, sql, args) { row in
            // A NULL subtask reads as 0, which no subtask has.
            let (start, end) = StoredNumber.session(start: row.storedInteger(2), end: row.storedInteger(3))
            let session = StatsSession(
                taskID: row.id(0), subtaskID: row.id(1), start: start, end: end,
                plannedSeconds: row.seconds(4), focusedSeconds: min(row.seconds(5), Int(end - start)), completed: row.storedInteger(6) == 1, open: row.storedInteger(6) == 2)
            if session.taskID != lastTask {
                lastTask = session.taskID
                if ids.tasks[lastTask] == nil { ids.tasks.insert(lastTask, 0) }
            }
            if session.subtaskID != lastSubtask, session.subtaskID != 0 {
                lastSubtask = session.subtaskID
                if ids.subtasks[lastSubtask] == nil { ids.subtasks.insert(lastSubtask, 0) }
            }
            sessions.append(session)
            return true
        }
        return sessions
    }

    /// The titles of the tasks and subtasks in `ids`: one indexed lookup each, through the C API.
    static func titles(_ db: Database, _ ids: SessionIDs) throws -> StatsTitles {
        var titles = StatsTitles()
        for (table, set) in [("task", ids.tasks), ("subtask", ids.subtasks)] {
            for id in set.ids {
                try eachRow(db, "SELECT title FROM \(table) WHERE id = ?", [id]) { row in
                    if let text = row.optionalText(0) { titles.set(id, text) }
                    return false
                }
            }
        }
        return titles
    }

    /// Subtasks with an estimate among `taskIDs` (or just `subtaskID`), with their logged totals.
    /// A series is never listed (its instances are), nor a missed instance of one (past due, not
    /// done: `RecurringWork.Instance.isMissed`), which would otherwise stay open in the list
    /// for ever (README, "Planning").
    static func progress(_ db: Database, taskIDs: [Int64], subtaskID: Int64?, now: Date) throws -> [SubtaskProgress] {
        guard !taskIDs.isEmpty else { return [] }
        var sql = """
            SELECT task.title, subtask.title, subtask.estimateSeconds, subtask.loggedSeconds, subtask.done, subtask.lastWorkedAt
            FROM subtask JOIN task ON task.id = subtask.taskId
            WHERE subtask.estimateSeconds IS NOT NULL AND subtask.every IS NULL
            """
        var args: [Int64] = []
        if let subtaskID {
            // A series' progress is its instances' (README, "Planning").
            sql += " AND (subtask.id = ?1 OR subtask.seriesId = ?1)"
            args = [subtaskID]
        } else {
            args = taskIDs.sorted()
            sql += " AND subtask.taskId IN (" + args.map { _ in "?" }.joined(separator: ",") + ")"
        }
        sql += " AND (subtask.seriesId IS NULL OR subtask.done = 1 OR ifnull(subtask.due > ?, 1))"
        args.append(now.unixSeconds)
        var progress: [SubtaskProgress] = []
        try eachRow(db, sql, args) { row in
            progress.append(SubtaskProgress(
                task: row.text(0), subtask: row.text(1), estimateSeconds: Int(row.number(2, .positiveSeconds)),
                loggedSeconds: row.seconds(3), done: row.bool(4), lastWorkedAt: row.optionalDate(5)))
            return true
        }
        return progress
    }
}
