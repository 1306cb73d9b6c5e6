import FocusCore
import FoundationEssentials
import FocusSQLite

/// What adding a subtask would do, found without saving it (the add form's live verdict).
package enum AddPreview: Sendable, Equatable {
    /// It fits before its due date; the other subtasks whose blocks the re-plan would move.
    case fits(moved: [PlanChanges.Move])
    /// The planner's own refusal, as `focus task add` says it (`FocusError.doesNotFit`).
    case doesNotFit(String)
}

extension AppDatabase {
    /// Runs `task add`'s own path, `addSubtask` with the planner's refusal, inside one IMMEDIATE
    /// transaction that is always rolled back: nothing is committed, so no other process sees
    /// it and nothing is published (the copy of the store used here has no `onWrite` and no
    /// daily backup). Errors other than the refusal (a name that exists) are thrown as they are.
    package func previewAddSubtask(taskTitle: String, subtask: Subtask, now: Date, context: PlanContext) throws(FocusError) -> AddPreview {
        let before = try read { db in try AppDatabase.plannedBlocks(db) }
        let probe = RollbackWriter(writer) { db in try AppDatabase.plannedBlocks(db) }
        let dry = try AppDatabase(probe, path: path)
        do {
            let added = try dry.addSubtask(taskTitle: taskTitle, subtask: subtask, now: now,
                                           refusing: RefusalRequest(context: context, force: false))
            return .fits(moved: PlanChanges.moves(before: before, after: probe.seen, except: added.subtaskID, now: now))
        } catch let error {
            if case let .doesNotFit(sentence) = error { return .doesNotFit(sentence) }
            throw error
        }
    }

    /// What `task edit` would do to the plan with `subtask`'s new fields, without saving: the
    /// command's own update and re-plan, run in a transaction that is rolled back.
    package func previewUpdateSubtask(_ subtask: Subtask, previous: Subtask, now: Date, context: PlanContext) throws(FocusError) -> AddPreview {
        let before = try read { db in try AppDatabase.plannedBlocks(db) }
        let probe = RollbackWriter(writer) { db in try AppDatabase.plannedBlocks(db) }
        let dry = try AppDatabase(probe, path: path)
        do {
            _ = try dry.updateSubtask(subtask, previous: previous, refusing: RefusalRequest(context: context, force: false))
            return .fits(moved: PlanChanges.moves(before: before, after: probe.seen, except: subtask.id, now: now))
        } catch let error {
            if case let .doesNotFit(sentence) = error { return .doesNotFit(sentence) }
            throw error
        }
    }

    /// The planned blocks, each with its subtask's path.
    static func plannedBlocks(_ db: Database) throws -> [PlanChanges.Block] {
        try Row.fetchAll(db, sql: """
            SELECT b.subtaskId, b.startedAt, b.endedAt, t.title AS taskTitle, s.title AS subtaskTitle
            FROM scheduledBlock b JOIN subtask s ON s.id = b.subtaskId JOIN task t ON t.id = s.taskId
            WHERE b.status = 'planned'
            """).map { row in
            PlanChanges.Block(subtaskID: row.id("subtaskId"), path: "\(row.text("taskTitle"))/\(row.text("subtaskTitle"))",
                            start: row.date("startedAt"), end: row.date("endedAt"))
        }
    }
}

/// A writer over another whose `write` never commits: the body runs inside a transaction that
/// is rolled back when it returns or throws (https://sqlite.org/lang_transaction.html); what
/// `inspect` reads just before the rollback is kept in `seen`.
final class RollbackWriter: DatabaseWriter, @unchecked Sendable {
    private let base: any DatabaseWriter
    private let inspect: (Database) throws -> [PlanChanges.Block]
    private(set) var seen: [PlanChanges.Block] = []

    init(_ base: any DatabaseWriter, inspect: @escaping (Database) throws -> [PlanChanges.Block]) {
        self.base = base
        self.inspect = inspect
    }

    func withConnection<T>(_ body: (Database) throws -> T) throws -> T {
        try base.withConnection(body)
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try base.withConnection { db in
            try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
            defer { if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK TRANSACTION") } }
            let result = try body(db)
            seen = try inspect(db)
            return result
        }
    }

    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try write(body)
    }
}
