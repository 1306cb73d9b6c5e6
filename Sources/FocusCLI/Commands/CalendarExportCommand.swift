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
        let events = Self.events(blocks, now: now, calendar: env.calendar)
        let output = try AtomicFileWriter(path: file, access: .requested, standardOutput: env.console, makeParent: true)
        try output.write(ICSWriter.calendar(events: events, stamp: now, name: "focus plan"))
        try output.commit()
        guard !output.isStandardOutput else { return }
        env.console.line("Wrote \(events.count) planned block\(events.count == 1 ? "" : "s") to \(Sanitized.terminal(file)).")
    }

    /// The planned blocks still ahead (ending after `now`) as events with stable UIDs. `blocks`
    /// must hold every block of the days concerned, sorted by start, for the ordinals.
    static func events(_ blocks: [BlockView], now: Date, calendar: LocalCalendar, publisher: String? = nil) -> [ExportEvent] {
        blockEvents(blocks, now: now, calendar: calendar, publisher: publisher).map(\.event)
    }

    /// Each planned block still ahead with its event: UIDs from `Publication.blockUID` (the
    /// subtask's sync name when it has one), a pinned block's the UID of the event the person
    /// moved; ordinals skip the UIDs pinned blocks hold.
    static func blockEvents(_ blocks: [BlockView], now: Date, calendar: LocalCalendar, publisher: String?) -> [(event: ExportEvent, block: BlockView)] {
        struct DayKey: Hashable { let subtask: Int64, day: Int }
        let pinned = Set(blocks.compactMap(\.pinnedUID))
        var counts: [DayKey: Int] = [:]
        var events: [(event: ExportEvent, block: BlockView)] = []
        for block in blocks {
            var uid = block.pinnedUID ?? ""
            if block.pinnedUID == nil {
                let day = calendar.day(of: block.start)
                let key = DayKey(subtask: block.subtaskID, day: day.dayNumber)
                var ordinal = counts[key] ?? 0
                repeat {
                    ordinal += 1
                    uid = Publication.blockUID(subtaskSyncUID: block.subtaskSyncUID, publisher: publisher, subtaskID: block.subtaskID,
                                               day: day, ordinal: ordinal)
                } while pinned.contains(uid)
                counts[key] = ordinal
            }
            guard block.status == .planned, block.end > now else { continue }
            events.append((ExportEvent(uid: uid, start: block.start, end: block.end, summary: block.path,
                                       description: "Work block planned by focus.", status: "CONFIRMED"), block))
        }
        return events
    }
}
