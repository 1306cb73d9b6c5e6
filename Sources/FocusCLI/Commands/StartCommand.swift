import FocusText
import ArgumentParser
import FocusCore
import FocusStorage
import FoundationEssentials

/// How a session runs: its lengths and flags. `start` and `continue` share it, so an option
/// added here (a `--tag`) is on both.
package struct SessionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Work length (default: config `work`, 25m).", valueName: "duration"))
    var duration: String?
    @Option(name: .customLong("break"), help: ArgumentHelp("Short break length (default: config `short_break`, 5m).", valueName: "duration"))
    var shortBreak: String?
    @Option(name: .customLong("long-break"), help: ArgumentHelp("Long break length (default: config `long_break`, 15m).", valueName: "duration"))
    var longBreak: String?
    @Option(help: ArgumentHelp("Work sessions before a long break (default: config `cycles`, 4).", valueName: "n"))
    var cycles: Int?
    @Option(help: ArgumentHelp("Stop after this many work sessions.", valueName: "k"))
    var count: Int?
    @Flag(help: "One work session, no break, then exit.")
    var noBreak = false
    @Flag(help: "Count up with no planned length until stopped (recorded as open).")
    var open = false
    @Option(name: .customLong("tag"), help: ArgumentHelp("File the sessions under this tag (repeatable).", valueName: "name"))
    var tags: [String] = []

    package init() {}

    /// The plan from the config and this run's flags.
    func plan(config: FocusConfig) throws(FocusError) -> SessionPlan {
        func length(_ text: String?, _ what: String, _ fallback: Int, minimum: Int) throws(FocusError) -> Int {
            guard let text else { return fallback }
            let s = try DurationParser.seconds(text, what: what)
            guard s >= minimum else {
                throw .invalidValue(what: what, value: text, expected: "a duration of at least \(DurationParser.format(max(1, minimum)))")
            }
            return s
        }
        if open {
            // README, "Open sessions": one session counting up, so nothing of a countdown applies.
            guard duration == nil, count == nil, shortBreak == nil, longBreak == nil, cycles == nil, !noBreak else {
                throw .usage("--open counts up with no planned length; it cannot be combined with --duration, --break, --long-break, --cycles, --count or --no-break.")
            }
            return .open
        }
        let work = try length(duration, "duration", config.workSeconds, minimum: 1)
        guard work <= 86_400 else { throw .invalidValue(what: "duration", value: duration ?? "", expected: "at most 24h") }
        if noBreak {
            if count != nil || shortBreak != nil || longBreak != nil {
                throw .usage("--no-break runs a single work session; it cannot be combined with --count, --break or --long-break.")
            }
            return .single(workSeconds: work)
        }
        if let cycles, !(1...100).contains(cycles) {
            throw .invalidValue(what: "cycles", value: String(cycles), expected: "a whole number from 1 to 100")
        }
        if let count, count < 1 { throw .invalidValue(what: "count", value: String(count), expected: "a whole number of at least 1") }
        return SessionPlan(
            workSeconds: work,
            shortBreakSeconds: try length(shortBreak, "break", config.shortBreakSeconds, minimum: 0),
            longBreakSeconds: try length(longBreak, "long break", config.longBreakSeconds, minimum: 0),
            cycles: cycles ?? config.cycles, count: count)
    }
}

/// `focus start [PATH] [--duration D] [--break D] [--long-break D] [--cycles N] [--count K] [--no-break] [--open]`.
package struct StartCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Run a focus session: a countdown of work and breaks, recorded in the log.",
        discussion: """
            Keys: space or p pause/resume, s skip the phase, q or Ctrl-C stop. \
            A session that reaches 0:00 is recorded as completed; stopping early records it as \
            interrupted with the time you really focused. With --open it counts up instead, \
            until you stop it, and is recorded as open. Time behind a locked screen follows \
            config `idle`: asked about on return (k keep, d discard, s stop at the lock), \
            discarded, or kept.

            50 minutes of work, then breaks and more work:
            `focus start "Thesis/Chapter 2" --duration 50m`
            A task or subtask that is new is added first with --create:
            `focus start --create "Thesis/Chapter 5"`
            """)

    @Argument(help: ArgumentHelp("Task or Task/Subtask to work on.", valueName: "path"), completion: Completions.paths)
    var path: String?
    @Flag(help: "Add the task or subtask first if it does not exist (as `task add` would).")
    var create = false
    @OptionGroup var session: SessionOptions
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        // Signals first: one sent as soon as this process exists stops the session it begins.
        let signals = SignalRouter()
        signals.start()
        do {
            let plan = try session.plan(config: env.config)
            let tags = try SessionTags.names(session.tags)
            if create, path == nil {
                throw FocusError.usage("--create needs the task to add and start: `focus start --create \"Thesis/Chapter 2\"`.")
            }
            let db = try env.openDatabase()
            let (target, blockID, catalog) = try workTarget(db: db, env: env)
            try await LiveRun(env: env, db: db, target: target, blockID: blockID, catalog: catalog, plan: plan, signals: signals, tags: tags).run()
        } catch {
            signals.stop()
            throw error
        }
    }
}
