import FocusSystem
import FocusText
import ArgumentParser
import FocusCalendar
import FocusCore
import FocusServices
import FocusStorage
import FoundationEssentials

/// `focus calendar export FILE.ics`.
package struct CalendarExportCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the planned work blocks to an .ics file.",
        discussion: """
            Each block's UID is focus-block-<subtask's sync name>-<local day YYYYMMDD>-<n>@focus once \
            sync is set up (the same work has the same UID on every machine), else <subtask id>-<local \
            day>-<n>@focus; n counts that subtask's blocks on that day from 1 in start order (earlier \
            blocks of the day keep their places), so importing a newer export into a calendar app moves \
            events instead of duplicating them.
            """)

    @Argument(help: ArgumentHelp("The file to write (replaced atomically; - is standard output).", valueName: "file.ics"), completion: .file(extensions: ["ics"]))
    var file: String
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let now = env.now()
        let blocks = try db.blocks(startingFrom: env.calendar.startOfDay(env.calendar.day(of: now)))
        let events = PlanEvents.events(blocks, now: now, calendar: env.calendar)
        let output = try AtomicFileWriter(path: file, access: .requested, standardOutput: env.console, makeParent: true)
        try output.write(ICSWriter.calendar(events: events, stamp: now, name: "focus plan"))
        try output.commit()
        guard !output.isStandardOutput else { return }
        env.console.line("Wrote \(events.count) planned block\(events.count == 1 ? "" : "s") to \(file).")
    }
}
