import ArgumentParser

/// Options every command takes.
package struct GlobalOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: ArgumentHelp("Database file (default: $FOCUS_DB, else $XDG_DATA_HOME/focus/focus.sqlite).", valueName: "path"))
    package var db: String?

    @Option(name: .long, help: ArgumentHelp("Time zone for local days, an IANA name (default: $TZ, else the system's).", valueName: "zone"))
    package var tz: String?

    package init() {}
}
