import ArgumentParser
import FocusCore

/// A command that runs against an injected environment (live, or a test one).
package protocol FocusRunnable: ParsableCommand {
    var global: GlobalOptions { get }
    func run(in env: FocusEnvironment) async throws
    /// Whether the plan is made again after the command when it changed what the planner reads
    /// (true for every command but those that replace the database file itself).
    static var replansAfterChanges: Bool { get }
    /// Whether the command only reads the database: then a database that does not exist yet is
    /// read as an empty one, and neither the file nor its directory is created (README, Files).
    /// The commands that only read are listed in `ReadOnlyCommands.swift`.
    var readsOnly: Bool { get }
}

extension FocusRunnable {
    package static var replansAfterChanges: Bool { true }
    package var readsOnly: Bool { false }

    /// Never called: `FocusMain` builds the environment and calls `run(in:)`.
    package mutating func run() throws {
        throw FocusError.usage("internal: \(Self._commandName) must run through FocusMain")
    }
}
