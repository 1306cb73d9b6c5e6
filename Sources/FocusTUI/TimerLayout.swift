import FocusCore
import FocusRendering
import FocusText
import FoundationEssentials

/// Timer: the running session as `focus start` draws it (whichever process runs it).
package enum TimerLayout {
    static func subtitle(_ s: UIState, _ data: UIData) -> StyledLine {
        StyledLine(data.session == nil ? "No session running" : "Session", .bold)
    }

    static func body(_ s: UIState, _ data: UIData, width: Int, height: Int) -> [StyledLine] {
        guard let session = data.session else {
            return [StyledLine(), StyledLine("  No session is running."),
                    StyledLine("  Enter on a block (Today) or on work (Tasks) starts one; so does focus start elsewhere.", .dim)]
        }
        var snap = session.active.snapshot
        snap.remaining = .seconds(session.active.remainingSeconds(at: s.now))
        if snap.isOpen { snap.focusedSeconds = session.active.elapsedSeconds(at: s.now) }
        let facts = session.facts(at: s.now)
        // Today's focus: the sessions recorded today (the window ends today) and this one so far.
        let today = (data.stats.days.last?.focusedSeconds ?? 0) + (snap.phase == .work ? facts.elapsedSeconds : 0)
        let renderer = CountdownRenderer(path: DisplayText(facts.path), width: min(width - 4, 72), color: false)
        // The countdown's own keys line is left out: its keys are the countdown's, not this view's.
        let lines = renderer.lines(snap, todaySeconds: today).prefix(2).map { StyledLine(DisplayText(trusted: "  " + $0.string)) }
        var out = [StyledLine()] + lines
        // The clock large, when there is room for it.
        if height >= 14 {
            out.append(StyledLine())
            let style: StyledLine.Style = snap.isPaused ? .yellow : snap.phase == .work ? .boldRed : .boldGreen
            out += BigClock.rows(facts.clock).map { StyledLine(DisplayText(trusted: "    " + $0), style) }
        }
        out.append(StyledLine())
        out.append(StyledLine("  space pauses or resumes it, x stops it; it runs on when this view is closed.", .dim))
        return out
    }
}
