import Dispatch
import FocusCore
import FocusRendering
import FocusServices
import FocusStorage
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The progress line of a long command on standard error, beside `StandardConsole`: drawn only
/// when standard error is a terminal (and not `TERM=dumb`, not `--quiet`), at most four times a
/// second, from half a second on (quick work shows nothing), and erased at the end
/// (`\r` then ESC [2K, erase the line, ECMA-48 EL). Counting costs an increment: the clock is
/// read once every `checkEvery` items, so the work is not slowed.
package final class ProgressMeter: ProgressCounter, @unchecked Sendable {
    private let verb: String
    private let unit: ProgressLine.Unit
    private var total: Int?
    private let enabled: Bool
    private let checkEvery: Int
    private var done = 0
    private var sinceCheck = 0
    private let started = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var drawn = false

    /// The first draw waits this long; redraws are at least this far apart.
    static let firstDrawAfter: Duration = .milliseconds(500)
    static let redrawEvery: Duration = .milliseconds(250)

    package init(verb: String, unit: ProgressLine.Unit, total: Int?, quiet: Bool, environment: [String: String], checkEvery: Int = 1024) {
        self.verb = verb
        self.unit = unit
        self.total = total
        self.checkEvery = max(1, checkEvery)
        enabled = !quiet && ProgressMeter.isTerminal(environment: environment)
    }

    /// Whether standard error is a terminal a person watches.
    package static func isTerminal(environment: [String: String]) -> Bool {
        isatty(STDERR_FILENO) == 1 && environment["TERM"].map { $0 != "dumb" && !$0.isEmpty } == true
    }

    /// Counts `n` more items (bytes, for a byte meter); looks at the clock every `checkEvery`.
    @inline(__always)
    package func advance(by n: Int = 1) {
        guard enabled else { return }
        done += n
        sinceCheck += n
        if sinceCheck >= checkEvery {
            sinceCheck = 0
            tick()
        }
    }

    /// Whether anything will be drawn (a caller can skip the work of reporting otherwise).
    package var isEnabled: Bool { enabled }

    /// Sets how far the work is, for work reported in steps (a copy of the database).
    package func update(done: Int, total: Int?) {
        guard enabled else { return }
        self.done = done
        self.total = total
        tick()
    }

    /// The `update` closure for `AppDatabase`'s copies, or nil when nothing is drawn (a copy
    /// is then made in one step).
    package var copyProgress: AppDatabase.CopyProgress? {
        guard enabled else { return nil }
        return { [self] done, total in update(done: done, total: total) }
    }

    /// Sets the total once known (it may be learnt on the way).
    package func setTotal(_ total: Int?) { self.total = total }

    private func tick() {
        let now = ContinuousClock.now
        if let last = lastDraw {
            guard last.duration(to: now) >= ProgressMeter.redrawEvery else { return }
        } else {
            guard started.duration(to: now) >= ProgressMeter.firstDrawAfter else { return }
        }
        lastDraw = now
        let elapsed = started.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let line = ProgressLine.render(verb: verb, done: done, total: total, unit: unit, elapsed: seconds, width: ProgressMeter.width())
        StandardConsole.write("\r\u{1B}[2K" + line, to: STDERR_FILENO)
        drawn = true
    }

    /// Erases the line, if one was drawn (call before anything else is written).
    package func finish() {
        guard drawn else { return }
        StandardConsole.write("\r\u{1B}[2K", to: STDERR_FILENO)
        drawn = false
    }

    deinit { finish() }

    /// A count kept across closures (the records of a first pass, the total of the second).
    package final class Tally: @unchecked Sendable {
        package var count = 0
        package init() {}
    }

    /// The size of a file in bytes, when it is known (for a byte meter's total).
    package static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > 0 else { return nil }
        return Int(info.st_size)
    }

    static func width() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}

/// The progress line of work done in steps whose size is not known ahead (a calendar parsed
/// whole, a report computed in one query): the step's name and the seconds gone, redrawn by a
/// timer four times a second from half a second on, on a terminal's standard error only, and
/// erased at the end. The work itself is not touched. (Unchecked: the timer is set once in
/// `init` and only cancelled after; everything else is behind the mutex.)
package final class ProgressTicker: @unchecked Sendable {
    private struct State {
        var label: String
        var drawn = false
        var finished = false
        var shown = ""
    }

    private let state: Mutex<State>
    private let started = ContinuousClock.now
    private let timer: DispatchSourceTimer?

    package init(_ label: String, quiet: Bool, environment: [String: String]) {
        state = Mutex(State(label: label))
        guard !quiet, ProgressMeter.isTerminal(environment: environment) else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "focus.progress"))
        timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(250))
        self.timer = timer
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
    }

    /// Names the step now under way.
    package func phase(_ label: String) { state.withLock { $0.label = label } }

    private func draw() {
        state.withLock { s in
            guard !s.finished else { return }
            let elapsed = started.duration(to: .now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let text = ProgressLine.phase(s.label, elapsed: seconds, width: ProgressMeter.width())
            guard !s.drawn || text != s.shown else { return }
            StandardConsole.write("\r\u{1B}[2K" + text, to: STDERR_FILENO)
            s.shown = text
            s.drawn = true
        }
    }

    /// Erases the line for a moment (a warning is printed next); the timer draws it again.
    package func clear() {
        state.withLock { s in
            if s.drawn, !s.finished { StandardConsole.write("\r\u{1B}[2K", to: STDERR_FILENO) }
            s.drawn = false
        }
    }

    /// Stops the timer and erases the line, if one was drawn (before anything else is written).
    package func finish() {
        timer?.cancel()
        state.withLock { s in
            if s.drawn, !s.finished { StandardConsole.write("\r\u{1B}[2K", to: STDERR_FILENO) }
            s.finished = true
        }
    }

    deinit { finish() }
}
