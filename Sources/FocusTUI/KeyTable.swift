import FocusRendering
import FocusText

/// What a key asks the view to do.
package enum Action: Hashable, Sendable {
    case show(Screen)
    case nextScreen, previousScreen
    case down, up, top, bottom
    /// h/l: the day before or after (Week); the left or right pane (Today, Tasks, Stats).
    case left, right
    /// Tab on a screen with two panes: the other pane.
    case otherPane
    /// `[` `]`: the previous or next day (Today), week (Week) or window (Stats).
    case earlier, later
    case open
    /// Esc or Backspace on Stats: from one task's stats back to all tasks.
    case back
    /// Enter on work: a session on it, as `focus start` runs one.
    case start
    /// The running session (whichever process runs it), as `focus pause`/`resume` and `focus stop` do.
    case pauseOrResume, stopSession
    /// `s` on Timer: the running session skips to its next phase, as `s` in `focus start` does.
    case skipPhase
    /// `p`: plan again, as `focus plan` does; `R`: fetch the calendars again (`focus calendar refresh`).
    case replan, refresh
    case help
    case quit
    /// `a` on Tasks: the add form; in it, the form's own keys.
    case add
    case nextField, previousField, save, cancel, erase
    /// `/` on Tasks: a search of titles and notes, as `focus task list --search`.
    case search
    /// `:`: a focus subcommand typed and run inside the view.
    case command
    /// `r` on Stats: a range typed as `stats --from/--to` take it.
    case range
    /// `d` on Tasks: the selected subtask done (or open again), the task archived, as `focus task done`.
    case done
    /// `e` on Tasks: the selected subtask in a form, saved by `focus task edit`.
    case edit
    /// `D` on Tasks: delete the selected row, once confirmed, as `focus task rm` (which keeps
    /// work with history unless told otherwise).
    case delete
}

/// Where keys go: the screen's keys, the add form's, or the search line's (the last two take
/// every other key as text).
package enum KeyContext: Sendable {
    case screen, form, search, command, confirm, range
}

/// Keys that do one thing, with the label and words the key line and the help show.
package struct KeyBinding: Sendable {
    package var label: String
    /// The words of the key line (`move`).
    package var short: String
    /// The words of the help (`move down, up (or the arrow keys)`).
    package var help: String
    package var keys: [(Key, Action)]
    /// The screens where the keys work; nil: everywhere.
    package var screens: [Screen]?
    /// Whether the bottom key line shows it (the help shows every binding).
    package var inKeyLine: Bool
    /// The keys' context: the screens (then `screens` says which), the add form or the search line.
    package var context: KeyContext = .screen

    func works(on screen: Screen, _ context: KeyContext) -> Bool {
        self.context == context && (context != .screen || (screens?.contains(screen) ?? true))
    }
}

