import ArgumentParser

/// `focus`: the root of the command tree. Adding a subcommand is one line here.
package struct RootCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: "A Pomodoro timer and time log that plans work into your calendar.",
        discussion: """
            Paths name work: `Thesis` (a task), `Thesis/Chapter 2` (a subtask), a unique prefix, \
            or `#ID`. Durations: 25m, 1h30m, 90s, 1.5h, or minutes. Dates: 2026-11-22.
            """,
        version: FocusVersion.text,
        subcommands: [
            StartCommand.self,
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
            ConfigCommand.self,
            StatsCommand.self,
            ReportCommand.self,
            ImportCommand.self,
            ExportCommand.self,
            DaemonCommand.self,
            GenerateManCommand.self,
        ]
    )

    package init() {}
}
