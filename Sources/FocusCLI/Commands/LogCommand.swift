import ArgumentParser
import FocusCore
import FocusRendering
import FocusStorage
import FocusText
import FoundationEssentials

/// `focus log ...`: the time log.
package struct LogCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "log", abstract: "List, add, edit and remove recorded sessions.",
        subcommands: [LogListCommand.self, LogAddCommand.self, LogEditCommand.self, LogRmCommand.self],
        defaultSubcommand: LogListCommand.self)
    package init() {}

    static func json(_ e: SessionEntry) -> JSON {
        .object([
            ("id", .optional(e.log.id)),
            ("task", .string(e.task)),
            ("subtask", .optional(e.subtask)),
            ("start", .string(Timestamp.utc(e.log.startedAt))),
            ("end", .string(Timestamp.utc(e.log.endedAt))),
            ("focused_seconds", .int(e.log.focusedSeconds)),
            // An open session had no planned length (README, "Open sessions").
            ("planned_seconds", e.log.status == .open ? .null : .int(e.log.plannedSeconds)),
            ("status", .string(e.log.status.rawValue)),
            ("block_id", .optional(e.log.blockID)),
            ("note", .optional(e.log.note)),
            ("tags", .array(e.log.tags.map { .string($0) })),
        ])
    }

    /// ` +deep +reading` (nothing when there are none): tags after a session, as Watson shows them.
    static func tagText(_ tags: [String]) -> DisplayText {
        DisplayText.joined(tags.map { " +\(shown: $0)" })
    }

    /// `#12  09:00–09:25  25m  ✓  Thesis/Chapter 2  "note"`.
    /// `idWidth`: the ids padded to the widest in a listing (`#9 ` under `#12`), so the times
    /// stay in one column.
    static func line(_ e: SessionEntry, calendar: LocalCalendar, idWidth: Int = 0) -> DisplayText {
        let mark = SessionMark.of(e.log.status)
        let from = calendar.timeOfDay(of: e.log.startedAt)
        var to = "\(calendar.timeOfDay(of: e.log.endedAt))"
        // A session longer than a day (a forgotten timer) says on which later day it ended.
        if e.log.endedAt.timeIntervalSince(e.log.startedAt) > Double(SessionRecord.dayLengthSeconds) {
            to += " (+\(calendar.day(of: e.log.endedAt).dayNumber - calendar.day(of: e.log.startedAt).dayNumber)d)"
        }
        let id = "#\(e.log.id ?? 0)"
        var s: DisplayText = "\(TerminalText.pad(id, idWidth))  \(from)–\(to)  \(TerminalText.pad(DurationParser.format(e.log.focusedSeconds), 7)) \(mark)  \(shown: e.path)"
        if !e.log.tags.isEmpty { s += " \(tagText(e.log.tags))" }
        if let note = e.log.note { s += "  “\(shown: note)”" }
        return s
    }
}
