import FocusText
import FocusCore
import FocusStorage
import FoundationEssentials

extension StartCommand {
    /// What to work on: the path given (added first with `--create` when it does not exist);
    /// with none, the subtask of the scheduled block running now or next today (the session is
    /// then linked to that block). The catalog returned names the target.
    func workTarget(db: AppDatabase, env: FocusEnvironment) throws(FocusError) -> (PathTarget, blockID: Int64?, catalog: TaskCatalog) {
        let catalog = try db.catalog()
        if let path {
            do {
                let named = try catalog.resolve(path)
                let target = try SeriesTarget.resolve(named, shown: catalog.path(of: named), db: db, env: env)
                // The instance may be new: the catalog read again names it.
                return (target, nil, target == named ? catalog : try db.catalog())
            } catch let .notFound(missing, suggestions) {
                guard create else {
                    throw FocusError.usage(Self.notFoundSentence(path: path, missing: missing, suggestions: suggestions, catalog: catalog))
                }
                try add(path, catalog: catalog, db: db, env: env)
                let fresh = try db.catalog()
                return (try fresh.resolve(path), nil, fresh)
            }
        }
        let now = env.now()
        let today = env.calendar.day(of: now)
        let blocks = try db.blocks(overlapping: env.calendar.startOfDay(today), env.calendar.startOfDay(today.adding(days: 1)))
        let candidates = blocks.map { ScheduledBlock(id: $0.id, subtaskID: $0.subtaskID, startedAt: $0.start, endedAt: $0.end, status: $0.status) }
        guard let block = BlockSelection.pick(candidates, now: now, calendar: env.calendar),
              let subtask = try db.subtask(id: block.subtaskID) else {
            throw FocusError.usage(try Self.nothingPlannedToday(db: db, env: env, now: now))
        }
        let target = PathTarget.subtask(taskID: subtask.taskID, id: block.subtaskID)
        env.console.note("working on the block \(env.calendar.timeOfDay(of: block.startedAt))–\(env.calendar.timeOfDay(of: block.endedAt)): \(catalog.path(of: target)).")
        return (target, block.id, catalog)
    }

    /// No block runs now or later today: the next planned block and the last work done, each
    /// with the line that starts it; the README's sample name only when there is neither.
    static func nothingPlannedToday(db: AppDatabase, env: FocusEnvironment, now: Date) throws(FocusError) -> String {
        let next = try db.blocks(startingFrom: now).first { $0.status == .planned }
        let last = try db.recentSessions(limit: 1).first
        var options: [String] = []
        if let next {
            let when = "\(RelativeTime.shortDay(env.calendar.day(of: next.start))) \(env.calendar.timeOfDay(of: next.start))"
            options.append("the next planned block (\(when)) with `\(Quoted.command("focus start", next.path))`")
        }
        if let last, last.path != next?.path {
            options.append("the last work, \(last.path), with `\(Quoted.command("focus start", last.path))`")
        }
        guard !options.isEmpty else {
            return "name what to work on: `focus start \"Thesis/Chapter 2\"` (see `focus task list`)."
        }
        return "nothing is planned for the rest of today. Start " + options.joined(separator: ", or ") + "."
    }

    /// "no task matches 'Nope/x'." with the two ways to go on: add it, or add and start it. An
    /// `#ID` cannot be added, so it gets the usual pointer to the list. A subtask of a task that
    /// exists (named by a prefix, `thes/Intro`) is suggested under the task's own name, since
    /// `task add` takes a task's whole name.
    static func notFoundSentence(path: String, missing: String, suggestions: [String], catalog: TaskCatalog) -> String {
        var trimmed = path.trimmingSpaces()
        guard TaskCatalog.hashID(TaskCatalog.split(trimmed).task) == nil, TaskCatalog.hashID(trimmed) == nil else {
            return FocusError.noMatch(missing, suggestions: suggestions, fix: "Run `focus task list` to see all.")
        }
        let (taskPart, subPart) = TaskCatalog.split(trimmed)
        if let subPart, !subPart.isEmpty, let task = try? catalog.resolve(taskPart) {
            trimmed = catalog.titles(of: .task(id: task.taskID)).task + "/" + subPart
        }
        // Always quoted, so the suggestion reads the same for `Nope/x` and `"Nope/x 2"`.
        let plain = Quoted.shell(trimmed)
        let quoted = plain == trimmed ? "\"" + trimmed + "\"" : plain
        return FocusError.noMatch(missing, suggestions: suggestions,
                                  fix: "Run `focus task add \(quoted)` first, or `focus start --create \(quoted)` to add and start it.")
    }

    /// `--create`: the task or subtask added by the storage calls `task add` uses. A subtask goes
    /// under the task its first part already names (a prefix or `#ID` too), else under a new task.
    private func add(_ path: String, catalog: TaskCatalog, db: AppDatabase, env: FocusEnvironment) throws(FocusError) {
        let now = env.now()
        let (taskPart, subPart) = TaskCatalog.split(path)
        guard let subPart, !subPart.isEmpty else {
            let title = try Titles.validateTask(taskPart)
            let id = try db.addTask(title: title, notes: nil, now: now)
            env.console.line("Added task \(title) (#\(id)).")
            return
        }
        let subTitle = try Titles.validate(subPart, what: "subtask name")
        let parent: String
        if let existing = try? catalog.resolve(taskPart) {
            parent = "#\(existing.taskID)"
        } else {
            parent = try Titles.validateTask(taskPart)
        }
        let result = try db.addSubtask(taskTitle: parent, subtask: Subtask(taskID: 0, title: subTitle, createdAt: now), now: now)
        let names = try db.titles(taskID: result.taskID, subtaskID: result.subtaskID)
        if result.createdTask { env.console.line("Created task \(names.task).") }
        env.console.line("Added \("\(names.task)/\(names.subtask ?? subTitle)") (#\(result.subtaskID)).")
    }
}
