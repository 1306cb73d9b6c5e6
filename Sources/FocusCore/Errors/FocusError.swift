import FoundationEssentials

/// Every failure a person can meet, each with a sentence that names the thing and the next step.
/// The CLI prints `focus: error: <description>` and exits with `exitCode`.
package enum FocusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A flag or argument value that does not parse (`--duration 25x`).
    case invalidValue(what: String, value: String, expected: String)
    /// The command line itself is wrong in a way the parser did not catch.
    case usage(String)
    /// No task or subtask matches the path given.
    case notFound(path: String, suggestions: [String])
    /// A prefix matches more than one task or subtask.
    case ambiguous(path: String, candidates: [String])
    /// A task (or a subtask within its task) with this title already exists.
    case alreadyExists(path: String)
    /// A task with logged time cannot be removed without `--force`.
    case hasHistory(path: String, sessions: Int)
    /// A file given as input does not parse (line 1-based when known).
    case badInput(file: String, line: Int?, reason: String)
    /// The database file is not a focus/SQLite database, or is damaged.
    case corruptDatabase(path: String, reason: String)
    /// The database was written by a newer focus.
    case newerSchema(path: String)
    /// The database stayed locked by another process after waiting.
    case databaseLocked(path: String)
    /// A file or directory could not be written, read or opened (`access` says which, for the
    /// sentence: "cannot write …", "cannot read …", "cannot open …").
    case io(path: String, reason: String, access: IOAccess = .write)
    /// An input file named on the command line does not exist, or is a directory, FIFO,
    /// socket or device where a regular file is needed (exit 66, sysexits' EX_NOINPUT).
    case noInputFile(path: String, reason: String)
    /// An input file exists but cannot be read (permissions, a failing disk).
    case unreadable(path: String, reason: String)
    /// Standard output or error could not be written: the output is incomplete (exit 74; a
    /// reader that went away is not announced).
    case output(ConsoleWriteFailure)
    /// Something needed is not there (a running session, a second session, a service).
    case unavailable(String)
    /// Work that cannot fit before its due date (refused unless `--force`).
    case doesNotFit(String)
    /// A log entry id that does not exist.
    case noSuchLog(id: Int64)
    /// A session of this task or subtask starting at this moment is already recorded (a session
    /// is one per task, subtask and start). `path` and `start` are nil when not known.
    case duplicateSession(path: String?, start: String?)
    /// A change the database's own rules refuse (a CHECK, NOT NULL, UNIQUE or foreign key), the
    /// rule said in words: reached only past the commands' checks (a hand-edited database).
    case storeRule(String)

    /// Exit codes of the README's "Exit codes" table (sysexits(3)).
    package var exitCode: Int32 {
        switch self {
        case .invalidValue, .usage, .notFound, .ambiguous, .alreadyExists, .hasHistory, .noSuchLog, .duplicateSession: return 64
        case .badInput, .doesNotFit, .storeRule: return 65
        case .unavailable: return 69
        case .noInputFile: return 66
        case .corruptDatabase, .newerSchema, .databaseLocked, .io, .unreadable, .output: return 74
        }
    }

    /// "no task matches 'x'. Did you mean 'y'? <fix>": the sentence of `notFound`, with the fix
    /// that suits the command (`focus start` offers to add the task).
    package static func noMatch(_ path: String, suggestions: [String], fix: String) -> String {
        var s = "no task matches '\(path)'."
        if !suggestions.isEmpty {
            s += " Did you mean " + suggestions.map { "'\($0)'" }.joined(separator: " or ") + "?"
        }
        return s + " " + fix
    }

    /// `focus.sqlite.backup-DATE`, for the database at `path`.
    static func backupPattern(_ path: String) -> String {
        (URL(fileURLWithPath: path).lastPathComponent) + ".backup-DATE"
    }

    package var description: String {
        switch self {
        case let .invalidValue(what, value, expected):
            return "invalid \(what) '\(value)': expected \(expected)."
        case let .usage(message):
            return message
        case let .notFound(path, suggestions):
            return FocusError.noMatch(path, suggestions: suggestions, fix: "Run `focus task list` to see all.")
        case let .ambiguous(path, candidates):
            let shown = candidates.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
            let more = candidates.count > 5 ? " and \(candidates.count - 5) more" : ""
            return "'\(path)' matches \(candidates.count) tasks: \(shown)\(more). Type more of the name, or use #ID."
        case let .alreadyExists(path):
            return "'\(path)' already exists. Use `\(Quoted.command("focus task edit", path))` to change it."
        case let .hasHistory(path, sessions):
            return "'\(path)' has \(sessions) logged session\(sessions == 1 ? "" : "s"). Run `\(Quoted.command("focus task rm", path, then: "--force"))` to delete it with its history, or `\(Quoted.command("focus task done", path))` to keep it."
        case let .badInput(file, line, reason):
            if let line { return "\(file):\(line): \(reason)" }
            return "\(file): \(reason)"
        case let .corruptDatabase(path, reason):
            return "\(path) is not a usable focus database (\(reason)). It was left untouched; restore a backup with `focus restore FILE` (daily ones are kept beside it as \(FocusError.backupPattern(path))), or pass --db to use another file."
        case let .newerSchema(path):
            return "\(path) was written by a newer version of focus. It was left untouched; upgrade focus to open it, or restore an older backup with `focus restore FILE`."
        case let .databaseLocked(path):
            return "\(path) is locked by another process and stayed locked. Try again in a moment."
        case let .io(path, reason, access):
            return "cannot \(access.rawValue) \(path): \(reason)."
        case let .noInputFile(path, reason), let .unreadable(path, reason):
            return "cannot read \(path): \(reason)."
        case let .output(failure):
            return failure.sentence
        case let .unavailable(message):
            return message
        case let .doesNotFit(message):
            return message
        case let .noSuchLog(id):
            return "no session with id \(id). Run `focus log` to see ids."
        case let .duplicateSession(path, start):
            let what = path.map { "a session of \($0)" } ?? "a session of that task"
            let when = start.map { "starting \($0)" } ?? "starting at that moment"
            return "\(what) \(when) is already recorded. Run `focus log` to see it; move this one to another start or remove the other first."
        case let .storeRule(rule):
            return "the database refused the change: \(rule). Nothing was written; run `focus doctor` if the database was edited by hand."
        }
    }
}

/// What an I/O failure was doing, for its sentence.
package enum IOAccess: String, Sendable {
    case read, write, open
}
