import FocusText
import ArgumentParser
import FocusCore
import FocusStorage

/// `focus calendar rm NAME`.
package struct CalendarRmCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove an imported calendar and its busy time.")

    @Argument(help: ArgumentHelp("The calendar's name (see `focus calendar list`).", valueName: "name"), completion: Completions.calendars)
    var name: String
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let removed = try db.removeCalendar(named: name)
        guard let removed else {
            throw FocusError.usage("no calendar is named '\(name)'. Run `focus calendar list` to see them.")
        }
        env.console.line("Removed calendar \(removed).")
    }
}
