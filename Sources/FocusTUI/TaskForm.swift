import FocusRendering
import FocusText

/// The add form (`a` on Tasks): the fields of `focus task add`, in its order. Saving runs that
/// command, so the planner's refusal ("does not fit …") is its own, shown in place.
package struct TaskForm: Equatable, Sendable {
    /// Each field's label and the `task add` option it fills (nil: the path argument).
    package static let fields: [(label: String, option: String?)] = [
        ("Path", nil), ("Estimate", "--estimate"), ("Due", "--due"), ("Start", "--start"), ("Span", "--span"),
        ("Earliest", "--earliest"), ("Priority", "--priority"), ("Notes", "--notes"),
    ]

    package var values: [String]
    package var field = 0
    /// Saving: the command runs; its answer closes the form or is shown in it.
    package var saving = false
    /// What `task add` said when it refused: the draft stays for the next try.
    package var error: String?

    package init(path: String = "") {
        values = Array(repeating: "", count: TaskForm.fields.count)
        values[0] = path
    }

    package static func == (a: TaskForm, b: TaskForm) -> Bool {
        a.values == b.values && a.field == b.field && a.saving == b.saving && a.error == b.error
    }

    /// `task add PATH --estimate 2h …` with the fields filled in (each value one argument, never
    /// split or read by a shell).
    package var arguments: [String] {
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
        var lines = [StyledLine("Add work (as focus task add: Thesis adds a task, Thesis/Chapter 4 a subtask)", .bold), StyledLine()]
        for (index, entry) in TaskForm.fields.enumerated() {
            let current = index == field
            var line = StyledLine(current ? "▶ " : "  ", .boldCyan)
            line.add(DisplayText(entry.label).paddedRight(10), current ? .boldCyan : .plain)
            line.add("\(shown: values[index], columns: max(10, width - 14))")
            if current { line.add("▏", .boldCyan) }
            lines.append(line)
        }
        lines.append(StyledLine())
        if saving { lines.append(StyledLine("Saving…", .dim)) }
        if let error { lines += Cells.wrap(error, width: width, style: .boldRed) }
        return lines
    }
}
