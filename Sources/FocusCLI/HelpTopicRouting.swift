import ArgumentParser
import FocusCore
import FocusRendering
import FocusText

/// `focus help TOPIC` beside `focus help COMMAND` (README, "Reference in the terminal"): a
/// topic's text, the topics after the commands in `focus help`, the topics a command's help
/// points to, and a suggestion for a name that is neither (exit 64).
enum HelpTopicRouting {
    enum Answer: Equatable {
        case topic(String)
        case unknown(String)
        /// `help sessions more`: a topic with words after it.
        case extra(topic: String, word: String)
    }

    /// `help NAME` where NAME is no command: its topic, or unknown. Anything else is the
    /// parser's (`help task add`, `help start`).
    static func answer(_ arguments: [String]) -> Answer? {
        guard arguments.count >= 2, arguments[0] == "help" else { return nil }
        let name = arguments[1]
        guard !name.hasPrefix("-"), !commandNames.contains(name) else { return nil }
        guard HelpTopic.named(name) != nil else { return .unknown(name) }
        return arguments.count == 2 ? .topic(name) : .extra(topic: name, word: arguments[2])
    }

    /// Shows the topic or reports the unknown name; nil when the command line is not for a topic.
    static func run(_ arguments: [String], console: any Console) -> Int32? {
        switch answer(arguments) {
        case nil:
            return nil
        case let .topic(name):
            guard let topic = HelpTopic.named(name) else { return nil }
            console.show(DisplayText(trusted: HelpTopicText.page(topic)))
            return 0
        case let .unknown(name):
            console.error("\(unknownSentence(name))")
            return 64
        case let .extra(topic, word):
            let shown = DisplayText(word).string
            console.error("`focus help` shows one topic; '\(shown)' after '\(topic)' is one word too many. `focus help \(topic.lowercased())` shows it.")
            return 64
        }
    }

    /// "unknown help topic 'sesions'. Did you mean `focus help sessions`? ..." (the nearest
    /// topic or command, as a mistyped command gets).
    static func unknownSentence(_ name: String) -> String {
        let names = HelpTopic.all.map(\.name) + visibleCommandNames
        let typed = DisplayText(name).string
        var sentence = "unknown help topic or command '\(typed)'."
        if let best = NearestNames.closest(to: name, among: names).first {
            sentence += " Did you mean `focus help \(best)`?"
        }
        return sentence + " `focus help` lists the commands and the topics."
    }

    /// What follows the parser's help: the topics under `focus help` (and `focus --help`), the
    /// topics a command's help points to under `focus help start` and `focus start --help`.
    static func appendix(forHelp arguments: [String]) -> String {
        let words = arguments.filter { $0 != "--help" && $0 != "-h" && $0 != "help" }
        if words.isEmpty, arguments.count <= 1 { return "\n" + HelpTopicText.list() }
        guard words.count == 1, arguments.count == 2, let see = HelpTopicText.seeAlso(command: words[0]) else { return "" }
        return "\n" + see
    }

    static var commandNames: Set<String> {
        Set(RootCommand.configuration.subcommands.map { $0._commandName } + ["help"])
    }

    static var visibleCommandNames: [String] {
        RootCommand.configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
    }
}
