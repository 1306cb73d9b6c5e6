import ArgumentParser
import FocusCore

/// `focus calendar list [--json]`.
package struct CalendarListCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "list", abstract: "List imported calendars.")

    @Flag(help: "Print JSON for scripts.")
    var json = false
    @OptionGroup package var global: GlobalOptions

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let calendars = try env.openDatabase().calendars()
        if json {
            env.console.line(JSON.array(calendars.map { c in
                .object([
                    ("name", .string(c.name)), ("source", .string(c.source)), ("events", .int(c.eventCount)),
                    ("imported_at", .string(Timestamp.utc(c.importedAt))), ("busy_times", .int(c.occurrenceCount)),
                    ("timezone", .string(c.timeZone)),
                ])
            }).rendered())
            return
        }
        if calendars.isEmpty {
            env.console.line("No calendars. Import one with `focus calendar import FILE.ics`.")
            return
        }
        let width = calendars.map { Sanitized.shown($0.name).count }.max() ?? 0
        var out = ""
        for c in calendars {
            let name = Sanitized.shown(c.name)
            out += name + TerminalText.spaces(width - name.count)
            out += "  \(c.eventCount) event\(c.eventCount == 1 ? "" : "s")  imported \(env.calendar.wallClockText(c.importedAt).prefix(16))"
            out += "  \(Sanitized.shown(c.source))\n"
        }
        env.console.out(out)
    }
}
