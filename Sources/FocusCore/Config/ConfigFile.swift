import FocusText
import FoundationEssentials

/// The subset of TOML that `config.toml` uses: `key = value` lines (strings, numbers, booleans),
/// `#` comments, blank lines. Tables are not needed and are refused with the line number.
package enum ConfigFile {
    /// Reads a config file's text over the defaults. Each line is checked on its own, then the
    /// finished settings as a whole (`FocusConfig.validate`), so `day_start = 22:30` may come before
    /// `day_end = 23:30`; a failure of the whole names the last line that took part in it.
    package static func parse(_ text: String, path: String) throws(FocusError) -> FocusConfig {
        var config = FocusConfig()
        var lastRelatedLine: Int?
        for (n, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let (key, value) = try entry(rawLine, line: n + 1, path: path) else { continue }
            do {
                try config.set(key, to: value)
            } catch {
                throw .badInput(file: path, line: n + 1, reason: error.description)
            }
            if FocusConfig.relatedKeys.contains(key) { lastRelatedLine = n + 1 }
        }
        do {
            try config.validate()
        } catch {
            throw .badInput(file: path, line: lastRelatedLine, reason: error.description)
        }
        return config
    }

    /// The file's text with `key` set to `value`: the existing line is replaced in place (comments
    /// and other keys kept), or the entry appended.
    package static func updating(_ text: String, key: String, value: String) -> String {
        let rendered = "\(key) = \(quoted(key: key, value))"
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var replaced = false
        for (i, line) in lines.enumerated() {
            if let (k, _) = try? entry(Substring(line), line: i + 1, path: ""), k == key {
                lines[i] = rendered
                replaced = true
            }
        }
        if !replaced {
            if lines.isEmpty { lines.append("# focus configuration: see `focus config` for every key.") }
            lines.append(rendered)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func quoted(key: String, _ value: String) -> String {
        switch key {
        case "cycles", "notifications", "bell": return value
        default:
            let escaped = value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            return "\"\(escaped)\""
        }
    }

    private static func entry(_ raw: Substring, line: Int, path: String) throws(FocusError) -> (String, String)? {
        let s = raw.trimmingSpaces()
        if s.isEmpty || s.hasPrefix("#") { return nil }
        if s.hasPrefix("[") {
            throw .badInput(file: path, line: line, reason: "tables are not used in focus's config; write plain `key = value` lines")
        }
        guard let eq = s.firstIndex(of: "=") else {
            throw .badInput(file: path, line: line, reason: "expected `key = value`")
        }
        let key = s[..<eq].trimmingSpaces()
        var value = s[s.index(after: eq)...].trimmingSpaces()
        if value.hasPrefix("\"") {
            // A basic string: up to the closing quote, honouring \" and \\; a comment may follow.
            var out = ""
            var escaped = false
            var closed = false
            for c in value.dropFirst() {
                if escaped { out.append(c); escaped = false; continue }
                if c == "\\" { escaped = true; continue }
                if c == "\"" { closed = true; break }
                out.append(c)
            }
            guard closed else { throw .badInput(file: path, line: line, reason: "unterminated string") }
            value = out
        } else if let hash = value.firstIndex(of: "#") {
            value = value[..<hash].trimmingSpaces()
        }
        guard !key.isEmpty else { throw .badInput(file: path, line: line, reason: "missing key before `=`") }
        return (key, value)
    }
}
