import FocusCore
import FoundationEssentials
import FocusSQLite

extension AppDatabase {
    /// Every task and subtask name, for resolving paths.
    package func catalog() throws(FocusError) -> TaskCatalog {
        try read { db in try AppDatabase.catalog(db) }
    }

    static func catalog(_ db: Database) throws -> TaskCatalog {
        let tasks = try Row.fetchAll(db, sql: "SELECT id, title, archived FROM task ORDER BY id").map {
            TaskCatalog.Entry(id: $0.id("id"), title: $0.text("title"), closed: $0.bool("archived"))
        }
        var subs: [Int64: [TaskCatalog.Entry]] = [:]
        // An instance of recurring work is named through its series (README, "Planning").
        for row in try Row.fetchAll(db, sql: "SELECT id, taskId, title, done, seriesId IS NOT NULL AS instance FROM subtask ORDER BY id") {
            subs[row.id("taskId"), default: []].append(TaskCatalog.Entry(id: row.id("id"), title: row.text("title"), closed: row.bool("done"),
                                                                         isInstance: row.bool("instance")))
        }
        return TaskCatalog(tasks: tasks, subtasks: subs)
    }

    /// A new id from the sequence shared by tasks and subtasks.
    private static func nextPathID(_ db: Database) throws -> Int64 {
        try db.execute(sql: "INSERT INTO pathId DEFAULT VALUES")
        return db.lastInsertedRowID
    }

    private static func taskID(titled title: String, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM task WHERE titleKey = ?", arguments: [TaskCatalog.key(title)])
    }

    /// Adds a task; refuses a title that exists (case-insensitively).
    package func addTask(title: String, notes: String?, now: Date) throws(FocusError) -> Int64 {
        try write { db in
            if try AppDatabase.taskID(titled: title, db) != nil { throw FocusError.alreadyExists(path: title) }
            return try AppDatabase.insertTask(title: title, notes: notes, now: now, db)
        }
    }

    private static func insertTask(title: String, notes: String?, now: Date, _ db: Database) throws -> Int64 {
        let id = try nextPathID(db)
        try db.execute(
            sql: "INSERT INTO task (id, title, titleKey, notes, createdAt) VALUES (?, ?, ?, ?, ?)",
            arguments: [id, title, TaskCatalog.key(title), notes, now.unixSeconds])
        return id
    }

    /// Adds a subtask under the task titled `taskTitle` (or `#ID`), creating the task if needed.
    /// With `refusing`, the plan is made again in the same transaction and the planner's refusal
    /// (`PlanRefusal.decide`) rolls everything back, the new task included.
    package func addSubtask(
        taskTitle: String, subtask: Subtask, now: Date, refusing: RefusalRequest? = nil
    ) throws(FocusError) -> (taskID: Int64, subtaskID: Int64, createdTask: Bool, verdict: PlanVerdict) {
        try write { db in
            var created = false
            let taskID: Int64
            if let byID = TaskCatalog.hashID(taskTitle) {
                guard try Bool.fetchOne(db, sql: "SELECT 1 FROM task WHERE id = ?", arguments: [byID]) == true else {
                    throw FocusError.notFound(path: taskTitle, suggestions: [])
                }
                taskID = byID
            } else if let existing = try AppDatabase.taskID(titled: taskTitle, db) {
                taskID = existing
            } else {
                taskID = try AppDatabase.insertTask(title: taskTitle, notes: nil, now: now, db)
                created = true
            }
            let clash = try String.fetchOne(db, sql: "SELECT title FROM subtask WHERE taskId = ? AND titleKey = ?",
                                            arguments: [taskID, TaskCatalog.key(subtask.title)])
            if clash != nil {
                let taskName = try String.fetchOne(db, sql: "SELECT title FROM task WHERE id = ?", arguments: [taskID]) ?? taskTitle
                throw FocusError.alreadyExists(path: "\(taskName)/\(subtask.title)")
            }
            var s = subtask
            s.taskID = taskID
            let id = try AppDatabase.nextPathID(db)
            try db.execute(
                sql: "INSERT INTO subtask (id, \(Subtask.columns), createdAt) VALUES (?, \(Subtask.placeholders), ?)",
                arguments: [id] + s.arguments + [now.unixSeconds])
            s.id = id
            let verdict = try refusing.map { try AppDatabase.replanRefusing(db, $0, change: SubtaskChange(previous: nil, current: s, force: $0.force)) }
            return (taskID, id, created, verdict ?? PlanVerdict())
        }
    }

