import FocusText
import FoundationEssentials

/// The command tree as ArgumentParser describes it (`--experimental-dump-help`): only the
/// fields the manual needs.
package struct CommandDump: Decodable {
    package struct Name: Decodable {
        package var kind: String
        package var name: String
    }

    package struct Argument: Decodable {
        package var kind: String
        package var names: [Name]?
        package var preferredName: Name?
        package var valueName: String?
        package var abstract: String?
        package var discussion: String?
        package var isOptional: Bool
        package var isRepeating: Bool?
        package var shouldDisplay: Bool
        package var defaultValue: String?
    }

    package var commandName: String
    package var abstract: String?
    package var discussion: String?
    package var shouldDisplay: Bool
    package var defaultSubcommand: String?
    package var arguments: [Argument]?
    package var subcommands: [CommandDump]?

    private struct Envelope: Decodable { var command: CommandDump }

    package static func decode(_ json: String) throws -> CommandDump {
        try JSONDecoder().decode(Envelope.self, from: Data(json.utf8)).command
    }
}

/// `focus(1)` in man(7) roff, built from the commands' own help so the manual never drifts
/// from `--help`. Pure: the dump in, the page out.
package enum ManPageRenderer {
    /// Options every command takes: described once, under GLOBAL OPTIONS.
    package static let globalNames: Set<String> = ["db", "tz", "version", "help"]

    package static func render(_ root: CommandDump, version: String) -> String {
        var out: [String] = []
        out.append(".TH FOCUS 1 \"\" \"\(escape(version))\" \"User Commands\"")
        out.append(".nh")
        out.append(".ad l")
        out.append(".SH NAME")
        out.append("focus \\- " + escape(root.abstract ?? ""))
        out.append(".SH SYNOPSIS")
        out.append(".B focus")
        out.append(".I command")
        out.append(".RI [ options ]")
        out.append(".SH DESCRIPTION")
        out += paragraphs(root.discussion)
        out.append(".SH COMMANDS")
        for sub in visible(root.subcommands) { command(sub, path: [root.commandName], into: &out) }
        out.append(".SH GLOBAL OPTIONS")
        out.append("Every command takes these.")
        let globals = (visible(root.subcommands).first?.arguments ?? []) + (root.arguments ?? [])
        var seen = Set<String>()
        for arg in globals where arg.shouldDisplay && globalNames.contains(arg.preferredName?.name ?? "") {
            guard seen.insert(arg.preferredName?.name ?? "").inserted else { continue }
            option(arg, into: &out)
        }
        for topic in HelpTopic.all { out += section(topic) }
        out += fixedSections
        return out.joined(separator: "\n") + "\n"
    }

    private static func visible(_ subs: [CommandDump]?) -> [CommandDump] {
        (subs ?? []).filter { $0.shouldDisplay && $0.commandName != "help" }
    }

    private static func command(_ c: CommandDump, path: [String], into out: inout [String]) {
        let full = path + [c.commandName]
        let args = (c.arguments ?? []).filter { $0.shouldDisplay && !globalNames.contains($0.preferredName?.name ?? "") }
        let subs = visible(c.subcommands)
        var synopsis = "\\fB" + escape(full.joined(separator: " ")) + "\\fR"
        if !subs.isEmpty { synopsis += " \\fIcommand\\fR" }
        for a in args { synopsis += " " + usage(a) }
        out.append(".SS \"\(synopsis.replacing("\"", with: "\\(dq"))\"")
        if let abstract = c.abstract, !abstract.isEmpty { out.append(escapeLine(abstract)) }
        if let d = c.defaultSubcommand { out.append("Without a command, runs \\fB\(escape(full.joined(separator: " "))) \(escape(d))\\fR.") }
        if let discussion = c.discussion, !discussion.isEmpty {
            out.append(".PP")
            out += paragraphs(discussion)
        }
        for a in args { option(a, into: &out) }
        for sub in subs { command(sub, path: full, into: &out) }
    }

    /// A `focus help` topic as a section of its own, from the same text: paragraphs filled,
    /// `- ` lists as bullets, examples unfilled and indented, underlined lines as sub-headings.
    package static func section(_ topic: HelpTopic) -> [String] {
        var out = [".SH \"" + escape(topic.title.uppercased()).replacing("\"", with: "\\(dq") + "\""]
        out.append("The text of \\fBfocus help " + escape(topic.name) + "\\fR.")
        for block in topic.text.components(separatedBy: "\n\n") {
            let lines = block.split(separator: "\n").map(String.init)
            guard let first = lines.first else { continue }
            if lines.count == 2, lines[1].allSatisfy({ $0 == "-" }) {
                out.append(".SS \"" + escape(first).replacing("\"", with: "\\(dq") + "\"")
            } else if lines.allSatisfy({ $0.hasPrefix("  ") }) {
                out += [".PP", ".RS 2", ".nf"]
                out += lines.map { line in
                    let e = escape(String(line.dropFirst(2)))
                    return e.hasPrefix(".") || e.hasPrefix("'") ? "\\&" + e : e
                }
                out += [".fi", ".RE"]
            } else if first.hasPrefix("- ") || first.hasPrefix("  - ") {
                var items: [(depth: Int, text: String)] = []
                for line in lines {
                    let trimmed = line.trimmingSpaces()
                    if trimmed.hasPrefix("- ") {
                        items.append((line.prefix { $0 == " " }.count / 2, String(trimmed.dropFirst(2))))
                    } else if !items.isEmpty {
                        items[items.count - 1].text += " " + trimmed
                    }
                }
                for item in items {
                    out.append(item.depth > 0 ? ".IP \\(bu \(2 + 2 * item.depth)" : ".IP \\(bu 2")
                    out.append(proseLine(item.text))
                }
            } else {
                out.append(".PP")
                out.append(proseLine(lines.map { $0.trimmingSpaces() }.joined(separator: " ")))
            }
        }
        return out
    }

    /// A topic's prose as one filled line: as `escapeLine`, but a `` `...` `` span over 24
    /// characters may break at its spaces (kept whole, it overran the line: groff's
    /// "can't break line").
    static func proseLine(_ s: String) -> String {
        var e = ""
        let pieces = escape(s.trimmingSpaces()).split(separator: "`", omittingEmptySubsequences: false)
        for (i, piece) in pieces.enumerated() {
            if i > 0 { e += "`" }
            let keepWhole = i % 2 == 1 && piece.count <= 24
            e += keepWhole ? String(piece).replacing(" ", with: "\\ ") : String(piece)
        }
        return e.hasPrefix(".") || e.hasPrefix("'") ? "\\&" + e : e
    }

    /// `[\fB--due\fR \fIdatetime\fR]`, `\fIpath\fR`.
    private static func usage(_ a: CommandDump.Argument) -> String {
        var s: String
        switch a.kind {
        case "positional": s = "\\fI" + escape(a.valueName ?? "value") + "\\fR"
        case "flag": s = "\\fB" + flagName(a) + "\\fR"
        default: s = "\\fB" + flagName(a) + "\\fR \\fI" + escape(a.valueName ?? "value") + "\\fR"
        }
        if a.isRepeating == true { s += " ..." }
        return a.isOptional ? "[" + s + "]" : s
    }

    private static func flagName(_ a: CommandDump.Argument) -> String {
        guard let n = a.preferredName else { return "" }
        return (n.kind == "short" ? "\\-" : "\\-\\-") + escape(n.name)
    }

    /// One `.TP` entry: every name of the option, its value, its help and default.
    private static func option(_ a: CommandDump.Argument, into out: inout [String]) {
        out.append(".TP")
        var names: [String]
        if a.kind == "positional" {
            names = ["\\fI" + escape(a.valueName ?? "value") + "\\fR"]
        } else {
            names = (a.names ?? []).map { ($0.kind == "short" ? "\\fB\\-" : "\\fB\\-\\-") + escape($0.name) + "\\fR" }
            if a.kind == "option" { names[names.count - 1] += " \\fI" + escape(a.valueName ?? "value") + "\\fR" }
        }
        out.append(names.joined(separator: ", "))
        var help = a.abstract ?? ""
        if let d = a.defaultValue, !d.isEmpty { help += " (default: \(d))" }
        out.append(escapeLine(help))
        if let d = a.discussion, !d.isEmpty { out += paragraphs(d) }
    }

    /// Prose: blank lines become paragraph breaks; an example on a line of its own (a
    /// `` `focus ...` `` span, the help's convention) stays on a line of its own.
    private static func paragraphs(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        var out: [String] = []
        for (n, para) in text.components(separatedBy: "\n\n").enumerated() {
            if n > 0 { out.append(".PP") }
            for line in para.split(separator: "\n") where !line.trimmingSpaces().isEmpty {
                let trimmed = line.trimmingSpaces()
                let example = trimmed.hasPrefix("`focus ") && trimmed.hasSuffix("`")
                // Unfilled, so a long example runs past the margin rather than be broken.
                if example { out.append(".nf") }
                out.append(escapeLine(String(line)))
                if example { out.append(".fi") }
            }
        }
        return out
    }

    /// Backslashes and hyphens for roff.
    package static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default: out.append(c)
            }
        }
        return out
    }

    /// A text line that cannot be read as a request (a leading `.` or `'`). Spaces inside a
    /// `` `...` `` span are unbreakable (`\ `, roff(7)), so an example is never cut across lines
    /// and pastes as printed.
    package static func escapeLine(_ s: String) -> String {
        var e = ""
        var inSpan = false
        for c in escape(s.trimmingSpaces()) {
            if c == "`" { inSpan.toggle() }
            if c == " ", inSpan { e += "\\ " } else { e.append(c) }
        }
        return e.hasPrefix(".") || e.hasPrefix("'") ? "\\&" + e : e
    }

    /// Files, environment and exit codes: the contract's facts, the same for every command.
    package static let fixedSections: [String] = [
        ".SH ENVIRONMENT",
        ".TP", ".B FOCUS_DB", "The database file (the \\fB\\-\\-db\\fR option wins).",
        ".TP", ".B FOCUS_NOW", "An ISO 8601 instant: act as if started at that moment, time running on from there.",
        ".TP", ".B TZ", "The local time zone (the \\fB\\-\\-tz\\fR option wins), else the system's.",
        ".TP", ".B NO_COLOR", "No colour in any output.",
        ".TP", ".BR XDG_DATA_HOME \", \" XDG_CONFIG_HOME \", \" XDG_STATE_HOME",
        "Where the database, the config and hooks, and the hook log live.",
        ".SH FILES",
        ".TP", ".I $XDG_DATA_HOME/focus/focus.sqlite",
        "The database (default \\fI~/.local/share/focus/focus.sqlite\\fR).",
        ".TP", ".I $XDG_CONFIG_HOME/focus/config.toml",
        "Settings, \\fIkey = value\\fR lines; \\fBfocus config\\fR lists every key.",
        ".TP", ".I $XDG_CONFIG_HOME/focus/hooks/",
        "Executable scripts named \\fBsession\\-completed\\fR, \\fBsession\\-interrupted\\fR, \\fBbreak\\-over\\fR and "
            + "\\fBblock\\-starts\\fR, run with the event as JSON on standard input.",
        ".TP", ".I $XDG_STATE_HOME/focus/hooks.log",
        "One line per hook run, and what hooks print (default \\fI~/.local/state/focus/hooks.log\\fR).",
        ".SH EXIT STATUS",
        ".TP", ".B 0", "Success.",
        ".TP", ".B 1", "focus doctor found a problem (each problem line is marked \\(mu).",
        ".TP", ".B 64", "Bad usage or a bad value.",
        ".TP", ".B 65", "Bad input data: a file that does not parse, work that does not fit before its due date.",
        ".TP", ".B 66", "An input file that is missing, or a directory, FIFO or device where a regular file is needed.",
        ".TP", ".B 69", "Something needed is unavailable (no session running, a session already running).",
        ".TP", ".B 74", "I/O: disk, permissions, a damaged or foreign database, a database locked after waiting.",
        ".SH SEE ALSO",
        ".BR systemctl (1)",
    ]
}
