import ArgumentParser
import FocusCore
import FocusStorage
import FocusText
import FoundationEssentials

/// `focus continue [--duration D | --open] ...`: the last session's task or subtask again.
package struct ContinueCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "continue",
        abstract: "Start the last session's task or subtask again.",
        discussion: """
            The last session is the one that ended last. It takes the options of \
            start; without --tag it keeps the last session's tags.

            50 minutes on it: `focus continue --duration 50m`
            Counting up until stopped: `focus continue --open`
            """)

    @OptionGroup var session: SessionOptions
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        // Signals first: one sent as soon as this process exists stops the session it begins.
        let signals = SignalRouter()
        signals.start()
        do {
            try await run(in: env, signals: signals)
        } catch {
            signals.stop()
            throw error
        }
    }

    private func run(in env: FocusEnvironment, signals: SignalRouter) async throws {
        let plan = try session.plan(config: env.config)
        let tags = try SessionTags.names(session.tags)
        let db = try env.openDatabase()
        guard let last = try db.lastEndedSession() else {
            throw FocusError.usage("nothing to continue: no session recorded yet. Start one with `focus start \"Thesis/Chapter 2\"`.")
        }
        let lastWork: PathTarget = last.log.subtaskID.map { .subtask(taskID: last.log.taskID, id: $0) } ?? .task(id: last.log.taskID)
        let target = try SeriesTarget.continuing(lastWork, db: db, env: env)
        let catalog = try db.catalog()
        env.console.note("continuing \(catalog.path(of: target)).")
        try await LiveRun(env: env, db: db, target: target, blockID: nil, catalog: catalog, plan: plan, signals: signals,
                          tags: tags.isEmpty ? last.log.tags : tags).run()
    }
}
