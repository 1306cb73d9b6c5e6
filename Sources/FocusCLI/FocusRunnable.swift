import ArgumentParser
import FocusCore

/// A command that runs against an injected environment (live, or a test one).
package protocol FocusRunnable: ParsableCommand {
    /// `--db` and `--tz`, which every command takes, declared on each command with
    /// `GlobalOptions`' help rather than as an `@OptionGroup` of it: each group is one more type
    /// the parser reflects, decodes and checks at run time, about 1 M instructions a command.
    var db: String? { get }
    var tz: String? { get }
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

    /// The options every command takes, as one value.
    package var global: GlobalOptions { GlobalOptions(db: db, tz: tz) }

    /// Hands the parsed command to `FocusMain`, which builds the environment and calls
    /// `run(in:)`. Called on the parser's `any ParsableCommand` through its own witness table,
    /// this finds a runnable command without asking the runtime whether the parsed type conforms
    /// to `FocusRunnable` (a cast that scans every conformance record in the binary).
    package mutating func run() throws {
        throw SelectedCommand(command: self)
    }
}

/// What `FocusRunnable.run()` throws: the command `FocusMain` is to run.
struct SelectedCommand: Error, @unchecked Sendable {
    /// Thrown and caught on the same task, never shared.
    let command: any FocusRunnable
}
