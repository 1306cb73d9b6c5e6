import ArgumentParser
import FocusCore

/// `focus ui`: the full-screen view (README, "The full-screen view").
package struct UICommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "ui", abstract: "The full-screen view: Today, Week, Tasks, Timer, Stats, live.",
        discussion: """
            Keys: 1-5 screens, j/k move, [ ] earlier and later, Enter opens a day of the week, \
            ? lists every key, q quits. Changes other focus commands make appear at once.
            """)

    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        guard UITerminal.isUsable(environment: env.environment) else {
            throw FocusError.usage("focus ui needs a terminal; use `focus agenda` or `focus status --follow` instead.")
        }
        let db = try env.openDatabase()
        try UIRunner(env: env, db: db).run()
    }
}
