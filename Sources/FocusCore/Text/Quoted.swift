/// Text quoted so that a person can paste it into a POSIX shell as one word (sh(1), "Quoting"):
/// messages that suggest a command quote the paths in it.
package enum Quoted {
    /// `Thesis` as is; `"Thesis/Chapter 2"` in double quotes; text with `"`, `$`, `` ` ``, `\`
    /// or `!` in single quotes (a `'` inside written `'\''`).
    package static func shell(_ text: String) -> String {
        // A word that starts with `#` is a comment to the shell, and one that starts with `=` is
        // expanded by zsh: those are quoted too.
        if !text.isEmpty, text.unicodeScalars.allSatisfy(isPlain), !"#=".contains(text.first!) { return text }
        if !text.unicodeScalars.contains(where: { "\"$`\\!".unicodeScalars.contains($0) }) { return "\"" + text + "\"" }
        return "'" + text.replacingAll("'", with: "'\\''") + "'"
    }

    /// `words` followed by `operand` (quoted) and `options`, as a line a person can paste: an
    /// operand that starts with `-` would be read as an option, so the options come first and
    /// `--` ends them (POSIX, Utility Syntax Guidelines, guideline 10):
    /// `focus task rm --force -- -draft`, else `focus task rm Draft --force`.
    package static func command(_ words: String, _ operand: String, then options: String? = nil) -> String {
        let after = options.map { " " + $0 } ?? ""
        if operand.hasPrefix("-") { return "\(words)\(after) -- \(shell(operand))" }
        return "\(words) \(shell(operand))\(after)"
    }

    private static func isPlain(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "/", ".", ":", "#", "@", "%", "+", "=", ",", "-": return true
        default: return c.value >= 0x80 && c.properties.isAlphabetic
        }
    }
}

extension String {
    /// Every `target` replaced by `replacement` (no Foundation needed).
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
