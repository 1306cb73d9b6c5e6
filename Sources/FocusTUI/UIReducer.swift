import FocusCore
import FocusRendering
import FocusStorage
import FocusText
import FocusTime
import FoundationEssentials

/// The view's one decision: the next state and what to do, from the state and what happened.
package enum UIReducer {
    /// The windows `[` `]` step through on Stats.
    package static let statsWindows = [7, 14, 30]

    package static func reduce(_ state: UIState, _ event: UIEvent) -> (UIState, [Effect]) {
        var s = state
        switch event {
        case let .key(key):
            return pressed(key, s)
        case let .resized(width, height):
            s.width = width
            s.height = height
            return (s, [])
        case let .tick(now):
            let before = s.today
            s.now = now
            // At midnight a view left on today moves on to the new day.
            guard s.today != before, s.day == before else { return (s, []) }
            s.day = s.today
            s.weekStart = UIState.monday(of: s.day)
            s.weekDay = s.day.dayNumber - s.weekStart.dayNumber
            return (s, [.load(s.request)])
        case .changed:
            return (s, [.load(s.request)])
        case let .loaded(data, request):
            // An answer to a request since replaced is dropped: a newer one is on its way.
            guard request == s.request else { return (s, []) }
            s.data = data
            for screen in [Screen.today, .tasks, .stats] { s.keepSelection(on: screen) }
            return (s, [])
        case let .said(sentence):
            // The form saved: closed, and the list read again to show what was added.
            if s.form?.saving == true {
                s.form = nil
                s.message = sentence
                return (s, [.load(s.request)])
            }
            s.message = sentence
            return (s, [])
        case let .previewed(arguments, verdict):
            // Only the verdict on the draft as it still is: one on an older draft is dropped.
            guard var form = s.form, !form.saving, form.arguments == arguments else { return (s, []) }
            form.verdict = verdict
            s.form = form
            return (s, [])
        case let .failed(sentence):
            // A refusal of the form's work is shown in the form, whose draft stays.
            if s.form?.saving == true {
                s.form?.saving = false
                s.form?.error = sentence
                return (s, [])
            }
            s.message = sentence
            return (s, [])
        }
    }

    private static func pressed(_ key: Key, _ state: UIState) -> (UIState, [Effect]) {
        var s = state
        // A message stays until the next key.
        s.message = nil
        if s.form != nil { return formKey(key, s) }
        if s.searching { return searchKey(key, s) }
        if s.commandLine != nil { return commandKey(key, s) }
        if s.rangeLine != nil { return rangeKey(key, s) }
        if let confirm = s.confirm {
            // Yes runs the command; any other key is no.
            s.confirm = nil
            guard KeyTable.action(for: key, on: s.screen, context: .confirm) == .save else { return (s, []) }
            if confirm.arguments.isEmpty { return (s, [.quit]) }
            return (s, [.run(confirm.arguments), .load(s.request)])
        }
        if s.showingHelp, key == .escape || key == .char("?") {
            s.showingHelp = false
            return (s, [])
        }
        guard let action = KeyTable.action(for: key, on: s.screen) else { return (s, []) }
        if let moved = panes(action, s) { return (moved, []) }
        switch action {
        case .quit:
            // The session this view started runs on in its own process (as `focus start` in
            // another terminal would): quitting does not stop it, but the person is asked first.
            guard s.startedHere, let running = s.data?.session else { return (s, [.quit]) }
            s.confirm = ("\(running.facts(at: s.now).path) is running; it goes on after the view closes (focus stop ends it). Quit?", [])
        case .help: s.showingHelp.toggle()
        case let .show(screen): s.screen = screen; s.showingHelp = false
        case .nextScreen: s.screen = Screen(rawValue: s.screen.rawValue % 5 + 1) ?? .today; s.showingHelp = false
        case .previousScreen: s.screen = Screen(rawValue: (s.screen.rawValue + 3) % 5 + 1) ?? .today; s.showingHelp = false
        case .down: s.move(to: s.selected(s.screen) + 1)
        case .up: s.move(to: s.selected(s.screen) - 1)
        case .top: s.move(to: 0)
        case .bottom: s.move(to: Int.max)
        case .left, .right, .earlier, .later, .open, .back: return stepped(action, s)
        case .start, .pauseOrResume, .stopSession, .skipPhase: return session(action, s)
        case .replan:
            return (s, [.replan, .load(s.request)])
        case .add:
            s.form = TaskForm(path: s.selectedTaskTitle().map { $0 + "/" } ?? "")
        case .command:
            s.commandLine = ""
        case .range:
            s.rangeLine = s.statsRange.map { "\($0.from) to \($0.to)" } ?? ""
        case .edit:
            guard let data = s.data, TasksLayout.rows(data.tasks).indices.contains(s.selected(.tasks)) else { break }
            guard case let .subtask(t, o) = TasksLayout.rows(data.tasks)[s.selected(.tasks)] else {
                s.message = "e edits a subtask; rename a task with :task edit NAME --title NEW."
                break
            }
            s.form = TaskForm(editing: o, path: "\(t.task.title)/\(o.subtask.title)", calendar: s.calendar)
        case .delete:
            guard let data = s.data, TasksLayout.rows(data.tasks).indices.contains(s.selected(.tasks)) else { break }
            switch TasksLayout.rows(data.tasks)[s.selected(.tasks)] {
            case let .task(t):
                if let id = t.task.id { s.confirm = ("Delete the task \(t.task.title) and its subtasks?", ["task", "rm", "#\(id)"]) }
            case let .subtask(t, o):
                if let id = o.subtask.id { s.confirm = ("Delete \(t.task.title)/\(o.subtask.title)?", ["task", "rm", "#\(id)"]) }
            }
        case .done:
            guard let data = s.data, TasksLayout.rows(data.tasks).indices.contains(s.selected(.tasks)) else { break }
            switch TasksLayout.rows(data.tasks)[s.selected(.tasks)] {
            case let .task(t):
                if let id = t.task.id { return (s, [.run(["task", "done", "#\(id)"]), .load(s.request)]) }
            case let .subtask(_, o):
                if let id = o.subtask.id { return (s, [.run(["task", "done", "#\(id)"] + (o.subtask.done ? ["--undo"] : [])), .load(s.request)]) }
            }
        case .search:
            s.searching = true
            s.search = s.search ?? ""
        case .nextField, .previousField, .save, .cancel, .erase, .otherPane:
            break
        case .refresh:
            s.message = "Fetching the calendars…"
            return (s, [.refreshAndSync])
        }
        return (s, [])
    }

    /// A key while the add form is open: its own keys from the key table, any other typed in.
    private static func formKey(_ key: Key, _ state: UIState) -> (UIState, [Effect]) {
        var s = state
        guard var form = s.form, !form.saving else { return (s, []) }
        let count = TaskForm.fields.count
        switch KeyTable.action(for: key, on: s.screen, context: .form) {
        case .nextField?: form.field = (form.field + 1) % count
        case .previousField?: form.field = (form.field + count - 1) % count
        case .erase?: if !form.values[form.field].isEmpty { form.values[form.field].removeLast() }
        case .cancel?:
            s.form = nil
            return (s, [])
        case .save?:
            guard form.editing != nil || !form.values[0].trimmingSpaces().isEmpty else {
                form.error = "Give the work a path first: Thesis adds a task, Thesis/Chapter 4 a subtask."
                s.form = form
                return (s, [])
            }
            form.saving = true
            form.error = nil
            s.form = form
            return (s, [.run(form.arguments)])
        default:
            if case let .char(c) = key { form.values[form.field].append(c) }
        }
        // A changed draft of new work is tried by the planner again (the performer waits for a
        // pause in the typing); its old verdict no longer holds.
        let changed = form.values != s.form?.values && (form.isNewSubtask || form.editing != nil)
        if changed {
            form.verdict = nil
            form.error = nil
        }
        s.form = form
        return (s, changed ? [.preview(form.arguments)] : [])
    }

    /// A key while Stats' range line is typed in: Enter shows the range (two dates, as `stats
    /// --from` and `--to` take them; what they mean is the loader's to say).
    private static func rangeKey(_ key: Key, _ state: UIState) -> (UIState, [Effect]) {
        var s = state
        let text = s.rangeLine ?? ""
        switch KeyTable.action(for: key, on: s.screen, context: .range) {
        case .save?:
            // `FROM TO`, or `FROM to TO` for dates of more than one word ('last mon' to today).
            let parts = text.contains(" to ") ? text.split(separator: " to ") : text.split(separator: " ")
            let words = parts.map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
            guard words.count == 2 else {
                s.message = "Type two dates, FROM TO (2026-11-01 2026-11-15), or FROM to TO (last mon to today)."
                return (s, [])
            }
            s.rangeLine = nil
            s.statsRange = StatsRange(from: words[0], to: words[1])
            s.selection[.stats] = 0
            s.paneCursor[.stats] = nil
            return (s, [.load(s.request)])
        case .cancel?:
            s.rangeLine = nil
        case .erase?:
            if !text.isEmpty { s.rangeLine?.removeLast() }
        default:
            if case let .char(c) = key { s.rangeLine = text + String(c) }
        }
        return (s, [])
    }

    /// A key while the `:` line is typed in: Enter runs it as a focus subcommand.
    private static func commandKey(_ key: Key, _ state: UIState) -> (UIState, [Effect]) {
        var s = state
        let text = s.commandLine ?? ""
        switch KeyTable.action(for: key, on: s.screen, context: .command) {
        case .save?:
            s.commandLine = nil
            guard var words = CommandWords.split(text) else {
                s.message = "A quote is not closed: \(text)"
                return (s, [])
            }
            if words.first == "focus" { words.removeFirst() }
            guard !words.isEmpty else { return (s, []) }
            s.message = "Running focus \(words.joined(separator: " "))…"
            return (s, [.runInBackground(words)])
        case .cancel?:
            s.commandLine = nil
        case .erase?:
            if !text.isEmpty { s.commandLine?.removeLast() }
        default:
            if case let .char(c) = key { s.commandLine = text + String(c) }
        }
        return (s, [])
    }

    /// A key while the search line is typed in: the list follows each character.
    private static func searchKey(_ key: Key, _ state: UIState) -> (UIState, [Effect]) {
        var s = state
        let before = s.request
        switch KeyTable.action(for: key, on: s.screen, context: .search) {
        case .save?:
            s.searching = false
            if s.search?.isEmpty == true { s.search = nil }
        case .cancel?:
            s.searching = false
            s.search = nil
        case .erase?:
            if s.search?.isEmpty == false { s.search?.removeLast() }
        default:
            if case let .char(c) = key { s.search = (s.search ?? "") + String(c) }
        }
        return (s, s.request == before ? [] : [.load(s.request)])
    }

    /// Enter on work, and the Timer's keys: what to ask of `focus start`, `pause`, `resume`, `stop`.
    private static func session(_ action: Action, _ state: UIState) -> (UIState, [Effect]) {
        var s = state
        let running = s.data?.session
        switch action {
        case .start:
            if let running {
                s.message = "\(running.facts(at: s.now).path) is running: stop it first (x on Timer, or focus stop)."
                return (s, [])
            }
            guard let path = s.selectedWork() else {
                s.message = "Select a block, a session or a task to start a session on it."
                return (s, [])
            }
            s.screen = .timer
            s.message = nil
            s.startedHere = true
            return (s, [.startSession(path: path)])
        case .pauseOrResume, .stopSession, .skipPhase:
            guard let running else {
                s.message = "No session is running."
                return (s, [])
            }
            if action == .stopSession { return (s, [.run(["stop"])]) }
            if action == .skipPhase { return (s, [.control(.skip)]) }
            return (s, [.run([running.active.snapshot.isPaused ? "resume" : "pause"])])
        default:
            return (s, [])
        }
    }

    /// h/l and Tab between the panes of Today, Tasks and Stats, and j/k/g/G in the other pane;
    /// nil for any other key.
    private static func panes(_ action: Action, _ state: UIState) -> UIState? {
        var s = state
        switch action {
        case .down, .up, .top, .bottom:
            guard s.otherPane.contains(s.screen) else { return nil }
            s.movePaneCursor(action)
        case .otherPane:
            if s.otherPane.remove(s.screen) == nil { s.otherPane.insert(s.screen) }
        case .left, .right:
            guard s.screen != .week else { return nil }
            // Stats' bars stand above its list: h (the first pane) is the bars there.
            if (action == .right) != (s.screen == .stats) { s.otherPane.insert(s.screen) } else { _ = s.otherPane.remove(s.screen) }
        default:
            return nil
        }
        return s
    }

    /// The keys that change what is loaded: another day, week or window.
    private static func stepped(_ action: Action, _ state: UIState) -> (UIState, [Effect]) {
        var s = state
        let before = s.request
        switch (s.screen, action) {
        case (.week, .left), (.week, .right):
            let day = s.weekStart.adding(days: s.weekDay + (action == .left ? -1 : 1))
            s.weekStart = UIState.monday(of: day)
            s.weekDay = day.dayNumber - s.weekStart.dayNumber
        case (.week, .earlier), (.week, .later):
            s.weekStart = s.weekStart.adding(days: action == .earlier ? -7 : 7)
        case (.week, .open):
            s.day = s.weekStart.adding(days: s.weekDay)
            s.screen = .today
            s.selection[.today] = 0
            s.selectedKey[.today] = nil
        case (.stats, .open):
            // The selected task's stats alone, as `stats --task` shows them; inside, Esc goes back.
            guard let data = s.data, data.stats.taskFilter == nil else {
                s.message = "Esc goes back to all tasks."
                break
            }
            let tasks = StatsLayout.shares(data.stats)
            guard tasks.indices.contains(s.selected(.stats)) else { break }
            s.statsTask = tasks[s.selected(.stats)].task
            s.resetStatsList()
        case (.stats, .back):
            guard s.statsTask != nil else { break }
            s.statsTask = nil
            s.resetStatsList()
        case (.today, .earlier), (.today, .later):
            s.day = s.day.adding(days: action == .earlier ? -1 : 1)
            s.selection[.today] = 0
            s.selectedKey[.today] = nil
        case (.stats, .earlier), (.stats, .later):
            // From a typed range, `[ ]` go back to the last 7, 14 or 30 days.
            s.paneCursor[.stats] = nil
            if s.statsRange != nil {
                s.statsRange = nil
                break
            }
            let index = statsWindows.firstIndex(of: s.statsDays) ?? 0
            s.statsDays = statsWindows[max(0, min(statsWindows.count - 1, index + (action == .earlier ? -1 : 1)))]
        default:
            break
        }
        return (s, s.request == before ? [] : [.load(s.request)])
    }
}

