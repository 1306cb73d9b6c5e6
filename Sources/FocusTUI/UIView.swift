import FocusCore
import FocusRendering
import FocusText
import FoundationEssentials

/// The frame of a state: the top bar, a line about the screen (or the running session), the
/// screen's body, a message line and the key line.
package enum UIView {
    /// The smallest terminal the view draws in.
    package static let minimumWidth = 60
    package static let minimumHeight = 16

    package static func frame(_ s: UIState) -> Frame {
        guard s.width >= minimumWidth, s.height >= minimumHeight else {
            let ask = "focus ui needs at least \(minimumWidth)×\(minimumHeight); this terminal is \(s.width)×\(s.height). Make it larger, or press q."
            return Frame(width: s.width, height: s.height, rows: [StyledLine(DisplayText(ask))])
        }
        let bodyHeight = s.height - 4
        var rows = [topBar(s)]
        if let data = s.data {
            rows.append(subtitle(s, data))
            rows += Array(body(s, data, height: bodyHeight).prefix(bodyHeight))
        } else {
            rows.append(StyledLine("Reading…", .dim))
        }
        if s.showingHelp { rows = Array(rows.prefix(2)) + help(s) }
        if let form = s.form { rows = Array(rows.prefix(2)) + form.lines(width: s.width) }
        while rows.count < s.height - 2 { rows.append(StyledLine()) }
        rows = Array(rows.prefix(s.height - 2))
        if let confirm = s.confirm {
            var line = StyledLine("\(shown: confirm.question) ", .boldYellow)
            line.add("[y/N]", .bold)
            rows.append(line)
        } else if let range = s.rangeLine {
            var line = StyledLine("From To: ", .boldCyan)
            line.add("\(shown: range)")
            line.add("▏", .boldCyan)
            rows.append(line)
        } else if let command = s.commandLine {
            var line = StyledLine(":", .boldCyan)
            line.add("\(shown: command)")
            line.add("▏", .boldCyan)
            rows.append(line)
        } else {
            rows.append(s.message.map { StyledLine(DisplayText($0), .boldYellow) } ?? StyledLine())
        }
        rows.append(KeyTable.keyLine(for: s.screen, context: s.keyContext, width: s.width))
        return Frame(width: s.width, height: s.height, rows: rows)
    }

    /// `[1 Today]  2 Week  3 Tasks  4 Timer  5 Stats`, the clock at the right.
    static func topBar(_ s: UIState) -> StyledLine {
        var line = StyledLine()
        var used = 0
        for screen in Screen.allCases {
            let current = screen == s.screen
            let text = current ? "[\(screen.rawValue) \(screen.title)]" : " \(screen.rawValue) \(screen.title) "
            line.add(DisplayText(text), current ? .boldCyan : .plain)
            line.add(" ")
            used += TerminalText.width(text) + 1
        }
        let clock = Cells.time(s.now, s.calendar)
        line.add(.spaces(s.width - used - clock.count))
        line.add(DisplayText(clock), .bold)
        return line
    }

    /// The running session as a strip on every screen, else the screen's own line.
    static func subtitle(_ s: UIState, _ data: UIData) -> StyledLine {
        if let session = data.session, s.screen != .timer {
            let facts = session.facts(at: s.now)
            var line = StyledLine(DisplayText(trusted: "● \(facts.phase.label.uppercased())\(facts.isPaused ? " PAUSED" : "") "),
                                  facts.phase == .work ? .boldRed : .boldGreen)
            line.add("\(shown: facts.path) · \(facts.clockText)")
            return line
        }
        switch s.screen {
        case .today: return TodayLayout.subtitle(s, data)
        case .week: return WeekLayout.subtitle(s, data)
        case .tasks: return TasksLayout.subtitle(s, data)
        case .timer: return TimerLayout.subtitle(s, data)
        case .stats: return StatsLayout.subtitle(s, data)
        }
    }

    static func body(_ s: UIState, _ data: UIData, height: Int) -> [StyledLine] {
        switch s.screen {
        case .today: TodayLayout.body(s, data, width: s.width, height: height)
        case .week: WeekLayout.body(s, data, width: s.width, height: height)
        case .tasks: TasksLayout.body(s, data, width: s.width, height: height)
        case .timer: TimerLayout.body(s, data, width: s.width, height: height)
        case .stats: StatsLayout.body(s, data, width: s.width, height: height)
        }
    }

    /// The keys that work on this screen, from the key table.
    static func help(_ s: UIState) -> [StyledLine] {
        [StyledLine("Keys on \(s.screen.title)", .bold), StyledLine()] + KeyTable.helpLines(for: s.screen)
    }
}
