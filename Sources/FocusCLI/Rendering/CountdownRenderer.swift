import FocusCore
import Foundation

/// The live countdown view: three lines, fitted to the width, redrawn in place. Pure.
package struct CountdownRenderer: Sendable {
    package var path: String
    package var width: Int
    package var color: Bool

    package init(path: String, width: Int, color: Bool) {
        self.path = Sanitized.terminal(path)
        self.width = max(20, width)
        self.color = color
    }

    private func style(_ code: String, _ s: String) -> String { color ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }

    /// The view's lines for a snapshot; `todaySeconds` is today's focus including this session so far.
    package func lines(_ snap: SessionSnapshot, todaySeconds: Int) -> [String] {
        let phaseName: String
        let phaseColor: String
        switch snap.phase {
        case .work: (phaseName, phaseColor) = ("WORK", "1;31")
        case .shortBreak: (phaseName, phaseColor) = ("BREAK", "1;32")
        case .longBreak: (phaseName, phaseColor) = ("LONG BREAK", "1;36")
        }
        let state = snap.isPaused ? " " + style("1;33", "PAUSED") : ""
        let cycle = "\(snap.cycle)/\(snap.cycles)"
        // Line 1: phase, path, cycle.
        let headLeft = style(phaseColor, "● " + phaseName) + state + "  "
        let headRight = "  cycle " + cycle
        let pathRoom = width - displayWidth(headLeft) - displayWidth(headRight)
        let line1 = headLeft + (pathRoom >= 4 ? pad(truncate(path, pathRoom), pathRoom) + headRight : truncate(path, max(1, width - displayWidth(headLeft))))

        // Line 2: the clock face, a progress bar, percent and today's total.
        let clock = style("1", DurationParser.clock(snap.remainingSeconds))
        let planned = max(1, snap.plannedSeconds)
        let done = min(1, max(0, 1 - snap.remaining.seconds / Double(planned)))
        let percent = " \(Int((done * 100).rounded(.down)))%"
        let today = "  today " + DurationParser.format(todaySeconds)
        var barRoom = width - displayWidth(clock) - 2 - displayWidth(percent) - displayWidth(today) - 2
        var line2: String
        if barRoom < 6 {
            barRoom = max(0, width - displayWidth(clock) - 2 - displayWidth(percent))
            line2 = barRoom >= 6 ? clock + "  " + bar(done, barRoom) + percent : clock + percent
        } else {
            line2 = clock + "  " + bar(done, barRoom) + percent + today
        }
        // Line 3: keys.
        let keys = snap.isPaused ? "space resume · s skip · q stop" : "space pause · s skip · q stop"
        let line3 = style("2", truncate(keys, width))
        return [line1, "  " + line2, "  " + line3].map { displayWidth($0) > width ? truncate($0, width) : $0 }
    }

    private func bar(_ fraction: Double, _ n: Int) -> String {
        let filled = Int((fraction * Double(n)).rounded(.down))
        return style("32", String(repeating: "█", count: filled)) + style("2", String(repeating: "░", count: max(0, n - filled)))
    }
}