    package func task(id: Int64) throws(FocusError) -> FocusTask? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM task WHERE id = ?", arguments: [id]).map(FocusTask.init(row:)) }
    }

    package func subtask(id: Int64) throws(FocusError) -> Subtask? {
        try read { db in try Row.fetchOne(db, sql: "SELECT \(Subtask.selection) FROM subtask WHERE id = ?", arguments: [id]).map(Subtask.init(row:)) }
    }

    /// Renames or re-notes a task; refuses a title another task has.
    package func updateTask(_ task: FocusTask) throws(FocusError) {
        try write { db in
            if let other = try AppDatabase.taskID(titled: task.title, db), other != task.id {
                throw FocusError.alreadyExists(path: task.title)
            }
            try db.execute(sql: "UPDATE task SET title = ?, titleKey = ?, notes = ?, archived = ? WHERE id = ?",
                           arguments: [task.title, TaskCatalog.key(task.title), task.notes, task.archived, task.id])
            // Its stand-in (`StandInEdits`) is the to-do itself: it takes the task's name (when no
            // other subtask has it) and is done when the task is archived, as on every machine.
            try db.execute(sql: """
                UPDATE subtask SET done = ? WHERE taskId = ? AND syncUid = (SELECT \(SyncIdentity.standInUID(sqlColumn: "syncUid")) FROM task WHERE id = ?)
                """, arguments: [task.archived, task.id, task.id])
            if let id = task.id { try AppDatabase.renameStandIn(ofTask: id, db) }
        }
    }

    /// Saves a subtask's fields. With `refusing`, the plan is made again in the same transaction
    /// and the planner's refusal (`PlanRefusal.decide`, given `previous`) rolls the edit back.
    @discardableResult
    package func updateSubtask(_ subtask: Subtask, previous: Subtask? = nil, refusing: RefusalRequest? = nil) throws(FocusError) -> PlanVerdict {
        try write { db in
            let clash = try Int64.fetchOne(db, sql: "SELECT id FROM subtask WHERE taskId = ? AND titleKey = ? AND id != ?",
                                           arguments: [subtask.taskID, TaskCatalog.key(subtask.title), subtask.id])
            if clash != nil {
                let taskName = try String.fetchOne(db, sql: "SELECT title FROM task WHERE id = ?", arguments: [subtask.taskID]) ?? "?"
                throw FocusError.alreadyExists(path: "\(taskName)/\(subtask.title)")
            }
            try db.execute(
                sql: """
                    UPDATE subtask SET taskId = ?, title = ?, titleKey = ?, notes = ?, estimateSeconds = ?, startDate = ?,
                      due = ?, spanSeconds = ?, earliestMinutes = ?, done = ?, atRisk = ?, priority = ?, maxPerDaySeconds = ?,
                      every = ?, onDay = ?, seriesId = ?, periodStart = ?
                    WHERE id = ?
                    """,
                arguments: subtask.arguments + [subtask.id])
            // A stand-in done is its to-do done: the task is archived with it (`updateTask`).
            try db.execute(sql: """
                UPDATE task SET archived = ? WHERE id = ? AND \(SyncIdentity.standInUID(sqlColumn: "syncUid")) = (SELECT syncUid FROM subtask WHERE id = ?)
                """, arguments: [subtask.done, subtask.taskID, subtask.id])
            let verdict = try refusing.map { try AppDatabase.replanRefusing(db, $0, change: SubtaskChange(previous: previous, current: subtask, force: $0.force)) }
            return verdict ?? PlanVerdict()
        }
    }

    /// Number of sessions logged against a task (with its subtasks) or one subtask.
    package func sessionCount(_ target: PathTarget) throws(FocusError) -> Int {
        try read { db in
            switch target {
            case let .task(id):
                return try Row.fetchOne(db, sql: "SELECT sessionCount FROM task WHERE id = ?", arguments: [id])?.count(0) ?? 0
            case let .subtask(_, id):
                // A series' sessions are those of its instances (README, "Planning").
                return try Int.fetchOne(db, sql: """
                    SELECT count(*) FROM timeLog WHERE subtaskId = ?1 OR subtaskId IN (SELECT id FROM subtask WHERE seriesId = ?1)
                    """, arguments: [id]) ?? 0
            }
        }
    }

    /// Tasks with their subtasks and logged totals, by title. Without `all`, archived tasks and
    /// done subtasks are left out.
    package func overview(all: Bool, only taskID: Int64? = nil) throws(FocusError) -> [TaskOverview] {
        try read { db in
            var where_: [String] = []
            var args: StatementArguments = []
            if !all { where_.append("archived = 0") }
            if let taskID { where_.append("id = ?"); args += [taskID] }
            let clause = where_.isEmpty ? "" : "WHERE " + where_.joined(separator: " AND ")
            let tasks = try Row.fetchAll(db, sql: "SELECT * FROM task \(clause) ORDER BY titleKey", arguments: args)
            var subRows: [Int64: [SubtaskOverview]] = [:]
            var subWhere: [String] = []
            var subArgs: StatementArguments = []
            if !all { subWhere.append("done = 0") }
            if let taskID { subWhere.append("taskId = ?"); subArgs += [taskID] }
            let subClause = subWhere.isEmpty ? "" : "WHERE " + subWhere.joined(separator: " AND ")
            // Each task's subtasks in listing order (due ones first, soonest first, then by
            // title), sorted here per task: SQLite sorting every subtask of every task through
            // a temporary b-tree cost a seventh of `focus task list` on a large database.
            let statement = try db.makeStatement(sql: "SELECT \(Subtask.selection), titleKey FROM subtask \(subClause)")
            try statement.setArguments(subArgs)
            defer { statement.reset() }
            let columns = RawColumns(columns: statement.columns)
            var unsorted: [Int64: [(overview: SubtaskOverview, key: String)]] = [:]
            while try statement.step() {
                let subtask = Subtask(columns)
                let overview = SubtaskOverview(subtask: subtask, loggedSeconds: columns.seconds(12),
                                               lastWorkedAt: columns.optionalDate(13))
                unsorted[subtask.taskID, default: []].append((overview, columns.text(Int32(Subtask.selectionCount))))
            }
            for (taskID, list) in unsorted {
                subRows[taskID] = list.sorted { a, b in
                    let da = a.overview.subtask.due, db = b.overview.subtask.due
                    if (da == nil) != (db == nil) { return da != nil }
                    if let da, let db, da != db { return da < db }
                    return a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
                }.map(\.overview)
            }
            // Deleted in another app, kept here (README, "Two machines"): only `--all` lists them.
            let elsewhere = all ? Set(try Int64.fetchAll(db, sql: "SELECT id FROM subtask WHERE deletedElsewhere = 1")) : []
            return tasks.map { row in
                let task = FocusTask(row: row)
                var subtasks = subRows[task.id ?? 0] ?? []
                for i in subtasks.indices where elsewhere.contains(subtasks[i].subtask.id ?? 0) { subtasks[i].deletedElsewhere = true }
                var overview = TaskOverview(task: task, loggedSeconds: row.seconds("loggedSeconds"), sessionCount: row.count("sessionCount"),
                                            subtasks: subtasks)
                overview.deletedElsewhere = row.bool("deletedElsewhere")
                return overview
            }
        }
    }
}

extension AppDatabase {
    /// The titles of one task and (optionally) one of its subtasks, without loading the catalog.
    package func titles(taskID: Int64, subtaskID: Int64?) throws(FocusError) -> (task: String, subtask: String?) {
        try read { db in
            let task = try String.fetchOne(db, sql: "SELECT title FROM task WHERE id = ?", arguments: [taskID]) ?? "#\(taskID)"
            let sub = try subtaskID.flatMap { try String.fetchOne(db, sql: "SELECT title FROM subtask WHERE id = ?", arguments: [$0]) }
            return (task, sub)
        }
    }

    /// `Thesis/Chapter 2`, or `Thesis` without a subtask: the path a person reads.
    package func path(taskID: Int64, subtaskID: Int64?) throws(FocusError) -> String {
        let names = try titles(taskID: taskID, subtaskID: subtaskID)
        return names.subtask.map { "\(names.task)/\($0)" } ?? names.task
    }
}
