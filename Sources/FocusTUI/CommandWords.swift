/// The words of a `:` command line, split as a POSIX shell splits a simple command's words
/// (sh(1), "Quoting"): blanks separate words; '…' keeps everything inside as it is; "…" keeps
/// everything but a backslash before `"` or `\`; an unquoted backslash keeps the next character.
/// No expansion of any kind: the words go to focus as they are, never to a shell.
package enum CommandWords {
    /// nil when a quote is left open.
    package static func split(_ line: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in line {
            if escaped {
                // Within "…" a backslash escapes only `"` and `\`; before anything else it stays.
                if quote == "\"", c != "\"", c != "\\" { word.append("\\") }
                word.append(c)
                escaped = false
            } else if quote == "'" {
                if c == "'" { quote = nil } else { word.append(c) }
            } else if quote == "\"" {
                if c == "\"" { quote = nil } else if c == "\\" { escaped = true } else { word.append(c) }
            } else if c == " " || c == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                inWord = true
                if c == "'" || c == "\"" { quote = c } else if c == "\\" { escaped = true } else { word.append(c) }
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(word) }
        return words
    }
}