extension UIState {
    /// The keys of the rows a screen's list selects among.
    package func itemKeys(_ screen: Screen) -> [String] {
        guard let data else { return [] }
        switch screen {
        case .today: return TodayLayout.items(data.day).map(\.key)
        case .tasks: return TasksLayout.rows(data.tasks).map(\.key)
        case .stats: return StatsLayout.shares(data.stats).map(\.task)
        case .week, .timer: return []
        }
    }

    /// The work the selected row stands for, as `focus start` names it (`#ID`): a block's or a
    /// session's subtask (or task), a subtask or a task of the tree; nil for busy time.
    func selectedWork() -> String? {
        guard let data else { return nil }
        switch screen {
        case .today:
            let items = TodayLayout.items(data.day)
            guard items.indices.contains(selected(.today)) else { return nil }
            switch items[selected(.today)] {
            case let .block(b): return "#\(b.subtaskID)"
            case let .session(e): return "#\(e.log.subtaskID ?? e.log.taskID)"
            case .event: return nil
            }
        case .tasks:
            let rows = TasksLayout.rows(data.tasks)
            guard rows.indices.contains(selected(.tasks)) else { return nil }
            switch rows[selected(.tasks)] {
            case let .task(t): return t.task.id.map { "#\($0)" }
            case let .subtask(_, o): return o.subtask.id.map { "#\($0)" }
            }
        case .week, .timer, .stats:
            return nil
        }
    }

