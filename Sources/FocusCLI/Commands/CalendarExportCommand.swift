import ArgumentParser
import FocusCalendar
import FocusCore
import FocusStorage
import FoundationEssentials

/// `focus calendar export FILE.ics`.
package struct CalendarExportCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the planned work blocks to an .ics file.",
        discussion: """
            Each block's UID is <subtask id>-<local day YYYYMMDD>-<n>@focus, n counting that subtask's \
            blocks on that day from 1 in start order (earlier blocks of the day keep their places), \
            so importing a newer export into a calendar app moves events instead of duplicating them.
            """)

    @Argument(help: ArgumentHelp("The file to write (replaced atomically; - is standard output).", valueName: "file.ics"), completion: .file(extensions: ["ics"]))
    var file: String
    @OptionGroup package var global: GlobalOptions

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let now = env.now()
        let blocks = try db.blocks(startingFrom: env.calendar.startOfDay(env.calendar.day(of: now)))
        let events = Self.events(blocks, now: now, calendar: env.calendar)
        let output = try AtomicFileWriter(path: file, access: .requested, standardOutput: env.console, makeParent: true)
        try output.write(ICSWriter.calendar(events: events, stamp: now, name: "focus plan"))
        try output.commit()
        guard !output.isStandardOutput else { return }
        env.console.line("Wrote \(events.count) planned block\(events.count == 1 ? "" : "s") to \(Sanitized.terminal(file)).")
    }

    /// The planned blocks still ahead (ending after `now`) as events with stable UIDs. `blocks`
    /// must hold every block of the days concerned, sorted by start, for the ordinals.
    static func events(_ blocks: [BlockView], now: Date, calendar: LocalCalendar) -> [ExportEvent] {
        struct DayKey: Hashable { let subtask: Int64, day: Int }
        var counts: [DayKey: Int] = [:]
        var events: [ExportEvent] = []
        for block in blocks {
            let day = calendar.day(of: block.start)
            let key = DayKey(subtask: block.subtaskID, day: day.dayNumber)
            let ordinal = (counts[key] ?? 0) + 1
            counts[key] = ordinal
            guard block.status == .planned, block.end > now else { continue }
            let compact = day.description.replacing("-", with: "")
            events.append(ExportEvent(uid: "\(block.subtaskID)-\(compact)-\(ordinal)@focus", start: block.start, end: block.end,
                                      summary: block.path, description: "Work block planned by focus.", status: "CONFIRMED"))
        }
        return events
    }
}
