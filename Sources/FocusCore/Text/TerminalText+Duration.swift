import FocusText
import FoundationEssentials

extension TerminalText {
    /// `1h 30m`, `2h`, `45m`, `0m`; seconds only under a minute (`42s`). Minutes are rounded
    /// to nearest.
    package static func duration(_ seconds: Int) -> String {
        seconds <= 0 ? "0m" : DurationParser.format(seconds)
    }
}
