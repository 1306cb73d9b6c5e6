import FocusCore
import FocusText
import FoundationEssentials

/// The live countdown view: three lines, fitted to the width, redrawn in place. Pure.
package struct CountdownRenderer: Sendable {
    /// The task or subtask counted down: text from the database, so the renderer takes it only
    /// made safe.
    package var path: DisplayText
    /// The width the layout is made for (at least 20 columns).
    package var width: Int
    /// The terminal's real width: no line drawn is wider, however narrow the terminal.
    package var columns: Int
    package var color: Bool

    package init(path: DisplayText, width: Int, color: Bool) {
        self.path = path
        self.width = max(20, width)
        self.columns = max(1, width)
        self.color = color
    }

    /// The escape sequence that takes the cursor back to the top of a block drawn earlier and
    /// clears from there down. `drawnWidths` are the display widths of its lines as drawn; at
    /// the terminal's width now (it may have been narrowed since), each takes
    /// ⌈width ÷ columns⌉ rows once the terminal has re-wrapped it, so the cursor climbs all of
    /// them and no fragment of the old frame stays on screen.
    package static func clearSequence(drawnWidths: [Int], columns: Int) -> DisplayText {
        guard !drawnWidths.isEmpty else { return "" }
        let columns = max(1, columns)
        let rows = drawnWidths.reduce(0) { $0 + max(1, ($1 + columns - 1) / columns) }
        // Cursor up (CUU) and erase in display (ED), ECMA-48: the view's own escapes.
        return rows > 1 ? "\r\u{1B}[\(rows - 1)A\u{1B}[J" : "\r\u{1B}[J"
    }

    /// `s` cut to `n` display columns; colour escapes are kept whole and take no room, and a cut
    /// line ends by resetting the style.
    package static func fit(_ s: String, _ n: Int) -> String {
        guard TerminalText.displayWidth(s) > n else { return s }
        var out = ""
        var used = 0
        var inEscape = false
        for c in s {
            if inEscape { out.append(c); if c == "m" { inEscape = false }; continue }
            if c == "\u{1B}" { out.append(c); inEscape = true; continue }
            let w = TerminalText.width(of: c)
            if used + w > n { break }
            out.append(c)
            used += w
        }
        return out.contains("\u{1B}") ? out + "\u{1B}[0m" : out
    }

    private func style(_ style: StyledLine.Style, _ s: DisplayText) -> String { style.apply(s, color: color).string }

    /// The view's lines for a snapshot; `todaySeconds` is today's focus including this session
    /// so far. Made of the path (`DisplayText`) and the view's own text and colours.
    /// `awayStopAt` is the away question's stop time as the person reads it (`13:05`), while the
    /// question waits: the key line then says what the keys mean for it.
    package func lines(_ snap: SessionSnapshot, todaySeconds: Int, awayStopAt: String? = nil) -> [DisplayText] {
        layout(snap, todaySeconds: todaySeconds, awayStopAt: awayStopAt).map(DisplayText.init(trusted:))
    }

    /// The key line: while the away question waits, its answers (README, "Away from the screen").
    private func keys(_ snap: SessionSnapshot, awayStopAt: String?) -> String {
        if let awayStopAt { return "k keep · d discard · s stop at \(awayStopAt) · q stop now" }
        if snap.isOpen { return snap.isPaused ? "space resume · q stop" : "space pause · q stop" }
        return snap.isPaused ? "space resume · s skip · q stop" : "space pause · s skip · q stop"
    }

    private func layout(_ snap: SessionSnapshot, todaySeconds: Int, awayStopAt: String?) -> [String] {
        let phaseName: String
        let phaseColor: StyledLine.Style
        switch snap.phase {
        case .work: (phaseName, phaseColor) = ("WORK", .boldRed)
        case .shortBreak: (phaseName, phaseColor) = ("BREAK", .boldGreen)
        case .longBreak: (phaseName, phaseColor) = ("LONG BREAK", .boldCyan)
        }
        let state = snap.isPaused ? " " + style(.boldYellow, "PAUSED") : ""
        // Line 1: phase, path, cycle (an open session has no cycles: it counts up).
        let headLeft = style(phaseColor, "● \(phaseName)") + state + "  "
        let headRight = snap.isOpen ? "  open" : "  cycle \(snap.cycle)/\(snap.cycles)"
        let pathRoom = width - TerminalText.displayWidth(headLeft) - TerminalText.displayWidth(headRight)
        let line1 = headLeft + (pathRoom >= 4 ? TerminalText.pad(TerminalText.truncate(path.string, pathRoom), pathRoom) + headRight : TerminalText.truncate(path.string, max(1, width - TerminalText.displayWidth(headLeft))))

        let keys = keys(snap, awayStopAt: awayStopAt)
        if snap.isOpen { return openLines(snap, line1: line1, todaySeconds: todaySeconds, keys: keys) }
        // Line 2: the clock face, a progress bar, percent and today's total.
        let clock = style(.bold, DisplayText(DurationParser.clock(snap.remainingSeconds)))
        let planned = max(1, snap.plannedSeconds)
        let done = min(1, max(0, 1 - snap.remaining.seconds / Double(planned)))
        let percent = " \(Int((done * 100).rounded(.down)))%"
        let today = "  today " + DurationParser.format(todaySeconds)
        var barRoom = width - TerminalText.displayWidth(clock) - 2 - TerminalText.displayWidth(percent) - TerminalText.displayWidth(today) - 2
        var line2: String
        if barRoom < 6 {
            barRoom = max(0, width - TerminalText.displayWidth(clock) - 2 - TerminalText.displayWidth(percent))
            line2 = barRoom >= 6 ? clock + "  " + bar(done, barRoom) + percent : clock + percent
        } else {
            line2 = clock + "  " + bar(done, barRoom) + percent + today
        }
        // Line 3: keys.
        let line3 = style(.dim, DisplayText(TerminalText.truncate(keys, width)))
        let fitted = [line1, "  " + line2, "  " + line3].map { TerminalText.displayWidth($0) > width ? TerminalText.truncate($0, width) : $0 }
        // A terminal narrower than the layout's minimum still gets lines that fit it.
        return columns < width ? fitted.map { CountdownRenderer.fit($0, columns) } : fitted
    }

    /// An open session: the time so far (no bar: there is no end to measure against).
    private func openLines(_ snap: SessionSnapshot, line1: String, todaySeconds: Int, keys: String) -> [String] {
        let line2 = style(.bold, DisplayText(DurationParser.clock(snap.focusedSeconds))) + " so far  today " + DurationParser.format(todaySeconds)
        let fitted = [line1, "  " + line2, "  " + style(.dim, DisplayText(TerminalText.truncate(keys, width)))]
            .map { TerminalText.displayWidth($0) > width ? TerminalText.truncate($0, width) : $0 }
        return columns < width ? fitted.map { CountdownRenderer.fit($0, columns) } : fitted
    }

    private func bar(_ fraction: Double, _ n: Int) -> String {
        let filled = Int((fraction * Double(n)).rounded(.down))
        return style(.green, DisplayText(String(repeating: "█", count: filled))) + style(.dim, DisplayText(String(repeating: "░", count: max(0, n - filled))))
    }
}
