import ArgumentParser

/// Options every command takes. Each command declares the two itself (`FocusRunnable`), with
/// the help and completion below, so that the help reads the same everywhere:
///
///     @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
///     @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?
package struct GlobalOptions: ParsableArguments, Sendable {
    package static let dbHelp = ArgumentHelp("Database file (default: $FOCUS_DB, else $XDG_DATA_HOME/focus/focus.sqlite).", valueName: "path")
    package static let dbCompletion = CompletionKind.file(extensions: ["sqlite", "db"])
    package static let tzHelp = ArgumentHelp("Time zone for local days, an IANA name (default: $TZ, else the system's).", valueName: "zone")
    package static let tzCompletion = Completions.zones

    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion)
    package var db: String?

    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion)
    package var tz: String?

    package init() {}

    package init(db: String?, tz: String?) {
        self.db = db
        self.tz = tz
    }
}
