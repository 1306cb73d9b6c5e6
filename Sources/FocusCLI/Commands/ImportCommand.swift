import ArgumentParser
import FocusCore
import FocusRendering
import FocusServices
import FocusStorage
import FocusSystem
import FocusText

/// `focus import FILE [--format jsonl|csv|timewarrior|watson|openpomodoro] [--map RULES]`.
package struct ImportCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add sessions from a file (focus, Timewarrior, Watson, Open Pomodoro).",
        discussion: """
            focus's own files: one session per line (JSON Lines, .jsonl) or row (CSV, .csv) with \
            task, subtask (optional), start and end (ISO 8601 with an offset or Z), status \
            (completed, interrupted or open), and optionally focused_seconds, planned_seconds and note.

            Other trackers' files (every entry becomes a completed session):

            Timewarrior, `timew export` saved to a file (a .json array is recognised): tag 1 \
            is the task, tag 2 the subtask, the annotation the note. Timewarrior keeps tags \
            sorted, so `Thesis Intro` comes out as Intro, Thesis: choose with --map. An interval \
            with no tags goes to the task Untagged; one still being tracked is skipped.

            Watson, its frames file: the project is the task, tag 1 the subtask.

            Open Pomodoro, its history file: the description is the task (Untagged if none), no \
            subtask; the end is the start plus duration minutes (25 if absent).

            --map chooses other parts: task=SOURCE,subtask=SOURCE, SOURCE being a tag number \
            (1, 2, ...), PREFIX* (the tag starting with PREFIX; a PREFIX ending in a separator, \
            project:, is dropped from it, Th* keeps Thesis whole; numbers then count the other tags), project (Watson), description (Open Pomodoro) or none (subtask). \
            E.g. `--map task=project:*,subtask=1` or `--map task=2,subtask=1`.

            A session longer than a day (a forgotten timer) is imported as one session, with a \
            warning naming its line; one longer than 31 days is refused as a broken end. \
            Missing tasks and subtasks are created. The whole file is checked first: a bad entry \
            stops the import with its line number, and nothing is written. Sessions already in \
            the database (same task, subtask and start) are skipped, so importing twice is safe; \
            from another tracker, so is an interval with the same start and end under any task.
            """
    )

    @Argument(help: ArgumentHelp("The file to read.", valueName: "file"), completion: .file(extensions: ["jsonl", "csv", "json", "data"]))
    var file: String
    @Option(help: ArgumentHelp(
        "jsonl, csv, timewarrior, watson or openpomodoro (default: from the file's name).", valueName: "format"),
            completion: .list(["jsonl", "csv", "timewarrior", "watson", "openpomodoro"]))
    var format: String?
    @Option(help: ArgumentHelp("Which parts become task and subtask (other trackers).", valueName: "rules"))
    var map: String?
    @Flag(help: "Import sessions that end after now too (refused otherwise).")
    var allowFuture = false
    @Flag(help: "Show no progress line (one is shown on standard error when it is a terminal).") var quiet = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        // What the command line alone decides is checked first (64); then the file (66 when it is
        // missing or not a regular file, 74 when unreadable); then what needs its name or content.
        let format: ImportFormat
        let mapping: ImportMapping?
        if let known = try ImportCommand.formatFromCommandLine(option: self.format, path: file) {
            format = known
            mapping = try ImportCommand.mapping(map, format: known)
            try InputFile.check(file)
        } else {
            try InputFile.check(file)
            format = try ImportCommand.format(option: nil, path: file)
            mapping = try ImportCommand.mapping(map, format: format)
        }
        // First the whole file is checked, with nothing opened for writing.
        var checker = SessionFileParser(format: format, mapping: mapping, file: file)
        let now = env.now()
        // Sessions longer than a day are kept, each said once on standard error with its line
        // after the import (nothing is said when the file is refused: only the error).
        var long: [(line: Int, seconds: Int64)] = []
        let checking = ProgressMeter(verb: "Checking", unit: .bytes, total: ProgressMeter.fileSize(file), quiet: quiet, environment: env.environment, checkEvery: 1)
        let records = ProgressMeter.Tally()
        let check: SessionFileParser.Emit = { [file, allowFuture, calendar = env.calendar] record, line in
            records.count += 1
            try SessionTimes.checkEnded(record, line: line, file: file, now: now, calendar: calendar, allowFuture: allowFuture)
            if record.isLongerThanADay { long.append((line, record.end - record.start)) }
        }
        try ChunkedFile.read(file) { chunk in
            try checker.feed(chunk, check)
            checking.advance(by: chunk.count)
        }
        try checker.finish(check)
        checking.finish()
        // Then it is read again inside one transaction (memory stays flat whatever its size;
        // anything that fails now still rolls everything back).
        let db = try env.openDatabase()
        let path = file
        let importing = ProgressMeter(verb: "Importing", unit: .items("sessions"), total: records.count, quiet: quiet, environment: env.environment)
        // Another tracker's interval is one span of time: imported again under other `--map`
        // rules it is already present, not more time.
        let foreign = if case .foreign = format { true } else { false }
        let summary = try db.importSessions(now: now, sameTimesArePresent: foreign) { insert in
            var parser = SessionFileParser(format: format, mapping: mapping, file: path)
            try ChunkedFile.read(path) { chunk in try parser.feed(chunk) { record, _ in try insert(record); importing.advance() } }
            try parser.finish { record, _ in try insert(record); importing.advance() }
        }
        importing.finish()
        for warning in ImportCommand.longWarnings(long, file: file) { env.console.note(warning) }
        env.console.line(ImportCommand.sentence(summary, skipped: checker.skipped, format: format))
    }

    /// The most long-session warnings one import prints; the rest are counted in one more line.
    static let longWarningLimit = 20

    /// "warning: FILE:12: a session of 27h 30m (a forgotten timer?): imported as one session",
    /// one per session longer than a day, up to `longWarningLimit`.
    static func longWarnings(_ long: [(line: Int, seconds: Int64)], file: String) -> [DisplayText] {
        var lines: [DisplayText] = long.prefix(longWarningLimit).map { "warning: \(file):\($0.line): \(SessionRecord.longSessionWarning(seconds: $0.seconds))" }
        if long.count > longWarningLimit {
            let more = long.count - longWarningLimit
            lines.append("warning: \(file): \(more) more session\(more == 1 ? "" : "s") longer than a day, each imported as one session")
        }
        return lines
    }

    /// `--format`, else the file's name (and, for `.json`, its first bytes).
    static func format(option: String?, path: String) throws(FocusError) -> ImportFormat {
        if let option {
            guard let format = ImportFormat(name: option) else {
                throw .invalidValue(what: "format", value: option, expected: ImportFormat.names)
            }
            return format
        }
        guard let format = ImportFormat.detect(path: path, head: ChunkedFile.head(path)) else {
            throw .usage("cannot tell the format of \(path) from its name; name it .jsonl or .csv, or pass --format (\(ImportFormat.names)).")
        }
        return format
    }

    /// The format when `--format` or the file's name alone says it (not a .json file, which is
    /// told apart by its first bytes); nil when the file must be looked at.
    static func formatFromCommandLine(option: String?, path: String) throws(FocusError) -> ImportFormat? {
        if option != nil { return try format(option: option, path: path) }
        guard !path.lowercased().hasSuffix(".json") else { return nil }
        return ImportFormat.detect(path: path, head: [])
    }

    static func mapping(_ option: String?, format: ImportFormat) throws(FocusError) -> ImportMapping? {
        guard let option else { return nil }
        guard case let .foreign(foreign) = format else {
            throw .usage("--map applies to timewarrior, watson and openpomodoro files; a jsonl or csv file names its task and subtask itself.")
        }
        return try ImportMapping.parse(option, format: foreign)
    }

    /// "Imported 12 sessions (3 already present), created 1 task and 2 subtasks." and, when
    /// some entries were left out, "Skipped 1 interval still being tracked."
    static func sentence(_ s: ImportSummary, skipped: Int = 0, format: ImportFormat = .interchange(.jsonl)) -> DisplayText {
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var text: DisplayText = "Imported \(count(s.imported, "session")) (\(s.alreadyPresent) already present), "
        text += "created \(count(s.createdTasks, "task")) and \(count(s.createdSubtasks, "subtask"))."
        if skipped > 0, case let .foreign(f) = format {
            text += " Skipped \(count(skipped, f.entryName)) still being tracked (no end yet)."
        }
        return text
    }
}
