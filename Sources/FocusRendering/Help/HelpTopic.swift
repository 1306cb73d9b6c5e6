import FocusText
import FoundationEssentials

/// One workflow's reference, `focus help NAME` (README: each workflow's section ends with the
/// topic that holds the rest). Its text lives in `HelpTopic+Texts.swift`; the terminal shows it
/// as it is written and the manual page prints it as a section (`ManPageRenderer`).
package struct HelpTopic: Sendable {
    /// What is typed after `focus help`: lower case, words joined by `-`.
    package var name: String
    /// The heading: the README section the text came from.
    package var title: String
    /// One line for the list `focus help` prints.
    package var summary: String
    /// The commands whose use the topic explains: their help points to it.
    package var commands: [String]
    /// Plain text within 80 columns: paragraphs, `- ` lists, examples indented two spaces,
    /// sub-headings underlined with `-`.
    package var text: String

    package static func named(_ name: String) -> HelpTopic? {
        let key = name.lowercased()
        return all.first { $0.name == key }
    }

    /// The topics whose text explains `command` (`focus help sync` points to two-machines).
    package static func about(command: String) -> [HelpTopic] {
        all.filter { $0.commands.contains(command) }
    }
}

/// `focus help` in the terminal: the topics listed, one topic shown. No colour: the text is the
/// same on a terminal, in a pipe and in the manual.
package enum HelpTopicText {
    /// The list that follows the commands in `focus help`.
    package static func list(_ topics: [HelpTopic] = HelpTopic.all) -> String {
        let width = topics.map(\.name.count).max() ?? 0
        var lines = ["TOPICS:"]
        for topic in topics {
            lines.append("  " + topic.name + TerminalText.spaces(width - topic.name.count + 2) + topic.summary)
        }
        lines += ["", "  See 'focus help <topic>' for a workflow's reference; `man focus` has them all."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One topic, as `focus help NAME` prints it.
    package static func page(_ topic: HelpTopic) -> String {
        let heading = topic.title.uppercased() + " (focus help " + topic.name + ")"
        var out = heading + "\n\n" + topic.text + "\n"
        if !topic.commands.isEmpty {
            out += "\n" + wrapped("The commands' own help: " + topic.commands.map { "focus help " + $0 }.joined(separator: ", ") + ".") + "\n"
        }
        out += "Every topic: focus help; all of them in one page: man focus.\n"
        return out
    }

    /// Words filled into lines of at most 78 columns.
    static func wrapped(_ text: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > 78 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The line under a command's help that names the topics explaining it.
    package static func seeAlso(command: String) -> String? {
        let topics = HelpTopic.about(command: command)
        guard !topics.isEmpty else { return nil }
        return "SEE ALSO:\n  " + topics.map { "focus help " + $0.name }.joined(separator: ", ") + ", man focus\n"
    }
}