    /// The title of the task of the selected row on Tasks (the add form starts from it).
    func selectedTaskTitle() -> String? {
        guard screen == .tasks, let data else { return nil }
        let rows = TasksLayout.rows(data.tasks)
        guard rows.indices.contains(selected(.tasks)) else { return nil }
        switch rows[selected(.tasks)] {
        case let .task(t), let .subtask(t, _): return t.task.title
        }
    }

    /// j/k/g/G in the other pane: the details scroll (Today, Tasks), the bars' day moves (Stats).
    mutating func movePaneCursor(_ action: Action) {
        let count = paneLength
        guard count > 0 else { return }
        let now = min(paneCursor[screen] ?? (screen == .stats ? count - 1 : 0), count - 1)
        let next = switch action {
        case .down: now + 1
        case .up: now - 1
        case .top: 0
        default: count - 1
        }
        paneCursor[screen] = max(0, min(count - 1, next))
    }

    /// How many places the other pane's cursor has.
    private var paneLength: Int {
        guard let data else { return 0 }
        switch screen {
        case .today: return TodayLayout.detailLines(self, data).count
        case .tasks: return TasksLayout.detailLines(self, data).count
        case .stats: return data.stats.days.count
        default: return 0
        }
    }

    /// Selects row `index` (clamped to the list) on the current screen; the details of another
    /// row start at their top.
    mutating func move(to index: Int) {
        let keys = itemKeys(screen)
        guard !keys.isEmpty else { return }
        if screen != .stats { paneCursor[screen] = nil }
        let clamped = max(0, min(keys.count - 1, index))
        selection[screen] = clamped
        selectedKey[screen] = keys[clamped]
    }

    /// Another list on Stats (a task drilled into, or all tasks again): its first row, the last day.
    mutating func resetStatsList() {
        selection[.stats] = 0
        selectedKey[.stats] = nil
        paneCursor[.stats] = nil
    }

    /// After a reload: the same item as before where it still is, else the same row.
    mutating func keepSelection(on screen: Screen) {
        let keys = itemKeys(screen)
        if let key = selectedKey[screen], let index = keys.firstIndex(of: key) {
            selection[screen] = index
        } else if !keys.isEmpty {
            let index = max(0, min(keys.count - 1, selected(screen)))
            selection[screen] = index
            selectedKey[screen] = keys[index]
        } else {
            selection[screen] = 0
        }
    }
}
