import ArgumentParser
import FocusCore

/// A command that runs against an injected environment (live, or a test one).
package protocol FocusRunnable: ParsableCommand {
    var global: GlobalOptions { get }
    func run(in env: FocusEnvironment) async throws
    /// Whether the plan is made again after the command when it changed what the planner reads
    /// (true for every command but those that replace the database file itself).
    static var replansAfterChanges: Bool { get }
}

extension FocusRunnable {
    package static var replansAfterChanges: Bool { true }

    /// Never called: `FocusMain` builds the environment and calls `run(in:)`.
    package mutating func run() throws {
        throw FocusError.usage("internal: \(Self._commandName) must run through FocusMain")
    }
}
