import ArgumentParser
import FocusCore

/// A command that runs against an injected environment (live, or a test one).
package protocol FocusRunnable: ParsableCommand {
    var global: GlobalOptions { get }
    func run(in env: FocusEnvironment) async throws
}

extension FocusRunnable {
    /// Never called: `FocusMain` builds the environment and calls `run(in:)`.
    package mutating func run() throws {
        throw FocusError.usage("internal: \(Self._commandName) must run through FocusMain")
    }
}
