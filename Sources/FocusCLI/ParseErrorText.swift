import FocusText
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
    ///   - parseError: the parser's message for a command line, nil when it parses: a quoted fix
    ///     is tried before it is offered.
    static func sentence(_ message: String, arguments: [String], parseError: ([String]) -> String?) -> String {
        let path = commandPath(arguments)
        let command = (["focus"] + path.map(\.name)).joined(separator: " ")
        let seeHelp = "See `\(command) --help`."
        if let typo = unknownTopLevelCommand(arguments, path: path) { return typo }
        if let option = between(message, "Missing value for '", "'") { return missingValue(option, arguments: arguments) + " " + seeHelp }
        if message.hasPrefix("Unknown option '") {
            let rest = message.dropFirst("Unknown option '".count)
            let name = rest.prefix { $0 != "'" }
            if path.isEmpty, name == "--db" || name == "--tz" {
                let example = name == "--db" ? "--db ~/work.sqlite stats" : "--tz Europe/Berlin stats"
                return "\(name) goes with a command and needs a value, as in `focus \(example)`. See `focus --help` for the commands."
            }
            var s = "unknown option '\(name)' for `\(command)`."
            if let suggestion = between(message, "Did you mean '", "'?") {
                s += " Did you mean \(suggestion)?"
            } else if let best = NearestNames.closest(to: String(name), among: optionNames(of: path)).first {
                s += " Did you mean \(best)?"
            }
            return s + " \(seeHelp.dropLast()) for its options."
        }
        if let value = unexpectedValue(message) {
            if let last = path.last, last.hasSubcommands, arguments.count > path.count, arguments[path.count] == value {
                let names = last.subcommands.joined(separator: ", ")
                let hint = didYouMean(value, among: last.subcommands, command: command)
                return "unknown command '\(value)' for `\(command)`; its commands are \(names).\(hint) \(seeHelp)"
            }
            if path.isEmpty, arguments.first == value {
                return "unknown command '\(value)'. See `focus --help` for the commands."
            }
            if let fixed = quotedFix(value: value, arguments: arguments, after: path.count, takesNames: path.last?.takesNames ?? false,
                                     namedOptions: path.last?.namedOptions ?? [], parseError: parseError) {
                let line = (["focus"] + fixed.map(Quoted.shell)).joined(separator: " ")
                return "unexpected argument '\(value)': a name with spaces needs quotes, as in `\(line)`."
            }
            return "unexpected argument '\(value)': `\(command)` does not take it (a name with spaces needs quotes). \(seeHelp)"
        }
        if let flag = between(message, "The option '", "' does not take any value") {
            return "\(flag) takes no value: write \(flag) alone. \(seeHelp)"
        }
        if let argument = between(message, "Missing expected argument '", "'") {
            return "missing \(argument): `\(command)` needs it. \(seeHelp)"
        }
        if message.hasPrefix("The value '"), let value = between(message, "The value '", "' is invalid") {
            var s = "invalid value '\(value)'"
            if let what = between(message, "is invalid for '", "'") { s += " for \(what)" }
            if let colon = message.firstRange(of: "': ") {
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

    /// `focus stat --last 7`: the parser blames `--last`, but the mistake is the command.
    private static func unknownTopLevelCommand(_ arguments: [String], path: [Step]) -> String? {
        guard path.isEmpty, let word = arguments.first, !word.hasPrefix("-"), word != "help" else { return nil }
        return "unknown command '\(word)'.\(didYouMean(word, among: topLevelNames, command: "focus")) See `focus --help` for the commands."
    }

    /// "missing value for --estimate: give one, as in --estimate <duration>.", with how to
    /// write a value that starts with '-'.
    private static func missingValue(_ option: String, arguments: [String]) -> String {
        let name = option.split(separator: " ").first.map(String.init) ?? option
        var s = "missing value for \(name): give one, as in \(option)."
        if let i = arguments.firstIndex(of: name), i + 1 < arguments.count, arguments[i + 1].hasPrefix("-"), !arguments[i + 1].hasPrefix("--") {
            s += " A value that starts with '-' is written \(name)=\(Quoted.shell(arguments[i + 1]))."
        }
        return s
    }

    /// The commands under `focus`, as help lists them.
    private static var topLevelNames: [String] {
        RootCommand.configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
    }

    /// The long options of the command at the end of `path` (`--estimate`, `--due`, …), as its
    /// usage and option lines in help name them.
    private static func optionNames(of path: [Step]) -> [String] {
        var level = RootCommand.configuration.subcommands
        var command: ParsableCommand.Type?
        for step in path {
            command = level.first { $0._commandName == step.name }
            level = command?.configuration.subcommands ?? []
        }
        let help = (command ?? RootCommand.self).helpMessage(columns: 1000)
        let words = help.split(whereSeparator: { " ,=<>[]()\n".contains($0) })
        return Array(Set(words.filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))).sorted()
    }

    /// " Did you mean `focus stats`?" for the command nearest to `typed`, or nothing.
    private static func didYouMean(_ typed: String, among names: [String], command: String) -> String {
        guard let best = NearestNames.closest(to: typed, among: names).first else { return "" }
        return " Did you mean `\(command) \(best)`?"
    }

    /// A subcommand on the way down the tree: its name and the names of its own subcommands.
    struct Step {
        var name: String
        var subcommands: [String]
        /// Whether the command's arguments include a path or a name (where words may need quotes).
        var takesNames: Bool
        /// Its options whose value is a path, a name or free text (`--task`, `--notes`).
        var namedOptions: Set<String>
        var hasSubcommands: Bool { !subcommands.isEmpty }
    }

    /// The subcommands named at the start of `arguments`: `task add` for `task add x --due y`.
    static func commandPath(_ arguments: [String]) -> [Step] {
        var steps: [Step] = []
        var level = RootCommand.configuration.subcommands
        for arg in arguments {
            guard let sub = level.first(where: { $0._commandName == arg || $0.configuration.aliases.contains(arg) }) else { break }
            level = sub.configuration.subcommands
            let usage = sub.helpMessage(columns: 1000).split(separator: "\n").first { $0.hasPrefix("USAGE:") } ?? ""
            // A positional `<path>` or `<name>` in the usage line (not an option's value, `--db <path>`).
            let words = usage.split(separator: " ").map { $0.trimming(["[", "]"]) }
            let named = words.indices.filter { i in i > 0 && ["<path>", "<name>", "<text>"].contains(words[i]) }
            let takesNames = named.contains { !words[$0 - 1].hasPrefix("-") && words[$0] != "<text>" }
            let namedOptions = Set(named.map { words[$0 - 1] }.filter { $0.hasPrefix("--") && $0 != "--db" })
            steps.append(Step(name: sub._commandName, subcommands: level.filter { $0.configuration.shouldDisplay }.map { $0._commandName },
                              takesNames: takesNames, namedOptions: namedOptions))
        }
        return steps
    }

    /// `Unexpected argument 'x'`, or the first of `2 unexpected arguments: 'x', 'y'`.
    private static func unexpectedValue(_ message: String) -> String? {
        if let v = between(message, "Unexpected argument '", "'") { return v }
        guard let r = message.firstRange(of: "unexpected arguments: '") else { return nil }
        let rest = message[r.upperBound...]
        guard let end = rest.firstRange(of: "', '") ?? rest.firstRange(of: "'") else { return nil }
        return String(rest[..<end.lowerBound])
    }

    /// The command line with the words around `value` joined into one, when that parses: the
    /// usual cause is a name with a space typed without quotes (`Thesis/Chapter 2`), or a
    /// date-time (`--due 2026-11-27 17:00`). Words are joined in an argument's place when the
    /// command takes a path or a name there, and after an option whose value is one (`--task`)
    /// or into a date and a time, never into any other option value (`--duration 50m 1s` is not `"50m 1s"`). A line with a
    /// second such mistake is fixed again (at most three).
    /// At most `budget` command lines are tried in all (each is a parse), however long the line.
    private static func quotedFix(value: String, arguments: [String], after start: Int, takesNames: Bool, namedOptions: Set<String>,
                                  parseError: ([String]) -> String?, depth: Int = 3) -> [String]? {
        // A line typed by hand; a generated one of thousands of words gets no suggestion (each
        // try is a parse of the whole line).
        guard arguments.count <= 40 else { return nil }
        var budget = 16
        return quotedFix(value: value, arguments: arguments, after: start, takesNames: takesNames, namedOptions: namedOptions,
                         parseError: parseError, depth: depth, budget: &budget)
    }

    private static func quotedFix(value: String, arguments: [String], after start: Int, takesNames: Bool, namedOptions: Set<String>,
                                  parseError: ([String]) -> String?, depth: Int, budget: inout Int) -> [String]? {
        guard depth > 0 else { return nil }
        for i in arguments.indices where i > start && arguments[i] == value {
            guard !arguments[i - 1].hasPrefix("-") else { continue }
            var last = i
            while last + 1 < arguments.count, last - i < 3, !arguments[last + 1].hasPrefix("-") { last += 1 }
            var first = i - 1
            while true {
                let afterOption = first > start && arguments[first - 1].hasPrefix("-")
                for end in stride(from: last, through: i, by: -1) {
                    let words = Array(arguments[first...end])
                    let allowed = afterOption
                        ? namedOptions.contains(arguments[first - 1]) || (words.count == 2 && isTimeOfDay(words[1]))
                        : takesNames
                    if !allowed { continue }
                    guard budget > 0 else { return nil }
                    budget -= 1
                    let joined = Array(arguments[..<first]) + [words.joined(separator: " ")] + Array(arguments[(end + 1)...])
                    guard let error = parseError(joined) else { return joined }
                    if let next = unexpectedValue(error),
                       let fixed = quotedFix(value: next, arguments: joined, after: start, takesNames: takesNames, namedOptions: namedOptions,
                                             parseError: parseError, depth: depth - 1, budget: &budget) {
                        return fixed
                    }
                }
                guard first - 1 >= start, !arguments[first - 1].hasPrefix("-"), i - first < 4 else { break }
                first -= 1
            }
        }
        return nil
    }

    /// `17:00`, `9:30`, `09:00:00`, or a time said with a word (`5pm`, `9:30am`, `noon`), as
    /// `DayPhrase.timeOfDay` reads them (a bare hour is not joined: `fri 17` is refused anyway).
    private static func isTimeOfDay(_ s: String) -> Bool {
        if s.contains(where: \.isLetter) { return DayPhrase.timeOfDay(s) != nil }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return false }
        return parts.allSatisfy { p in (1...2).contains(p.count) && p.allSatisfy(\.isASCII) && p.allSatisfy(\.isNumber) }
    }

    /// The text between `open` and the next `close` after it.
    private static func between(_ s: String, _ open: String, _ close: String) -> String? {
        guard let a = s.firstRange(of: open), let b = s[a.upperBound..<s.endIndex].firstRange(of: close) else { return nil }
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
