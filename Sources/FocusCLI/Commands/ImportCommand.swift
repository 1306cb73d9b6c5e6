import ArgumentParser
import FocusCore
import FocusStorage

/// `focus import FILE [--format jsonl|csv]`.
package struct ImportCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add sessions from a JSON Lines (.jsonl) or CSV (.csv) file, all or nothing.",
        discussion: """
            One session per line: task, subtask (optional), start and end (ISO 8601 with an \
            offset or Z), status (completed or interrupted), and optionally focused_seconds, \
            planned_seconds and note. Missing tasks and subtasks are created. The whole file is \
            checked first: a bad line stops the import with its line number, and nothing is \
            written. Sessions already in the database are skipped, so importing twice is safe.
            """
    )

    @Argument(help: ArgumentHelp("The file to read.", valueName: "file"))
    var file: String
    @Option(help: ArgumentHelp("Read it as jsonl or csv whatever its name.", valueName: "format"))
    var format: String?
    @OptionGroup package var global: GlobalOptions

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let format = try ImportCommand.format(option: format, path: file)
        // First the whole file is checked, with nothing opened for writing.
        var checker = InterchangeParser(format: format, file: file)
        try ChunkedFile.read(file) { chunk in try checker.feed(chunk) { _, _ in } }
        try checker.finish { _, _ in }
        // Then it is read again inside one transaction (memory stays flat whatever its size;
        // anything that fails now still rolls everything back).
        let db = try env.openDatabase()
        let path = file
        let summary = try db.importSessions(now: env.now()) { insert in
            var parser = InterchangeParser(format: format, file: path)
            try ChunkedFile.read(path) { chunk in try parser.feed(chunk) { record, _ in try insert(record) } }
            try parser.finish { record, _ in try insert(record) }
        }
        env.console.line(ImportCommand.sentence(summary))
    }

    /// `--format`, else the file's extension.
    static func format(option: String?, path: String) throws(FocusError) -> InterchangeFormat {
        if let option {
            guard let format = InterchangeFormat(rawValue: option.lowercased()) else {
                throw .invalidValue(what: "format", value: option, expected: "jsonl or csv")
            }
            return format
        }
        guard let format = InterchangeFormat.detect(path: path) else {
            throw .usage("cannot tell the format of \(path) from its name; name it .jsonl or .csv, or pass --format jsonl or --format csv.")
        }
        return format
    }

    /// "Imported 12 sessions (3 already present), created 1 task and 2 subtasks."
    static func sentence(_ s: ImportSummary) -> String {
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        return "Imported \(count(s.imported, "session")) (\(s.alreadyPresent) already present), "
            + "created \(count(s.createdTasks, "task")) and \(count(s.createdSubtasks, "subtask"))."
    }
}
