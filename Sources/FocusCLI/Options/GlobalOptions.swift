import ArgumentParser

/// Options every command takes.
package struct GlobalOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: ArgumentHelp("Database file (default: $FOCUS_DB, else $XDG_DATA_HOME/focus/focus.sqlite).", valueName: "path"), completion: .file(extensions: ["sqlite", "db"]))
    package var db: String?

    @Option(name: .long, help: ArgumentHelp("Time zone for local days, an IANA name (default: $TZ, else the system's).", valueName: "zone"), completion: Completions.zones)
    package var tz: String?

    package init() {}
}
