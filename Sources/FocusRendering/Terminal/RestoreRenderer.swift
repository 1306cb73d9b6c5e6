import FocusCore
import FocusText
import FoundationEssentials

/// What `focus restore` says (README, "Backups"): what was restored, the stored settings the
/// file brings in, the stored numbers out of range. Results for standard output, warnings (one
/// line each, without the `focus: ` the console adds) for standard error. Pure.
package enum RestoreRenderer {
    /// `Restored PATH from FILE (N sessions, schema V).`, and where the database it replaced is.
    package static func restored(path: String, from file: String, sessions n: Int, schema: Int, aside: String?) -> DisplayText {
        var out: DisplayText = "Restored \(path) from \(file) (\(n) session\(n == 1 ? "" : "s"), schema \(schema)).\n"
        if let aside { out += "The database it replaced is kept as \(aside).\n" }
        return out
    }

    /// The accounts and feeds the file brings in, each marked ✓ when this user set it up on this
    /// machine (`trusted` holds their digests), else !; and the warning that focus will not use
    /// those marked ! (README, "What focus promises"). Nothing when there is none.
    package static func settings(_ settings: [StoredSetting], trusted: Set<String>) -> (lines: DisplayText, warning: DisplayText?) {
        guard !settings.isEmpty else { return ("", nil) }
        let runs = settings.contains { $0.passwordCommand != nil } ? " or run a password command" : ""
        var out: DisplayText = "It brings in \(settings.count) calendar setting\(settings.count == 1 ? "" : "s") that contact a server\(runs):\n"
        for setting in settings {
            let known = trusted.contains(setting.digest)
            out += "  \(known ? "✓" : "!") \(setting.summary)\(known ? " (set up by you on this machine)" : ": not set up by you on this machine")\n"
        }
        let foreign = settings.filter { !trusted.contains($0.digest) }.count
        guard foreign > 0 else { return (out, nil) }
        let those = foreign == 1 ? "that one" : "those \(foreign)"
        return (out, "warning: focus will not use \(those) marked ! until you say yes: `focus calendar refresh` at a terminal asks (`focus doctor` lists them).")
    }

    /// The warnings about stored numbers out of range (restored all the same, read clamped): one,
    /// then each value listed, then how many more.
    package static func outOfRange(total n: Int, listed: [String]) -> [DisplayText] {
        guard n > 0 else { return [] }
        var lines: [DisplayText] = ["warning: \(n) stored value\(n == 1 ? " is" : "s are") out of range and read clamped; `focus doctor` lists \(n == 1 ? "it" : "them"):"]
        lines += listed.map { "warning:   \($0)" }
        if n > listed.count { lines.append("warning:   ... and \(n - listed.count) more") }
        return lines
    }
}
