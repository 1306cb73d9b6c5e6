import ArgumentParser

/// `focus`: the root of the command tree. Adding a subcommand is one line here.
package struct RootCommand: ParsableCommand {
    package static var configuration: CommandConfiguration {
        // See `parsingWithoutCompletionProbe`: the same tree, told it is a plugin of a host
        // command, which is what makes the parser skip its completion-script probe.
        probeless ? probelessConfiguration : standardConfiguration
    }

    private static let standardConfiguration = CommandConfiguration(
        commandName: "focus",
        abstract: "A Pomodoro timer and time log that plans work into your calendar.",
        discussion: """
            Paths name work: `Thesis` (a task), `Thesis/Chapter 2` (a subtask), a unique prefix, \
            or `#ID`. Durations: 25m, 1h30m, 90s, 1.5h, or minutes. Dates: 2026-11-22.
            """,
        version: FocusVersion.text,
        subcommands: [
            StartCommand.self,
            ContinueCommand.self,
            StatusCommand.self,
            StopCommand.self,
            PauseCommand.self,
            ResumeCommand.self,
            LogCommand.self,
            DoctorCommand.self,
            BackupCommand.self,
            RestoreCommand.self,
            TaskCommand.self,
            PlanCommand.self,
            AgendaCommand.self,
            CalendarCommand.self,
            SyncCommand.self,
            ConfigCommand.self,
            StatsCommand.self,
            ReportCommand.self,
            ImportCommand.self,
            ExportCommand.self,
            DaemonCommand.self,
            GenerateManCommand.self,
            UICommand.self,
        ]
    )

    private static let probelessConfiguration: CommandConfiguration = {
        var configuration = standardConfiguration
        configuration._superCommandName = ""
        return configuration
    }()

    @TaskLocal private static var probeless = false

    /// Parses `arguments` as `parseAsRoot` does, without the parser's probe for
    /// `--generate-completion-script` when no argument asks for it or for help.
    ///
    /// Before every parse the parser tries the whole command line twice more as the
    /// completion-script command; building those two parsers by reflection cost 8% of the
    /// instructions of `focus stats` and of every other command. It skips that probe for a
    /// command that has a host ("super") command name; the name is only ever read to write
    /// help and usage text, which is why the probe is skipped only when no argument could ask
    /// for help, and only inside the parse itself (error messages are written afterwards,
    /// from the standard configuration).
    package static func parsingWithoutCompletionProbe(_ arguments: [String]) throws -> any ParsableCommand {
        let mayNeedHelpOrScripts = arguments.contains { a in
            a.hasPrefix("--generate-completion-script") || a.hasPrefix("---") || a == "-h" || a == "--help"
                || a == "help" || a.hasPrefix("--experimental") || a == "--version"
        }
        if mayNeedHelpOrScripts { return try parseAsRoot(arguments) }
        return try $probeless.withValue(true) { try parseAsRoot(arguments) }
    }

    package init() {}
}
