import FocusSystem
import FocusText
import ArgumentParser
import FocusCalendar
import FocusCore
import FocusRendering
import FocusServices
import FocusStorage
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `focus export [--format jsonl|csv|ics] [--from DATE --to DATE] [--output FILE]`.
package struct ExportCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the session history as JSON Lines, CSV or iCalendar, oldest first.",
        discussion: """
            jsonl and csv are the format that focus import reads: one session per line with task, \
            subtask, start and end (UTC, like 2026-11-20T08:00:00Z), status, focused_seconds, \
            planned_seconds and note (when there is one).

            ics writes each session as a calendar event (RFC 5545): "✓ Thesis/Chapter 2", or \
            "✗ Thesis/Chapter 2 (interrupted)", from its start to its end in UTC, the focused \
            minutes and the note in the description. Each event's UID comes from the session \
            (its sync name once synced, the same on every machine; else task, subtask and start), \
            so importing a newer export into a calendar app updates events instead of duplicating them.

            --from/--to keep the sessions that start on those local days.
            """
    )

    @Option(help: ArgumentHelp("jsonl (default), csv or ics; --output FILE.csv or FILE.ics implies it.", valueName: "format"),
            completion: .list(["jsonl", "csv", "ics"]))
    var format: String?
    @Option(help: ArgumentHelp("First day (2026-11-01, 'last mon'); needs --to.", valueName: "date"))
    var from: String?
    @Option(help: ArgumentHelp("Last day, included; needs --from.", valueName: "date"))
    var to: String?
    @Option(name: [.short, .long], help: ArgumentHelp("Write to this file (atomically) instead of standard output (- is standard output).", valueName: "file"), completion: .file(extensions: ["jsonl", "csv", "ics"]))
    var output: String?
    @Flag(help: "Show no progress line (one is shown on standard error when it is a terminal and the export goes elsewhere).") var quiet = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    /// Output is flushed in chunks of about this many bytes.
    static let chunkSize = 64 * 1024

    /// What `--format` (or the output file's name) asks for.
    enum Format: Equatable {
        case interchange(InterchangeFormat)
        case ics
    }

    static func format(option: String?, output: String?) throws(FocusError) -> Format {
        if let option {
            if option.lowercased() == "ics" { return .ics }
            guard let f = InterchangeFormat(rawValue: option.lowercased()) else {
                throw FocusError.invalidValue(what: "format", value: option, expected: "jsonl, csv or ics")
            }
            return .interchange(f)
        }
        if let output, output.lowercased().hasSuffix(".ics") { return .ics }
        return .interchange(output.flatMap(InterchangeFormat.detect(path:)) ?? .jsonl)
    }

    package func run(in env: FocusEnvironment) async throws {
        let format = try ExportCommand.format(option: self.format, output: output)
        let range = try WindowOptions.range(from: from, to: to, today: env.today)
        let start = range.map { env.calendar.startOfDay($0.from) }
        let end = range.map { env.calendar.startOfDay($0.to.adding(days: 1)) }
        let db = try env.openDatabase()

        let console = env.console
        // `--output -` (or /dev/stdout) is standard output, like no --output at all.
        let file = try output.map { path throws(FocusError) in try AtomicFileWriter(path: path, access: .requested, standardOutput: console) }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(ExportCommand.chunkSize + 4096)
        func flush() throws {
            guard !buffer.isEmpty else { return }
            if let file {
                try buffer.withUnsafeBytes { bytes in try file.write(bytes) }
            } else {
                console.out(String(decoding: buffer, as: UTF8.self))
                // A full disk or a closed standard output stops the export here (exit 74).
                try console.checkOutput()
            }
            buffer.removeAll(keepingCapacity: true)
        }
        // Not over an export scrolling by on the same terminal.
        let toTerminal = (file == nil || file!.isStandardOutput) && isatty(STDOUT_FILENO) == 1
        let progress = ProgressMeter(verb: "Exporting", unit: .items("sessions"), total: nil, quiet: quiet || toTerminal, environment: env.environment)
        defer { progress.finish() }
        if progress.isEnabled { progress.setTotal(try db.exportCount(from: start, to: end)) }
        let count: Int
        switch format {
        case let .interchange(f):
            let writer = InterchangeWriter(format: f)
            buffer.append(contentsOf: writer.header.utf8)
            count = try db.exportSessions(from: start, to: end) { record in
                writer.append(record, to: &buffer)
                progress.advance()
                if buffer.count >= ExportCommand.chunkSize { try flush() }
            }
        case .ics:
            ICSWriter.begin(name: "focus sessions", to: &buffer)
            let stamp = ICSWriter.utcDateTime(env.now())
            count = try db.exportSessions(from: start, to: end) { record, identity in
                ICSWriter.append(PlanEvents.sessionEvent(record, identity: identity), stamp: stamp, to: &buffer)
                progress.advance()
                if buffer.count >= ExportCommand.chunkSize { try flush() }
            }
            ICSWriter.end(to: &buffer)
        }
        try flush()
        progress.finish()
        if let file {
            try file.commit()
            guard !file.isStandardOutput else { return }
            console.line("Exported \(count) session\(count == 1 ? "" : "s") to \(file.path).")
        }
    }
}
