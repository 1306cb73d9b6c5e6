import ArgumentParser
import FocusCLI
import Testing

/// `RootCommand.parsingWithoutCompletionProbe` skips ArgumentParser's completion-script probe
/// through an underscored configuration property (the package pins the parser's minor version
/// for it). Whatever a person types must parse to the same command, or fail with the same
/// message, with the probe and without it.
@Suite struct CompletionProbeTests {
    static let commandLines: [[String]] = [
        ["status"], ["status", "--json"], ["status", "--format", "{path} {remaining}"],
        ["start", "Thesis/Chapter 2", "--duration", "50m", "--no-break"], ["start"],
        ["task", "add", "Thesis/Chapter 4", "--estimate", "6h", "--due", "2026-11-27 17:00", "--span", "50m"],
        ["task", "list", "--json"], ["task", "edit", "Thesis", "--title", "Thesis 2"], ["task", "rm", "#3", "--force"],
        ["stats", "--last", "7", "--json"], ["stats", "--from", "2026-11-01", "--to", "2026-11-30", "--csv"],
        ["log", "--last", "3"], ["log", "add", "Thesis", "--start", "2026-11-20 09:00", "--duration", "25m"],
        ["calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-23", "--json"], ["calendar", "list"],
        ["plan", "--dry-run"], ["agenda", "2026-11-23"], ["config", "set", "work", "50m"], ["export", "--format", "csv"],
        // Mistakes: the same message either way.
        ["stats", "--last"], ["stats", "--bogus"], ["task", "add"], ["nope"], ["task", "frobnicate"],
        ["start", "--duration"], ["log", "--last", "x"], ["status", "--json", "extra"],
    ]

    @Test(arguments: commandLines)
    func parsesTheSameWithAndWithoutTheProbe(_ arguments: [String]) {
        let probeless = outcome { try RootCommand.parsingWithoutCompletionProbe(arguments) }
        let standard = outcome { try RootCommand.parseAsRoot(arguments) }
        #expect(probeless == standard)
    }

    private func outcome(_ parse: () throws -> any ParsableCommand) -> String {
        do {
            let command = try parse()
            return "ok \(type(of: command)) \(String(describing: command))"
        } catch {
            return "error \(RootCommand.exitCode(for: error).rawValue) \(RootCommand.message(for: error))"
        }
    }
}
