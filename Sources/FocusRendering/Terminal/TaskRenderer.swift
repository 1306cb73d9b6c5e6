import FocusCore
import FocusText
import FoundationEssentials

/// Text and JSON for `focus task list` and `focus task show`. Pure: tests pin its output.
/// The text is built as bytes with colour escapes; every title, note and name in it is
/// `DisplayText(shown:)`, and the whole comes out as `DisplayText(trusted:)`.
package struct TaskRenderer {
    package let now: Date
    package let calendar: LocalCalendar
    package let width: Int
    package let color: Bool
    /// The attention span of a subtask without its own: the `work` setting.
    package let defaultSpanSeconds: Int

    package init(now: Date, calendar: LocalCalendar, width: Int, color: Bool, defaultSpanSeconds: Int = 1500) {
        self.now = now
        self.calendar = calendar
        self.width = max(40, width)
        self.color = color
        self.defaultSpanSeconds = defaultSpanSeconds
    }

    private func dim(_ s: DisplayText) -> String { StyledLine.Style.dim.apply(s, color: color).string }
    private func bold(_ s: DisplayText) -> String { StyledLine.Style.bold.apply(s, color: color).string }
    private func red(_ s: DisplayText) -> String { StyledLine.Style.red.apply(s, color: color).string }

    /// Every task, subtasks indented with id, logged/estimate, progress, due.
    /// Built as bytes: appending to a String cost thousands of instructions a row, and
    /// `task list` shows every row of a database that may hold thousands of subtasks.
    package func list(_ tasks: [TaskOverview]) -> DisplayText {
        var out: [UInt8] = []
        out.reserveCapacity(tasks.reduce(0) { $0 + 48 + $1.subtasks.count * 112 })
        let idWidth = 1 + String(tasks.lazy.flatMap { $0.subtasks }.map { $0.subtask.id ?? 0 }.max() ?? 0).count
        for t in tasks {
            out.append(contentsOf: bold(DisplayText(shown: t.task.title)).utf8)
            out.append(0x20)
            out.append(contentsOf: dim("#\(t.task.id ?? 0)").utf8)
            if t.task.archived { out.append(0x20); out.append(contentsOf: dim(t.deletedElsewhere ? "(deleted elsewhere)" : "(archived)").utf8) }
            out.append(contentsOf: "  ".utf8)
            out.append(contentsOf: DurationParser.format(t.loggedSeconds).utf8)
            out.append(contentsOf: " logged\n".utf8)
            for s in t.subtasks {
                out.append(contentsOf: "  ".utf8)
                subtaskLine(s, idWidth: idWidth, into: &out)
                out.append(0x0A)
            }
        }
        return DisplayText(trusted: String(decoding: out, as: UTF8.self))
    }

    func subtaskLine(_ s: SubtaskOverview, idWidth: Int) -> String {
        var line: [UInt8] = []
        line.reserveCapacity(120)
        subtaskLine(s, idWidth: idWidth, into: &line)
        return String(decoding: line, as: UTF8.self)
    }

    func subtaskLine(_ s: SubtaskOverview, idWidth: Int, into line: inout [UInt8]) {
        func append(_ text: String, paddedTo n: Int) {
            line.append(contentsOf: text.utf8)
            let w = TerminalText.displayWidth(text)
            if w < n { line.append(contentsOf: repeatElement(0x20, count: n - w)) }
        }
        append("#" + String(s.subtask.id ?? 0), paddedTo: idWidth)
        line.append(contentsOf: "  ".utf8)
        let titleRoom = max(10, min(28, width - 52))
        let title = (s.subtask.done ? "✓ " : "") + DisplayText(shown: s.subtask.title).string
        append(TerminalText.truncate(title, titleRoom), paddedTo: titleRoom)
        line.append(contentsOf: "  ".utf8)
        var progress = DurationParser.format(s.loggedSeconds)
        if let e = s.subtask.estimateSeconds {
            progress += " / "
            progress += DurationParser.format(e)
        }
        append(progress, paddedTo: 15)
        line.append(0x20)
        append(s.progressPercent.map { Digits.text($0) + "%" } ?? "", paddedTo: 5)
        if let due = s.subtask.due {
            // A series shows its current instance's due date (`RecurringWork.fold`).
            var text = s.subtask.isSeries ? "next due " : "due "
            text += RelativeTime.shortDateTime(due, calendar: calendar, now: now)
            text += " ("
            text += RelativeTime.due(due, now: now, calendar: calendar)
            text += ")"
            line.append(0x20)
            line.append(contentsOf: (due <= now && !s.subtask.done ? red(DisplayText(text)) : text).utf8)
        }
        if let rule = s.subtask.recurrence {
            line.append(contentsOf: " · ".utf8)
            line.append(contentsOf: dim(DisplayText(rule.description)).utf8)
        }
        if s.deletedElsewhere {
            line.append(0x20)
            line.append(contentsOf: dim("(deleted elsewhere)").utf8)
        }
        if TaskRenderer.isOverdue(s, now: now) {
            line.append(0x20)
            line.append(contentsOf: red("overdue").utf8)
        } else if s.subtask.atRisk, !s.subtask.done {
            line.append(0x20)
            line.append(contentsOf: red("at risk").utf8)
        }
    }

    package func show(task t: TaskOverview, blocks: [BlockView] = [], sessions: SessionPage? = nil) -> DisplayText {
        let closed = t.deletedElsewhere ? " (deleted elsewhere)" : " (archived)"
        var out = bold(DisplayText(shown: t.task.title)) + " " + dim("#\(t.task.id ?? 0)") + (t.task.archived ? closed : "") + "\n"
        if let notes = t.task.notes { out += "  " + DisplayText(shown: notes).string + "\n" }
        out += "  \(DurationParser.format(t.loggedSeconds)) logged in \(t.sessionCount) session\(t.sessionCount == 1 ? "" : "s")\n"
        if t.subtasks.isEmpty {
            out += "  No subtasks.\n"
        } else {
            let idWidth = t.subtasks.map { "#\($0.subtask.id ?? 0)".count }.max() ?? 2
            for s in t.subtasks { out += "  " + subtaskLine(s, idWidth: idWidth) + "\n" }
        }
        out += blockSection(blocks, naming: true)
        if let sessions { out += sessionSection(sessions, naming: true) }
        return DisplayText(trusted: out)
    }

    /// How many blocks ahead, blocks gone by, and sessions `task show` lists; the rest are counted.
    package static let shownBlocks = 20
    package static let shownSessions = 20

    /// `upcoming blocks:` soonest first (a block running now among them), then `earlier blocks:`
    /// latest first, at most `shownBlocks` of each: `    Mon 30 Nov 09:00–09:25  planned  #12`,
    /// with the subtask's title when `naming` (a task's view). `blocks` come by start.
    func blockSection(_ blocks: [BlockView], naming: Bool) -> String {
        let upcoming = blocks.filter { $0.end > now }
        let earlier = Array(blocks.filter { $0.end <= now }.reversed())
        let today = calendar.day(of: now)
        let days = blocks.isEmpty ? [] : [upcoming.prefix(TaskRenderer.shownBlocks), earlier.prefix(TaskRenderer.shownBlocks)]
            .flatMap { $0.map { RelativeTime.shortDay(calendar.day(of: $0.start), today: today) } }
        let dayWidth = days.map(TerminalText.displayWidth).max() ?? 0
        let nameWidth = naming ? (blocks.map { TerminalText.displayWidth(TerminalText.truncate(DisplayText(shown: $0.subtask).string, 40)) }.max() ?? 0) : 0
        var out = ""
        func lines<C: Collection>(_ title: String, _ list: C) where C.Element == BlockView {
            guard !list.isEmpty else { return }
            out += "  \(title):\n"
            for b in list.prefix(TaskRenderer.shownBlocks) {
                let day = RelativeTime.shortDay(calendar.day(of: b.start), today: today)
                out += "    " + TerminalText.pad(day, dayWidth) + " \(calendar.timeOfDay(of: b.start))–\(calendar.timeOfDay(of: b.end))  "
                if naming { out += TerminalText.pad(TerminalText.truncate(DisplayText(shown: b.subtask).string, 40), nameWidth) + "  " }
                out += b.status.rawValue
                // The block's number, never `#9` (which names task 9): as plan lines write it.
                if let id = b.id { out += "  " + dim("block \(id)") }
                out += "\n"
            }
            if list.count > TaskRenderer.shownBlocks { out += "    and \(list.count - TaskRenderer.shownBlocks) more\n" }
        }
        lines("upcoming blocks", upcoming)
        lines("earlier blocks", earlier)
        return out
    }

    /// `sessions:` newest first, at most `shownSessions`, then how many more there are:
    /// `    ✓ Fri 27 Nov 09:00–09:25  25m  #21  note`, with the subtask's title when `naming`.
    func sessionSection(_ page: SessionPage, naming: Bool) -> String {
        guard !page.entries.isEmpty else { return "" }
        let today = calendar.day(of: now)
        let shown = page.entries.prefix(TaskRenderer.shownSessions)
        let days = shown.map { RelativeTime.shortDay(calendar.day(of: $0.log.startedAt), today: today) }
        let dayWidth = days.map(TerminalText.displayWidth).max() ?? 0
        // A task's view names the subtask of each session; one logged on the task itself has none.
        let names = naming ? shown.map { e in e.subtask.map { TerminalText.truncate(DisplayText(shown: $0).string, 40) } ?? "–" } : []
        let nameWidth = names.map(TerminalText.displayWidth).max() ?? 0
        var out = "  sessions, newest first (\(page.count), \(DurationParser.format(page.focusedSeconds))):\n"
        for (i, (e, day)) in zip(shown, days).enumerated() {
            let mark = SessionMark.of(e.log.status)
            out += "    \(mark) " + TerminalText.pad(day, dayWidth) + " \(calendar.timeOfDay(of: e.log.startedAt))–\(calendar.timeOfDay(of: e.log.endedAt))  "
            out += TerminalText.pad(DurationParser.format(e.log.focusedSeconds), 7)
            if naming { out += " " + TerminalText.pad(names[i], nameWidth) }
            out += "  " + dim("#\(e.log.id ?? 0)")
            if let note = e.log.note { out += "  " + dim(DisplayText(shown: note)) }
            out += "\n"
        }
        let more = page.count - shown.count
        if more > 0 { out += "    and \(more) more (`focus log` lists sessions by day)\n" }
        return out
    }

    package func show(subtask s: SubtaskOverview, of task: FocusTask, blocks: [BlockView] = [], sessions: SessionPage) -> DisplayText {
        let sub = s.subtask
        var out = bold(DisplayText(shown: "\(task.title)/\(sub.title)")) + " " + dim("#\(sub.id ?? 0)") + (sub.done ? " ✓ done" : "") + "\n"
        func row(_ k: String, _ v: String) { out += "  " + TerminalText.pad(k, 14) + v + "\n" }
        var logged = DurationParser.format(s.loggedSeconds)
        if let e = sub.estimateSeconds { logged += " of " + DurationParser.format(e) + (s.progressPercent.map { " (\($0)%)" } ?? "") }
        row("logged", logged)
        // A series shows its current instance (`RecurringWork.fold`) and its rule.
        if let rule = sub.recurrence { row("repeats", rule.description) }
        if let due = sub.due {
            row(sub.isSeries ? "next due" : "due", RelativeTime.shortDateTime(due, calendar: calendar, now: now) + " (" + RelativeTime.due(due, now: now, calendar: calendar) + ")")
        }
        if let start = sub.startDate { row("starts", RelativeTime.shortDay(start, today: calendar.day(of: now))) }
        if let e = sub.earliest { row("earliest", e.description) }
        if TaskRenderer.isOverdue(s, now: now) {
            row("plan", "overdue: its due date has passed with work left")
        } else if sub.atRisk {
            row("plan", "at risk: it may not fit before its due date")
        } else if let note = TaskRenderer.unplannedReason(sub) {
            row("plan", note)
        }
        row("span", DurationParser.format(sub.spanSeconds ?? defaultSpanSeconds) + (sub.spanSeconds == nil ? " (the work length)" : ""))
        if let cap = sub.maxPerDaySeconds { row("max per day", DurationParser.format(cap)) }
        row("priority", sub.priority.name)
        if let notes = sub.notes { row("notes", DisplayText(shown: notes).string) }
        // A series' blocks and sessions are its instances': each named.
        out += blockSection(blocks, naming: sub.isSeries)
        out += sessionSection(sessions, naming: sub.isSeries)
        return DisplayText(trusted: out)
    }

    /// `estimate 6h · due Fri 27 Nov 17:00 (in 5 days) · span 50m`.
    package static func constraintSummary(_ s: Subtask, now: Date, calendar: LocalCalendar) -> String {
        var parts: [String] = []
        if let e = s.estimateSeconds { parts.append("estimate " + DurationParser.format(e)) }
        if let due = s.due { parts.append("due " + RelativeTime.shortDateTime(due, calendar: calendar, now: now) + " (" + RelativeTime.due(due, now: now, calendar: calendar) + ")") }
        if let start = s.startDate { parts.append("from " + RelativeTime.shortDay(start, today: calendar.day(of: now))) }
        if let span = s.spanSeconds { parts.append("span " + DurationParser.format(span)) }
        if let e = s.earliest { parts.append("not before " + e.description) }
        if let cap = s.maxPerDaySeconds { parts.append("at most " + DurationParser.format(cap) + " a day") }
        if s.priority != .normal { parts.append(s.priority.name + " priority") }
        if let rule = s.recurrence {
            let next = RecurringWork.nextDue(s, now: now, calendar: calendar)
            parts.append(rule.description + (next.map { ", next due " + RelativeTime.shortDateTime($0, calendar: calendar, now: now) } ?? ""))
        }
        return parts.joined(separator: " · ")
    }

    /// Open work whose due date has passed with estimated work left.
    package static func isOverdue(_ s: SubtaskOverview, now: Date) -> Bool {
        s.isOverdue(now: now)
    }

    /// `not planned: no due date` (or no estimate); nil for work the planner places, or a plain to-do.
    package static func unplannedReason(_ s: Subtask) -> String? {
        guard !s.done, !s.isSeries else { return nil }
        switch (s.estimateSeconds, s.due) {
        case (.some, nil): return "not planned: no due date"
        case (nil, .some): return "not planned: no estimate"
        default: return nil
        }
    }

    /// Why a subtask with an estimate but no due date is not planned (nil otherwise).
    package static func unplannedNote(_ s: Subtask, path: String) -> DisplayText? {
        guard unplannedReason(s) == "not planned: no due date" else { return nil }
        return "note: '\(path)' has no due date, so it is not planned; give it one to plan it: `\(Quoted.command("focus task edit", path, then: "--due DATE"))`."
    }

    /// `task list` with no task to list: none matches the filters, or none yet, and how to add one.
    package static func emptyList(all: Bool, filtered: Bool) -> DisplayText {
        if filtered { return "No \(all ? "" : "open ")tasks match.\n" }
        return "\(all ? "No tasks yet." : "No open tasks.")\nAdd one with `focus task add \"Thesis/Chapter 2\" --estimate 6h --due 2026-11-27`.\n"
    }

    /// `task list --json`: the contract's array.
    package static func json(list tasks: [TaskOverview], calendar: LocalCalendar, now: Date) -> JSON {
        .array(tasks.map { json($0, calendar: calendar, now: now) })
    }

    /// `task show --json` of a task: its element of `task list --json`, then every block planned
    /// for it and every session recorded.
    package static func showJSON(task t: TaskOverview, blocks: [BlockView], sessions: SessionPage, calendar: LocalCalendar, now: Date) -> JSON {
        guard case let .object(pairs) = json(t, calendar: calendar, now: now) else { return json(t, calendar: calendar, now: now) }
        return .object(pairs + detailJSON(blocks: blocks, sessions: sessions))
    }

    /// `task show --json` of a subtask: its element of a task's `subtasks`, with the task's title
    /// second and its notes, then its blocks and sessions.
    package static func showJSON(subtask s: SubtaskOverview, of task: FocusTask, blocks: [BlockView], sessions: SessionPage,
                                 calendar: LocalCalendar, now: Date) -> JSON {
        guard case var .object(pairs) = subtaskJSON(s, calendar: calendar, now: now) else { return subtaskJSON(s, calendar: calendar, now: now) }
        pairs.insert(("task", .string(task.title)), at: 1)
        pairs.append(("notes", .optional(s.subtask.notes)))
        return .object(pairs + detailJSON(blocks: blocks, sessions: sessions))
    }

    private static func detailJSON(blocks: [BlockView], sessions: SessionPage) -> [(String, JSON)] {
        [("blocks", .array(blocks.map(PlanRenderer.blockJSON))), ("sessions", .array(sessions.entries.map(SessionRenderer.json)))]
    }

    /// The contract's `task list --json` element.
    package static func json(_ t: TaskOverview, calendar: LocalCalendar, now: Date) -> JSON {
        .object([
            ("id", .int(Int(t.task.id ?? 0))),
            ("title", .string(t.task.title)),
            ("notes", .optional(t.task.notes)),
            ("subtasks", .array(t.subtasks.map { subtaskJSON($0, calendar: calendar, now: now) })),
            ("archived", .bool(t.task.archived)),
            ("logged_seconds", .int(t.loggedSeconds)),
        ] + (t.deletedElsewhere ? [("deleted_elsewhere", .bool(true))] : []))
    }

    package static func subtaskJSON(_ s: SubtaskOverview, calendar: LocalCalendar, now: Date) -> JSON {
        let sub = s.subtask
        return .object([
            ("id", .int(Int(sub.id ?? 0))),
            ("title", .string(sub.title)),
            ("estimate_seconds", .optional(sub.estimateSeconds)),
            ("logged_seconds", .int(s.loggedSeconds)),
            ("start_date", .optional(sub.startDate?.description)),
            ("due", .optional(sub.due.map(Timestamp.utc))),
            ("span_seconds", .optional(sub.spanSeconds)),
            ("earliest_time", .optional(sub.earliest?.description)),
            ("priority", .string(sub.priority.name)),
            ("max_per_day_seconds", .optional(sub.maxPerDaySeconds)),
            ("done", .bool(sub.done)),
            ("progress_percent", .optional(s.progressPercent)),
            ("at_risk", .bool(sub.atRisk)),
            ("overdue", .bool(isOverdue(s, now: now))),
        ] + (s.deletedElsewhere ? [("deleted_elsewhere", .bool(true))] : []) + seriesJSON(sub, instanceID: s.currentInstanceID))
    }

    /// The keys a series adds (README, "Planning"): its rule, and the instance its `due`,
    /// `logged_seconds` and estimate are those of.
    static func seriesJSON(_ s: Subtask, instanceID: Int64?) -> [(String, JSON)] {
        guard let rule = s.recurrence else { return [] }
        return [("every", .string(rule.every.rawValue)), ("on", .optional(rule.onText)),
                ("instance_id", .optional(instanceID.map { Int($0) }))]
    }
}

extension TaskRenderer {
    /// `task add --json` of a task alone: `{"id": 3, "title": "Thesis"}`.
    package static func addedJSON(taskID: Int64, title: String) -> DisplayText {
        DisplayText(JSON.object([("id", .int(Int(taskID))), ("title", .string(title))]))
    }

    /// `task add --json` of a subtask: `{"id": 7, "task_id": 3, "path": "Thesis/Chapter 2"}`.
    package static func addedJSON(subtaskID: Int64, taskID: Int64, path: String) -> DisplayText {
        DisplayText(JSON.object([("id", .int(Int(subtaskID))), ("task_id", .int(Int(taskID))), ("path", .string(path))]))
    }
}
