import ArgumentParser

/// `focus calendar ...`: imported calendars, their busy time, and the plan as a calendar file.
package struct CalendarCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Import calendars (.ics) or subscribe to feeds, list and remove them, show busy time, export the plan.",
        subcommands: [
            CalendarImportCommand.self, CalendarSubscribeCommand.self, CalendarConnectCommand.self, CalendarRefreshCommand.self, CalendarPublishCommand.self, CalendarListCommand.self, CalendarRmCommand.self,
            CalendarBusyCommand.self, CalendarExportCommand.self,
        ]
    )
    package init() {}
}
