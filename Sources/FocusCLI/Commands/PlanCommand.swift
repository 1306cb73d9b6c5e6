import ArgumentParser
import FocusCore
import FocusStorage

/// `focus plan [--dry-run] [--json]`.
package struct PlanCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "plan", abstract: "Plan work blocks into free time before due dates, and list what is at risk.",
        discussion: """
            Past blocks are kept and settled: done (fully worked), partial, or missed. Future planned \
            blocks are replaced by a new plan for every open subtask with an estimate and a due date. \
            This also runs by itself after sessions, task changes and calendar imports.
            """)

    @Flag(help: "Show the new plan without saving it.")
    var dryRun = false
    @Flag(help: "Print JSON for scripts.")
    var json = false
    @OptionGroup package var global: GlobalOptions

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        let db = try env.openDatabase()
        let outcome = try Planning.replan(env, db, save: !dryRun)
        if json {
            env.console.line(JSON.object(PlanRenderer.json(blocks: outcome.blocks, atRisk: outcome.atRisk, overdue: outcome.overdue, undated: outcome.undated)).rendered())
        } else {
            env.console.out(PlanRenderer.text(outcome, dryRun: dryRun, calendar: env.calendar, now: env.now()))
        }
        // The plan in a published calendar follows the saved one (README, "Your real calendar").
        if !dryRun {
            for line in PlanPublisher.publishAll(env: env, db: db, login: CalDAVLogin(mayPrompt: false)) {
                if line.hasPrefix("warning: ") { env.console.note(line) } else if !json { env.console.line(line) }
            }
        }
    }
}
