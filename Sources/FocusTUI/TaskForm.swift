import FocusCore
import FocusRendering
import FocusText

/// What the planner's dry run says of the add form's draft (`AppDatabase.previewAddSubtask`):
/// whether it fits, in the planner's own sentence when it does not, and the blocks it would move.
package struct FormVerdict: Equatable, Sendable {
    /// nil when there is nothing to plan yet (no estimate or due date).
    package var fits: Bool?
    package var sentence: String
    package var moves: [String]

    package init(fits: Bool?, sentence: String, moves: [String] = []) {
        self.fits = fits
        self.sentence = sentence
        self.moves = moves
    }
}

/// The add form (`a` on Tasks): the fields of `focus task add`, in its order. Saving runs that
/// command, so the planner's refusal ("does not fit …") is its own, shown in place.
package struct TaskForm: Equatable, Sendable {
    /// Each field's label and the `task add` option it fills (nil: the path argument).
    package static let fields: [(label: String, option: String?)] = [
        ("Path", nil), ("Estimate", "--estimate"), ("Due", "--due"), ("Start", "--start"), ("Span", "--span"),
        ("Earliest", "--earliest"), ("Priority", "--priority"), ("Notes", "--notes"),
    ]

    package var values: [String]
    /// The subtask edited (`e`): its values as they were, so only what changed is sent.
    package var editing: Int64?
    package var original: [String] = []
    /// The path of what is edited, for the form's title.
    package var editedPath = ""
    package var field = 0
    /// Saving: the command runs; its answer closes the form or is shown in it.
    package var saving = false
    /// What `task add` said when it refused: the draft stays for the next try.
    package var error: String?
    /// The dry run's verdict on the draft as it is now (nil while it is typed).
    package var verdict: FormVerdict?

    package init(path: String = "") {
        values = Array(repeating: "", count: TaskForm.fields.count)
        values[0] = path
    }

    /// The edit form of a subtask: its title and constraints as `task edit` reads them.
    package init(editing o: SubtaskOverview, path: String, calendar: LocalCalendar) {
        let sub = o.subtask
        let due = sub.due.map { "\(calendar.day(of: $0)) \(calendar.timeOfDay(of: $0))" } ?? ""
        values = [sub.title, sub.estimateSeconds.map(DurationParser.format) ?? "", due, sub.startDate?.description ?? "",
                  sub.spanSeconds.map(DurationParser.format) ?? "", sub.earliest?.description ?? "", sub.priority.name, sub.notes ?? ""]
        original = values
        editing = sub.id
        editedPath = path
    }

    package static func == (a: TaskForm, b: TaskForm) -> Bool {
        a.values == b.values && a.field == b.field && a.saving == b.saving && a.error == b.error && a.editing == b.editing && a.verdict == b.verdict
    }

    /// New work named as a subtask (`Task/Subtask`): what the planner places, so what its dry run
    /// has a verdict on.
    package var isNewSubtask: Bool {
        guard editing == nil, let slash = values[0].firstIndex(of: "/") else { return false }
        return !values[0][values[0].index(after: slash)...].trimmingSpaces().isEmpty
    }

    /// `task add PATH --estimate 2h …` with the fields filled in, or `task edit #ID` with the
    /// fields changed (`none` for one emptied), each value one argument, never read by a shell.
    package var arguments: [String] {
        if let editing {
            var out = ["task", "edit", "#\(editing)"]
            for (index, entry) in TaskForm.fields.enumerated() where values[index] != original[index] {
                let value = values[index].trimmingSpaces()
                out += [entry.option ?? "--title", value.isEmpty && index > 0 ? "none" : value]
            }
            return out
        }
        var out = ["task", "add", values[0].trimmingSpaces()]
        for (index, entry) in TaskForm.fields.enumerated() {
            guard let option = entry.option else { continue }
            let value = values[index].trimmingSpaces()
            if !value.isEmpty { out += [option, value] }
        }
        return out
    }

    /// The form as the body of the frame.
    func lines(width: Int) -> [StyledLine] {
        var lines = [editing == nil ? StyledLine("Add work (as focus task add: Thesis adds a task, Thesis/Chapter 4 a subtask)", .bold)
                                    : StyledLine("Edit \(shown: editedPath, columns: 60) (as focus task edit; empty a field to clear it)", .bold),
                     StyledLine()]
        for (index, entry) in TaskForm.fields.enumerated() {
            let current = index == field
            var line = StyledLine(current ? "▶ " : "  ", .boldCyan)
            line.add(DisplayText(index == 0 && editing != nil ? "Title" : entry.label).paddedRight(10), current ? .boldCyan : .plain)
            line.add("\(shown: values[index], columns: max(10, width - 14))")
            if current { line.add("▏", .boldCyan) }
            lines.append(line)
        }
        lines.append(StyledLine())
        if saving { lines.append(StyledLine("Saving…", .dim)) }
        if let verdict, error == nil, !saving {
            let style: StyledLine.Style = verdict.fits == true ? .green : verdict.fits == false ? .boldRed : .dim
            lines += Cells.wrap(verdict.sentence, width: width, style: style)
            lines += verdict.moves.map { StyledLine("  · \(shown: $0, columns: max(10, width - 4))") }
        }
        if let error { lines += Cells.wrap(error, width: width, style: .boldRed) }
        return lines
    }
}
