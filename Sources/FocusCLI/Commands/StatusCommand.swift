import ArgumentParser
import FocusCore

/// `focus status [--json | --format FMT]`: for prompts and status bars.
package struct StatusCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the running session (for prompts and status bars).",
        discussion: """
            --format placeholders: {state} {task} {subtask} {path} {phase} {remaining} {elapsed} \
            {cycle} {cycles}. Idle prints `idle` (or an empty line with --format).
            """)

    @Flag(help: "Print JSON.") var json = false
    @Option(help: ArgumentHelp("A template, e.g. '{path} {remaining}'.", valueName: "format")) var format: String?
    @OptionGroup package var global: GlobalOptions
    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        if json, format != nil { throw FocusError.usage("--json and --format cannot be used together.") }
        let db = try env.openDatabase()
        guard let session = try db.activeSession() else {
            if json { env.console.line(JSON.object([("state", .string("idle"))]).rendered()) } else if format != nil { env.console.line("") } else { env.console.line("idle") }
            return
        }
        let now = env.now()
        let names = try db.titles(taskID: session.taskID, subtaskID: session.subtaskID)
        let path = names.subtask.map { "\(names.task)/\($0)" } ?? names.task
        let snap = session.snapshot
        let remaining = session.remainingSeconds(at: now)
        let elapsed = max(0, snap.plannedSeconds - remaining)
        let state = snap.isPaused ? "paused" : "running"
        if json {
            env.console.line(JSON.object([
                ("state", .string(state)),
                ("task", .string(names.task)),
                ("subtask", .optional(names.subtask)),
                ("phase", .string(snap.phase.rawValue)),
                ("started_at", .string(Timestamp.utc(snap.phaseStartedAt))),
                ("ends_at", snap.isPaused ? .null : .string(Timestamp.utc(now.addingTimeInterval(Double(remaining))))),
                ("remaining_seconds", .int(remaining)),
                ("cycle", .int(snap.cycle)),
                ("cycles", .int(snap.cycles)),
                ("paused", .bool(snap.isPaused)),
                ("elapsed_seconds", .int(elapsed)),
                ("pid", .int(Int(session.pid))),
            ]).rendered())
            return
        }
        if let format {
            let values: [String: String] = [
                "state": state, "task": names.task, "subtask": names.subtask ?? "", "path": path,
                "phase": snap.phase.rawValue, "remaining": DurationParser.clock(remaining), "elapsed": DurationParser.clock(elapsed),
                "cycle": String(snap.cycle), "cycles": String(snap.cycles),
            ]
            env.console.line(Sanitized.terminal(StatusCommand.fill(format, values)))
            return
        }
        let pausedText = snap.isPaused ? " · paused" : ""
        env.console.line("\(Sanitized.terminal(path)) · \(snap.phase.label)\(pausedText) · \(DurationParser.clock(remaining)) left")
    }

    /// Replaces `{name}` placeholders; unknown ones are left as written.
    static func fill(_ template: String, _ values: [String: String]) -> String {
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let key = String(rest[rest.index(after: open)..<close])
            out += values[key] ?? "{\(key)}"
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
