import ArgumentParser
import FocusCore
import FocusRendering
import FocusStorage
import FocusText
import FoundationEssentials

/// `focus log ...`: the time log.
package struct LogCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "log", abstract: "List, add, edit and remove recorded sessions.",
        subcommands: [LogListCommand.self, LogAddCommand.self, LogEditCommand.self, LogRmCommand.self],
        defaultSubcommand: LogListCommand.self)
    package init() {}
}
