import FocusCore
import FocusRendering
import FocusText
import FoundationEssentials
import Synchronization

/// What both views need to say what was recorded.
struct ViewContext: Sendable {
    let path: String
    let calendar: LocalCalendar
    let todayBefore: Int
}

/// The interactive view: a compact block redrawn in place, with permanent lines above it for
/// what happened (recorded sessions, phase changes).
final class LiveSessionView: SessionView {
    private struct State {
        /// Display widths of the lines of the block on screen (none drawn: empty).
        var drawnWidths: [Int] = []
        var recordedToday = 0
    }

    private let console: any Console
    private let context: ViewContext
    private let bell: Bool
    private let state = Mutex(State())

    init(console: any Console, context: ViewContext, bell: Bool) {
        self.console = console
        self.context = context
        self.bell = bell
    }

    /// Back to the top of the drawn block and clear it (nothing when none is drawn), counting
    /// the rows its lines take at the terminal's width now.
    private func clearBlock(_ s: inout State) -> DisplayText {
        let out = CountdownRenderer.clearSequence(drawnWidths: s.drawnWidths, columns: console.width)
        s.drawnWidths = []
        return out
    }

    func update(_ snapshot: SessionSnapshot, events: [EngineEvent], recorded: [Int64: WorkRecord]) {
        let renderer = CountdownRenderer(path: DisplayText(context.path), width: console.width, color: console.allowsColor)
        let messages = SessionMessages.lines(for: events, recorded: recorded, context: context)
        state.withLock { s in
            for (_, r) in recorded { s.recordedToday += r.focusedSeconds }
            var out = clearBlock(&s)
            for m in messages { out += "\(m)\n" }
            if bell, events.contains(where: SessionMessages.endsAPhase) { out += "\u{07}" }
            if events.contains(where: { if case .finished = $0 { return true }; return false }) {
                // The run is over: what happened stays on screen, the countdown block goes.
            } else {
                let today = context.todayBefore + s.recordedToday + (snapshot.phase == .work ? snapshot.focusedSeconds : 0)
                let stopAt = snapshot.awayStopAt.map { context.calendar.timeOfDay(of: $0) }
                let lines = renderer.lines(snapshot, todaySeconds: today, awayStopAt: stopAt.map { "\($0)" })
                out += DisplayText.joined(lines, separator: "\n")
                s.drawnWidths = lines.map(\.columns)
            }
            console.show(out)
        }
    }

    /// Leaves the drawn block where it is and moves below it (before the process stops, so the
    /// shell writes under it); the next update draws a new block.
    func detach() {
        state.withLock { s in
            guard !s.drawnWidths.isEmpty else { return }
            s.drawnWidths = []
            console.show("\n")
        }
    }

    /// A permanent line above the block (the block is redrawn on the next tick).
    func emit(_ line: DisplayText) {
        state.withLock { s in
            var out = clearBlock(&s)
            out += "\(line)\n"
            console.show(out)
        }
    }

    func warn(_ message: String) {
        state.withLock { s in
            console.show(clearBlock(&s))
            console.note("warning: \(message)")
        }
    }

    func away(_ message: AwayMessage) {
        emit(SessionMessages.line(for: message, calendar: context.calendar))
    }
}

/// The view when nobody watches a terminal (a pipe, TERM=dumb, CI): one plain timestamped
/// line per event, no escape codes.
final class PlainSessionView: SessionView {
    private let console: any Console
    private let context: ViewContext
    private let now: @Sendable () -> Date

    init(console: any Console, context: ViewContext, now: @escaping @Sendable () -> Date) {
        self.console = console
        self.context = context
        self.now = now
    }

    func update(_ snapshot: SessionSnapshot, events: [EngineEvent], recorded: [Int64: WorkRecord]) {
        let messages = SessionMessages.lines(for: events, recorded: recorded, context: context)
        guard !messages.isEmpty else { return }
        let stamp = context.calendar.wallClockText(now())
        console.show(DisplayText.joined(messages.map { "\(stamp)  \($0)\n" }))
    }

    func warn(_ message: String) { console.note("warning: \(message)") }

    func away(_ message: AwayMessage) {
        let stamp = context.calendar.wallClockText(now())
        console.show("\(stamp)  \(SessionMessages.line(for: message, calendar: context.calendar))\n")
    }
}

/// The sentences both views print for engine events.
enum SessionMessages {
    /// What the countdown says of time away from the screen (README, "Away from the screen").
    static func line(for message: AwayMessage, calendar: LocalCalendar) -> DisplayText {
        switch message {
        case let .question(seconds, stopAt):
            return "Away \(DurationParser.format(seconds)): keep, discard, or stop at \(calendar.timeOfDay(of: stopAt))? (k/d/s)"
        case let .discarded(seconds):
            return "Away \(DurationParser.format(seconds)): not counted as focus (a pause)"
        case let .kept(seconds):
            return "Away \(DurationParser.format(seconds)): counted as focus"
        }
    }

    static func endsAPhase(_ e: EngineEvent) -> Bool {
        switch e {
        case .workEnded(let r): return r.status == .completed
        case .breakEnded: return true
        default: return false
        }
    }

    static func lines(for events: [EngineEvent], recorded: [Int64: WorkRecord], context: ViewContext) -> [DisplayText] {
        let path = DisplayText(context.path)
        var out: [DisplayText] = []
        for event in events {
            switch event {
            case let .phaseStarted(phase, cycle, planned):
                let what: DisplayText = phase == .work ? "work started · \(path)" : "\(phase.label) started"
                if phase == .work, planned == 0 {
                    out.append("\(what) · open, counting up")  // README, "Open sessions"
                } else {
                    out.append("\(what) · \(DurationParser.clock(planned))\(phase == .work ? " · cycle \(cycle)" : "")")
                }
            case let .workEnded(r):
                let from = context.calendar.timeOfDay(of: r.startedAt)
                let to = context.calendar.timeOfDay(of: r.endedAt)
                // The views are given the id of every session that was saved: one without an id
                // was not, and is never said to be.
                guard let id = recorded.first(where: { $0.value == r })?.key else {
                    let what = r.status.rawValue
                    out.append("✗ NOT recorded: \(path) \(from)–\(to), \(what) with \(DurationParser.format(r.focusedSeconds)) focused, could not be saved")
                    continue
                }
                if r.status == .completed {
                    out.append("✓ completed: \(path) \(from)–\(to), \(DurationParser.format(r.focusedSeconds)) focused (recorded as #\(id))")
                } else if r.status == .open {
                    out.append("■ open: \(path) \(from)–\(to), \(DurationParser.format(r.focusedSeconds)) focused (recorded as #\(id))")
                } else {
                    out.append("✗ interrupted: \(path) \(from)–\(to), \(DurationParser.format(r.focusedSeconds)) of \(DurationParser.format(r.plannedSeconds)) focused (recorded as #\(id))")
                }
            case let .breakEnded(phase, _):
                out.append("\(phase.label) over")
            case .paused:
                out.append("paused")
            case .resumed:
                out.append("resumed")
            case let .finished(cause):
                if case let .suspend(slept)? = cause {
                    out.append("the computer slept for \(DurationParser.format(Int(slept.seconds))) during the session; it was recorded as interrupted at the moment of the suspend")
                } else if case .elsewhere? = cause {
                    out.append("stopped by `focus stop` from elsewhere")
                }
            }
        }
        return out
    }
}
