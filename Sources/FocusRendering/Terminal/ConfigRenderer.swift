import FocusCore
import FocusText
import FoundationEssentials

/// `focus config list`: every setting, its value and what it means, or the settings as JSON. Pure.
package enum ConfigRenderer {
    /// `{"work": "25m", …}`, in the table's order.
    package static func json(_ settings: [(key: String, value: String)]) -> DisplayText {
        DisplayText(JSON.object(settings.map { ($0.key, .string($0.value)) }))
    }

    /// `config list`: the settings' lines, an empty line, and the file they are kept in.
    package static func listing(_ settings: [(key: String, value: String, help: String)], file: String) -> DisplayText {
        var out: DisplayText = ""
        for line in lines(settings) {
            out += line
            out += "\n"
        }
        out += "\nFile: \(file)\n"
        return out
    }

    /// One line per setting: keys padded to the longest key, values as wide as the widest
    /// (`12:00-13:00`, at least 10), so the help lines start in one column.
    package static func lines(_ settings: [(key: String, value: String, help: String)]) -> [DisplayText] {
        let width = max(10, settings.map { DisplayText($0.value).string.count }.max() ?? 0)
        let keyWidth = (settings.map(\.key.count).max() ?? 12) + 2
        return settings.map { entry in
            "\(TerminalText.pad(entry.key, keyWidth))\(TerminalText.pad(DisplayText(entry.value).string, width))  \(entry.help)"
        }
    }
}
