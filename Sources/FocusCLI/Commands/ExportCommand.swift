import ArgumentParser
import FocusCore
import FocusStorage
import Foundation

/// `focus export [--format jsonl|csv] [--from DATE --to DATE] [--output FILE]`.
package struct ExportCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the session history as JSON Lines or CSV, oldest first.",
        discussion: """
            The format `focus import` reads: one session per line with task, subtask, start and \
            end (UTC, like 2026-11-20T08:00:00Z), status, focused_seconds, planned_seconds and \
            note (when there is one). --from/--to keep the sessions that start on those local days.
            """
    )

    @Option(help: ArgumentHelp("jsonl (default) or csv; --output FILE.csv implies csv.", valueName: "format"))
    var format: String?
    @Option(help: ArgumentHelp("First day (2026-11-01); needs --to.", valueName: "date"))
    var from: String?
    @Option(help: ArgumentHelp("Last day, included; needs --from.", valueName: "date"))
    var to: String?
    @Option(name: [.short, .long], help: ArgumentHelp("Write to this file (atomically) instead of standard output.", valueName: "file"))
    var output: String?
    @OptionGroup package var global: GlobalOptions

    package init() {}

    /// Output is flushed in chunks of about this many bytes.
    static let chunkSize = 64 * 1024

    package func run(in env: FocusEnvironment) async throws {
        let format: InterchangeFormat
        if let option = self.format {
            guard let f = InterchangeFormat(rawValue: option.lowercased()) else {
                throw FocusError.invalidValue(what: "format", value: option, expected: "jsonl or csv")
            }
            format = f
        } else {
            format = output.flatMap(InterchangeFormat.detect(path:)) ?? .jsonl
        }
        let range = try WindowOptions.range(from: from, to: to, today: env.today)
        let start = range.map { env.calendar.startOfDay($0.from) }
        let end = range.map { env.calendar.startOfDay($0.to.adding(days: 1)) }
        let db = try env.openDatabase()

        let file = try output.map { path throws(FocusError) in try AtomicFileWriter(path: path, mode: 0o600) }
        let console = env.console
        let writer = InterchangeWriter(format: format)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(ExportCommand.chunkSize + 4096)
        func flush() throws {
            guard !buffer.isEmpty else { return }
            if let file {
                try buffer.withUnsafeBytes { bytes in try file.write(bytes) }
            } else {
                console.out(String(decoding: buffer, as: UTF8.self))
            }
            buffer.removeAll(keepingCapacity: true)
        }
        buffer.append(contentsOf: writer.header.utf8)
        let count = try db.exportSessions(from: start, to: end) { record in
            writer.append(record, to: &buffer)
            if buffer.count >= ExportCommand.chunkSize { try flush() }
        }
        try flush()
        if let file {
            try file.commit()
            console.line("Exported \(count) session\(count == 1 ? "" : "s") to \(Sanitized.terminal(file.path)).")
        }
    }
}
