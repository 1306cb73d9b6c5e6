import ArgumentParser
import FocusCore

/// The parser's errors in focus's own voice: a lower-case sentence after `focus: error: `, the
/// option or command it is about, and how to fix it (README, exit codes: 64). ArgumentParser's
/// common messages (missing value, unknown option, unexpected argument, missing argument, an
/// invalid value) are rephrased; any other is kept with its first letter lowered.
enum ParseErrorText {
    /// - Parameters:
    ///   - message: the parser's first line (`Missing value for '--estimate <duration>'`).
    ///   - arguments: the command line (global options already moved after the subcommand).
    ///   - parses: whether a command line would parse, to test a quoted fix before offering it.
    static func sentence(_ message: String, arguments: [String], parses: ([String]) -> Bool) -> String {
        let path = commandPath(arguments)
        let command = (["focus"] + path.map(\.name)).joined(separator: " ")
        let seeHelp = "See `\(command) --help`."

        if let option = between(message, "Missing value for '", "'") {
            let name = option.split(separator: " ").first.map(String.init) ?? option
            var s = "missing value for \(name): give one, as in \(option)."
            if let i = arguments.firstIndex(of: name), i + 1 < arguments.count, arguments[i + 1].hasPrefix("-"), !arguments[i + 1].hasPrefix("--") {
                s += " A value that starts with '-' is written \(name)=\(Quoted.shell(arguments[i + 1]))."
            }
            return s + " " + seeHelp
        }
        if message.hasPrefix("Unknown option '") {
            let rest = message.dropFirst("Unknown option '".count)
            let name = rest.prefix { $0 != "'" }
            var s = "unknown option '\(name)' for `\(command)`."
            if let suggestion = between(message, "Did you mean '", "'?") { s += " Did you mean \(suggestion)?" }
            return s + " \(seeHelp.dropLast()) for its options."
        }
        if let value = unexpectedValue(message) {
            if let last = path.last, last.hasSubcommands, arguments.count > path.count, arguments[path.count] == value {
                let names = last.subcommands.joined(separator: ", ")
                return "unknown command '\(value)' for `\(command)`; its commands are \(names). \(seeHelp)"
            }
            if path.isEmpty, arguments.first == value {
                return "unknown command '\(value)'. See `focus --help` for the commands."
            }
            if let fixed = quotedFix(value: value, arguments: arguments, after: path.count, parses: parses) {
                let line = (["focus"] + fixed.map(Quoted.shell)).joined(separator: " ")
                return "unexpected argument '\(value)': a name with spaces needs quotes, as in `\(line)`."
            }
            return "unexpected argument '\(value)': `\(command)` does not take it (a name with spaces needs quotes). \(seeHelp)"
        }
        if let argument = between(message, "Missing expected argument '", "'") {
            return "missing \(argument): `\(command)` needs it. \(seeHelp)"
        }
        if message.hasPrefix("The value '"), let value = between(message, "The value '", "' is invalid") {
            var s = "invalid value '\(value)'"
            if let what = between(message, "is invalid for '", "'") { s += " for \(what)" }
            if let colon = message.range(of: "': ") {
                s += ": " + lowered(String(message[colon.upperBound...]))
            } else if let what = between(message, "<", ">'"), ["n", "k", "id"].contains(what) {
                s += ": expected a whole number"
            }
            if let last = s.last, !".?!".contains(last) { s += "." }
            return s + " " + seeHelp
        }
        var s = lowered(message)
        if s.isEmpty { s = "invalid command line" }
        if let last = s.last, !".?!".contains(last) { s += "." }
        return s + " " + seeHelp
    }

    /// A subcommand on the way down the tree: its name and the names of its own subcommands.
    struct Step {
        var name: String
        var subcommands: [String]
        var hasSubcommands: Bool { !subcommands.isEmpty }
    }

    /// The subcommands named at the start of `arguments`: `task add` for `task add x --due y`.
    static func commandPath(_ arguments: [String]) -> [Step] {
        var steps: [Step] = []
        var level = RootCommand.configuration.subcommands
        for arg in arguments {
            guard let sub = level.first(where: { $0._commandName == arg || $0.configuration.aliases.contains(arg) }) else { break }
            level = sub.configuration.subcommands
            steps.append(Step(name: sub._commandName, subcommands: level.filter { $0.configuration.shouldDisplay }.map { $0._commandName }))
        }
        return steps
    }

    /// `Unexpected argument 'x'`, or the first of `2 unexpected arguments: 'x', 'y'`.
    private static func unexpectedValue(_ message: String) -> String? {
        if let v = between(message, "Unexpected argument '", "'") { return v }
        guard let r = message.range(of: "unexpected arguments: '") else { return nil }
        let rest = message[r.upperBound...]
        guard let end = rest.range(of: "', '") ?? rest.range(of: "'") else { return nil }
        return String(rest[..<end.lowerBound])
    }

    /// The command line with the words around `value` joined into one, when that parses: the
    /// usual cause is a name with a space typed without quotes (`Thesis/Chapter 2`). Only words
    /// in an argument's place are joined, never an option's value.
    private static func quotedFix(value: String, arguments: [String], after start: Int, parses: ([String]) -> Bool) -> [String]? {
        for i in arguments.indices where i > start && arguments[i] == value {
            guard !arguments[i - 1].hasPrefix("-") else { continue }
            var last = i
            while last + 1 < arguments.count, !arguments[last + 1].hasPrefix("-") { last += 1 }
            var first = i - 1
            while true {
                // Words right after an option are its value (`--duration 50m 1s`): never joined.
                let afterOption = first > start && arguments[first - 1].hasPrefix("-")
                for end in stride(from: last, through: i, by: -1) where !afterOption {
                    let joined = Array(arguments[..<first]) + [arguments[first...end].joined(separator: " ")] + Array(arguments[(end + 1)...])
                    if parses(joined) { return joined }
                }
                guard first - 1 >= start, !arguments[first - 1].hasPrefix("-"), i - first < 4 else { break }
                first -= 1
            }
        }
        return nil
    }

    /// The text between `open` and the next `close` after it.
    private static func between(_ s: String, _ open: String, _ close: String) -> String? {
        guard let a = s.range(of: open), let b = s.range(of: close, range: a.upperBound..<s.endIndex) else { return nil }
        return String(s[a.upperBound..<b.lowerBound])
    }

    /// `The value` → `the value`; an acronym (`ID`) is kept.
    static func lowered(_ s: String) -> String {
        guard let first = s.first, first.isUppercase else { return s }
        let second = s.dropFirst().first
        if let second, second.isUppercase { return s }
        return first.lowercased() + s.dropFirst()
    }
}
