import ArgumentParser
import FocusCore
import FocusRendering
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `focus generate-man` (hidden): prints the manual page, focus(1), built from the commands'
/// help. `make install` runs it. A plain command, unlike the others: a build step must not
/// depend on the person's config or database, so it takes no environment.
package struct GenerateManCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "generate-man", abstract: "Print the manual page (roff) built from the commands' help.",
        shouldDisplay: false)

    package init() {}

    package func run() throws {
        // Through the console's writer, so a failed write is noticed (exit 74) like any other.
        StandardConsole.write(try GenerateManCommand.page(), to: STDOUT_FILENO)
    }

    /// The page, from ArgumentParser's own description of the command tree.
    static func page() throws -> String {
        let dump: String
        do {
            _ = try RootCommand.parseAsRoot(["--experimental-dump-help"])
            throw FocusError.usage("internal: the command tree could not be described")
        } catch let error as FocusError {
            throw error
        } catch {
            dump = RootCommand.fullMessage(for: error)
        }
        return ManPageRenderer.render(try CommandDump.decode(dump), version: FocusVersion.text)
    }
}