/// The one key table of the view: what each key does, the bottom key line and the `?` help
/// are all read from it, so no key is documented that does not work.
package enum KeyTable {
    package static let bindings: [KeyBinding] = [
        KeyBinding(label: "1-5", short: "screens", help: "Today, Week, Tasks, Timer, Stats",
                   keys: Screen.allCases.map { (.char(Character(String($0.rawValue))), .show($0)) }, screens: nil, inKeyLine: false),
        KeyBinding(label: "Tab", short: "next screen", help: "next screen (Shift-Tab: previous)", keys: [(.tab, .nextScreen), (.backTab, .previousScreen)],
                   screens: [.week, .timer], inKeyLine: false),
        KeyBinding(label: "Tab", short: "pane", help: "the other pane (Shift-Tab too); j/k then move in it", keys: [(.tab, .otherPane), (.backTab, .otherPane)],
                   screens: [.today, .tasks, .stats], inKeyLine: false),
        KeyBinding(label: "h/l", short: "panes", help: "the list, the details (or ← →); j/k then scroll the details",
                   keys: [(.char("h"), .left), (.left, .left), (.char("l"), .right), (.right, .right)],
                   screens: [.today, .tasks], inKeyLine: true),
        KeyBinding(label: "h/l", short: "panes", help: "the bars (j/k pick a day), the task list (or ← →)",
                   keys: [(.char("h"), .left), (.left, .left), (.char("l"), .right), (.right, .right)],
                   screens: [.stats], inKeyLine: false),
        KeyBinding(label: "j/k", short: "move", help: "move down, up (or the arrow keys)",
                   keys: [(.char("j"), .down), (.down, .down), (.char("k"), .up), (.up, .up)],
                   screens: [.today, .tasks, .stats], inKeyLine: true),
        KeyBinding(label: "g/G", short: "first/last", help: "first, last", keys: [(.char("g"), .top), (.home, .top), (.char("G"), .bottom), (.end, .bottom)],
                   screens: [.today, .tasks, .stats], inKeyLine: false),
        KeyBinding(label: "h/l", short: "day", help: "day before, day after (or ← →, j/k)",
                   keys: [(.char("h"), .left), (.left, .left), (.char("k"), .left), (.up, .left),
                          (.char("l"), .right), (.right, .right), (.char("j"), .right), (.down, .right)],
                   screens: [.week], inKeyLine: true),
        KeyBinding(label: "[ ]", short: "day", help: "day before, day after", keys: [(.char("["), .earlier), (.char("]"), .later)],
                   screens: [.today], inKeyLine: true),
        KeyBinding(label: "[ ]", short: "week", help: "week before, week after", keys: [(.char("["), .earlier), (.char("]"), .later)],
                   screens: [.week], inKeyLine: true),
        KeyBinding(label: "[ ]", short: "7/14/30 days", help: "7, 14 or 30 days", keys: [(.char("["), .earlier), (.char("]"), .later)],
                   screens: [.stats], inKeyLine: true),
        KeyBinding(label: "r", short: "range", help: "a range of days as stats --from/--to read them: FROM TO (2026-11-01 2026-11-15) or FROM to TO (last mon to today)",
                   keys: [(.char("r"), .range)], screens: [.stats], inKeyLine: true),
        KeyBinding(label: "Enter", short: "show", help: "show the range", keys: [(.enter, .save)], screens: nil, inKeyLine: true, context: .range),
        KeyBinding(label: "Esc", short: "cancel", help: "close the range line", keys: [(.escape, .cancel)], screens: nil, inKeyLine: true,
                   context: .range),
        KeyBinding(label: "Backspace", short: "erase", help: "erase the last character", keys: [(.backspace, .erase)], screens: nil, inKeyLine: false,
                   context: .range),
        KeyBinding(label: "Enter", short: "open day", help: "open the day", keys: [(.enter, .open)], screens: [.week], inKeyLine: true),
        KeyBinding(label: "Enter", short: "task", help: "the selected task's stats alone: its days, its subtasks (as stats --task)",
                   keys: [(.enter, .open)], screens: [.stats], inKeyLine: true),
        KeyBinding(label: "Esc", short: "all tasks", help: "from a task's stats back to all tasks (Backspace too)",
                   keys: [(.escape, .back), (.backspace, .back)], screens: [.stats], inKeyLine: false),
        KeyBinding(label: "Enter", short: "start", help: "start a session on the selected work (as focus start)", keys: [(.enter, .start)],
                   screens: [.today, .tasks], inKeyLine: true),
        KeyBinding(label: "space/p", short: "pause", help: "pause or resume the running session", keys: [(.char(" "), .pauseOrResume), (.char("p"), .pauseOrResume)],
                   screens: [.timer], inKeyLine: true),
        KeyBinding(label: "s", short: "skip", help: "skip to the session's next phase (as s in focus start)", keys: [(.char("s"), .skipPhase)],
                   screens: [.timer], inKeyLine: true),
        KeyBinding(label: "x", short: "stop session", help: "stop the running session (as focus stop)", keys: [(.char("x"), .stopSession)],
                   screens: [.timer], inKeyLine: true),
        KeyBinding(label: "a", short: "add", help: "add a task or subtask (a form with the fields of focus task add)", keys: [(.char("a"), .add)],
                   screens: [.tasks], inKeyLine: true),
        KeyBinding(label: "Tab", short: "next field", help: "next field (Shift-Tab: previous)", keys: [(.tab, .nextField), (.backTab, .previousField)],
                   screens: nil, inKeyLine: true, context: .form),
        KeyBinding(label: "Enter", short: "save", help: "save (runs focus task add; a refusal is shown in the form)", keys: [(.enter, .save)],
                   screens: nil, inKeyLine: true, context: .form),
        KeyBinding(label: "Esc", short: "cancel", help: "close the form without saving", keys: [(.escape, .cancel)], screens: nil, inKeyLine: true, context: .form),
        KeyBinding(label: "Backspace", short: "erase", help: "erase the last character", keys: [(.backspace, .erase)], screens: nil, inKeyLine: false, context: .form),
        KeyBinding(label: "e", short: "edit", help: "edit the selected subtask in a form (saved by focus task edit)", keys: [(.char("e"), .edit)],
                   screens: [.tasks], inKeyLine: true),
        KeyBinding(label: "d", short: "done", help: "mark the subtask done, or open again; archive the task (as focus task done)",
                   keys: [(.char("d"), .done)], screens: [.tasks], inKeyLine: true),
        KeyBinding(label: "D", short: "delete", help: "delete the selected task or subtask, once confirmed (as focus task rm)",
                   keys: [(.char("D"), .delete)], screens: [.tasks], inKeyLine: false),
        KeyBinding(label: "y", short: "yes", help: "yes", keys: [(.char("y"), .save), (.char("Y"), .save)], screens: nil, inKeyLine: true,
                   context: .confirm),
        KeyBinding(label: "n", short: "no", help: "no (any other key too)", keys: [(.char("n"), .cancel), (.escape, .cancel)], screens: nil,
                   inKeyLine: true, context: .confirm),
        KeyBinding(label: "/", short: "search", help: "show only work whose title or notes hold the text typed (as task list --search)",
                   keys: [(.char("/"), .search)], screens: [.tasks], inKeyLine: true),
        KeyBinding(label: "Enter", short: "keep", help: "keep the search and go back to the list", keys: [(.enter, .save)],
                   screens: nil, inKeyLine: true, context: .search),
        KeyBinding(label: "Esc", short: "clear", help: "clear the search", keys: [(.escape, .cancel)], screens: nil, inKeyLine: true, context: .search),
        KeyBinding(label: "Backspace", short: "erase", help: "erase the last character", keys: [(.backspace, .erase)], screens: nil, inKeyLine: false,
                   context: .search),
        KeyBinding(label: ":", short: "command", help: "run a focus subcommand here (:task done Thesis/Chapter 2)", keys: [(.char(":"), .command)],
                   screens: nil, inKeyLine: false),
        KeyBinding(label: "Enter", short: "run", help: "run the subcommand; its first line is shown", keys: [(.enter, .save)],
                   screens: nil, inKeyLine: true, context: .command),
        KeyBinding(label: "Esc", short: "cancel", help: "close the command line", keys: [(.escape, .cancel)], screens: nil, inKeyLine: true,
                   context: .command),
        KeyBinding(label: "Backspace", short: "erase", help: "erase the last character", keys: [(.backspace, .erase)], screens: nil, inKeyLine: false,
                   context: .command),
        KeyBinding(label: "p", short: "re-plan", help: "plan again (as focus plan)", keys: [(.char("p"), .replan)],
                   screens: [.today, .week, .tasks, .stats], inKeyLine: false),
        KeyBinding(label: "R", short: "refresh", help: "fetch subscribed and connected calendars again, then sync (as focus calendar refresh; focus sync)",
                   keys: [(.char("R"), .refresh)], screens: nil, inKeyLine: false),
        KeyBinding(label: "?", short: "help", help: "this help (Esc closes it)", keys: [(.char("?"), .help)], screens: nil, inKeyLine: true),
        KeyBinding(label: "q", short: "quit", help: "quit (Ctrl-C too); asks first while a session started here runs", keys: [(.char("q"), .quit)], screens: nil, inKeyLine: true),
    ]

    /// What `key` does on `screen` in `context`, if anything.
    package static func action(for key: Key, on screen: Screen, context: KeyContext = .screen) -> Action? {
        for binding in bindings where binding.works(on: screen, context) {
            if let pair = binding.keys.first(where: { $0.0 == key }) { return pair.1 }
        }
        return nil
    }

    /// The bottom line: `j/k move  [ ] day  ? help  q quit`, the keys bold. In `width`
    /// columns: the help and quit keys always, the others in the table's order while they fit.
    package static func keyLine(for screen: Screen, context: KeyContext = .screen, width: Int = .max) -> StyledLine {
        let shown = bindings.filter { $0.inKeyLine && $0.works(on: screen, context) }
        let kept = shown.filter { $0.keys.contains { $0.1 == .help || $0.1 == .quit } }
        var others = shown.filter { binding in !kept.contains { $0.label == binding.label } }
        func columns(_ list: [KeyBinding]) -> Int { list.reduce(0) { $0 + TerminalText.width($1.label + " " + $1.short) + 2 } - 2 }
        while !others.isEmpty, columns(others + kept) > width { others.removeLast() }
        var line = StyledLine()
        for binding in others + kept {
            if !line.runs.isEmpty { line.add("  ") }
            line.add(DisplayText(binding.label), .bold)
            line.add(" \(binding.short)", .dim)
        }
        return line
    }

    /// The help's lines: every binding that works on `screen`, label then words.
    package static func helpLines(for screen: Screen) -> [StyledLine] {
        bindings.filter { $0.works(on: screen, .screen) }.map { binding in
            var line = StyledLine("  ")
            line.add(DisplayText(binding.label).paddedRight(8), .bold)
            line.add(DisplayText(binding.help))
            return line
        }
    }
}
