import FocusRendering
import FocusServices
import FocusText
import ArgumentParser
import FocusCore
import FoundationEssentials
import Glibc
import Synchronization

/// Parses the command line, builds the environment and runs the command. Every failure becomes
/// one line, `focus: error: ...`, and the documented exit code; never a stack trace.
package enum FocusMain {
    /// The live entry point: runs the command line, then exits with its code from the thread
    /// that ran the command. Returning the code to the entry point for it to exit meant a hop
    /// back to the main actor, whose queue (the main thread being parked by the runtime) is
    /// served by a new thread: a thread created and scheduled at the end of every command.
    package static func mainThenExit() async -> Never {
        StandardConsole.reserveStandardDescriptors()
        // A reader that goes away (`focus log | head -1`) is an EPIPE to handle, not a signal
        // that kills focus wherever it is (mid-session, mid-import). Hooks get the default back.
        signal(SIGPIPE, SIG_IGN)
        // A write past the file size limit (`ulimit -f`) is an EFBIG to report (README, exit
        // codes), not a signal that kills focus on whichever thread wrote.
        signal(SIGXFSZ, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        let environment = ProcessEnvironment.current()
        let console = StandardConsole(environment: environment)
        let code = await run(arguments: arguments, console: console) { global throws(FocusError) in
            try FocusEnvironment.live(global: global, environment: environment)
        }
        exit(code)
    }

    /// Runs one command line with an environment made by `makeEnvironment` (tests pass their own).
    /// A command that succeeded but could not write all of its output (README, exit codes)
    /// exits 74, with one line on standard error when that can still be written.
    package static func run(
        arguments: [String], console: any Console,
        makeEnvironment: (GlobalOptions) throws(FocusError) -> FocusEnvironment
    ) async -> Int32 {
        let code = await runCommand(arguments: arguments, console: console, makeEnvironment: makeEnvironment)
        // A report cut short outweighs what it said (`doctor`'s exit 1 for a problem found too);
        // an error the command already reported keeps its own code.
        guard code == 0 || code == 1, let failure = console.writeFailure else { return code }
        if failure.stream == .output, failure.isBrokenPipe, readerEndsCommand.withLock({ $0 }) { return 0 }
        return report(failure, console: console)
    }

    /// Set by a command whose output is a stream with no end of its own (`focus status
    /// --follow`): its reader going away is how it is meant to end, exit 0 (README, Status bars).
    private static let readerEndsCommand = Mutex(false)

    package static func endedByReader() { readerEndsCommand.withLock { $0 = true } }

    /// The output failure as the command's result: one line on standard error, exit 74. A
    /// broken pipe (`focus log | head -1`) is not announced: the reader chose to stop reading,
    /// as it would be for a program killed by SIGPIPE; the exit code still says the output
    /// was cut short (`set -o pipefail`).
    private static func report(_ failure: ConsoleWriteFailure, console: any Console) -> Int32 {
        if failure.stream == .output, !failure.isBrokenPipe {
            console.error("\(failure.sentence)")
        }
        return 74
    }

    private static func runCommand(
        arguments: [String], console: any Console,
        makeEnvironment: (GlobalOptions) throws(FocusError) -> FocusEnvironment
    ) async -> Int32 {
        if arguments.first == "help", let code = HelpTopicRouting.run(arguments, console: console) { return code }
        let parsed: any ParsableCommand
        do {
            parsed = try RootCommand.parsingWithoutCompletionProbe(hoistingGlobalOptions(arguments))
        } catch {
            // Completion scripts and the help dump are for programs: never re-wrapped.
            let machine = arguments.contains { $0.hasPrefix("--generate-completion-script") || $0 == "--experimental-dump-help" || $0 == "---completion" }
            if let negative = negativeValue(in: arguments, parserMessage: RootCommand.message(for: error)) {
                console.error("\(oneLine(DisplayText(negative.description).string))")
                return negative.exitCode
            }
            return report(parseError: error, arguments: hoistingGlobalOptions(arguments), console: console, wrap: !machine)
        }
        // A focus command's `run()` hands it back (`FocusRunnable`); `--help`, `help CMD`, or a
        // group without its subcommand (`focus task`) end by throwing a clean exit that carries
        // the help to show.
        let command: any FocusRunnable
        do {
            var parsed = parsed
            try parsed.run()
            return 0
        } catch let selected as SelectedCommand {
            command = selected.command
        } catch {
            return report(parseError: error, arguments: hoistingGlobalOptions(arguments), console: console)
        }
        var use: DatabaseUse?
        do {
            var env = try makeEnvironment(command.global)
            env.readsOnly = command.readsOnly
            use = env.databaseUse
            try await command.run(in: env)
            if type(of: command).replansAfterChanges { followChanges(in: env) }
            // The database is closed before the process exits (it holds the last reference):
            // closing checkpoints the write-ahead log, so no -wal file is left behind.
            env.databaseUse.release()
            return 0
        } catch {
            // A command that failed leaves no database it made and recorded nothing in (`focus
            // start Nope` on a new machine).
            use?.discardUnusedCreation()
            use?.release()
            return report(commandError: error, console: console)
        }
    }

    /// The command's error as one line on standard error, and its exit code.
    private static func report(commandError: any Error, console: any Console) -> Int32 {
        switch commandError {
        case let error as FocusError:
            if case let .output(failure) = error { return report(failure, console: console) }
            // Sanitised before cutting: a line break typed into a value must not cut the sentence.
            console.error("\(oneLine(DisplayText(error.description).string))")
            return error.exitCode
        case let exit as ExitCode:
            return exit.rawValue
        default:
            console.error("\(oneLine(DisplayText(String(describing: commandError)).string))")
            return 70
        }
    }

    /// The one path by which every change re-plans, whichever command made it; the published
    /// calendar follows before the command ends (README, "Your real calendar"); offline, the
    /// publication waits for the next one.
    private static func followChanges(in env: FocusEnvironment) {
        guard let db = env.databaseUse.changed else { return }
        Planning.replanIfStale(env.services, db)
        guard !env.databaseUse.published else { return }
        for report in PlanPublisher.publishAll(env: env.services, db: db, login: CalDAVLogin(mayPrompt: false), onlyWhenChanged: true) {
            env.console.note(PublishRenderer.line(report))
        }
    }

    /// `--estimate -5m`: the parser takes `-5m` for a flag and reports a missing value. When it
    /// reports one for an option followed by what looks like a negative number, the value is
    /// said to be negative instead (exit 64); text that really starts with `-` is passed as
    /// `--note=-5`. The same for an argument (`focus config set work -5m`), whose text is passed
    /// after `--`.
    static func negativeValue(in arguments: [String], parserMessage: String) -> FocusError? {
        for (i, arg) in arguments.enumerated().dropLast() {
            if arg == "--" { return nil }
            guard arg.hasPrefix("--"), arg.count > 2, !arg.contains("=") else { continue }
            let value = arguments[i + 1]
            guard looksNegative(value), parserMessage.contains("Missing value for '\(arg)") else { continue }
            return .usage("\(arg) \(value): the value is negative; give one that is not (text that starts with '-' is written \(arg)=\(value)).")
        }
        guard parserMessage.contains("Missing expected argument"),
              let value = arguments.prefix(while: { $0 != "--" }).first(where: looksNegative) else { return nil }
        return .usage("\(value): the value is negative; give one that is not (text that starts with '-' is written after --: `-- \(value)`).")
    }

    /// `-5`, `-5m`, `-.5h`: a minus sign, then a digit or a decimal point.
    private static func looksNegative(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(2))
        guard bytes.count == 2, bytes[0] == UInt8(ascii: "-") else { return false }
        return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[1]) || bytes[1] == UInt8(ascii: ".")
    }

    /// Help on standard output (exit 0), or the parser's error in focus's voice (`ParseErrorText`),
    /// one line, exit 64.
    private static func report(parseError error: any Error, arguments: [String], console: any Console, wrap: Bool = true) -> Int32 {
        let code = RootCommand.exitCode(for: error)
        if code == .success {
            // --help, --version, `focus help ...`.
            // The parser would wrap at the terminal's width (COLUMNS or the tty's); the usage
            // lines are then re-wrapped below. Both at one width, or a wide terminal's option
            // lines were broken again at 80 and lost their indent.
            let width = helpWidth(console.width)
            var message = RootCommand.fullMessage(for: error, columns: width)
            if let i = arguments.firstIndex(where: { $0.hasPrefix("--generate-completion-script") }) {
                let a = arguments[i]
                let shell = a.hasPrefix("--generate-completion-script=") ? String(a.dropFirst(29)) : (i + 1 < arguments.count ? arguments[i + 1] : "")
                message = CompletionScripts.patched(message, shell: shell)
            }
            if wrap { message = wrapped(message, width: width) + "\n" + HelpTopicRouting.appendix(forHelp: arguments) } else { message += "\n" }
            // The program's own text: help, version, completion scripts.
            console.show(DisplayText(trusted: message))
            return 0
        }
        let message = oneLine(RootCommand.message(for: error))
        let sentence = ParseErrorText.sentence(message, arguments: arguments) { candidate in
            do {
                _ = try RootCommand.parsingWithoutCompletionProbe(candidate)
                return nil
            } catch {
                return oneLine(RootCommand.message(for: error))
            }
        }
        // The parser's message may echo what was typed (an unknown option or value).
        console.error("\(sentence)")
        return 64
    }

    /// Whether this command line lives until it is stopped and sleeps between changes (`focus
    /// ui`, `focus status --follow`): the entry point runs it on an `OwnThreadExecutor`, whose
    /// thread sleeps when it has nothing to do, rather than on the concurrency pool, which on
    /// Linux wakes the process every second. Every other command keeps the pool.
    package static func sleepsBetweenChanges(_ arguments: [String]) -> Bool {
        let args = hoistingGlobalOptions(arguments)
        let words = args.prefix { $0 != "--" }
        switch words.first {
        case "ui": return true
        case "status": return words.contains("--follow")
        default: return false
        }
    }

    /// Help fills the terminal up to 80 columns (README: help lines stay within 80), and no
    /// narrower than 40, where the option column would leave no room for prose.
    static func helpWidth(_ terminal: Int) -> Int { min(80, max(40, terminal)) }

    /// `focus --db x task list` → `focus task list --db x`: global options may come before the
    /// subcommand, where the parser (which keeps them on each subcommand) would not see them.
    static func hoistingGlobalOptions(_ args: [String]) -> [String] {
        var leading: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--db" || a == "--tz", i + 1 < args.count {
                leading += [a, args[i + 1]]
                i += 2
            } else if a.hasPrefix("--db=") || a.hasPrefix("--tz=") {
                leading.append(a)
                i += 1
            } else {
                break
            }
        }
        guard !leading.isEmpty, i < args.count, !args[i].hasPrefix("-") else { return args }
        var rest = Array(args[i...])
        if let dashdash = rest.firstIndex(of: "--") {
            rest.insert(contentsOf: leading, at: dashdash)
        } else {
            rest += leading
        }
        return rest
    }

    /// Help text within `width` columns: the parser wraps prose but not its generated usage
    /// lines, which are broken before an option with a hanging indent under the command.
    static func wrapped(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.count > width else { return String(line) }
            let indent = TerminalText.spaces(line.hasPrefix("USAGE: ") ? 9 : 2)
            // Words are split at spaces outside brackets, so `[--due <datetime>]` stays whole.
            var words: [String] = []
            var word = ""
            var depth = 0
            for c in line {
                if c == "[" || c == "<" { depth += 1 }
                if c == "]" || c == ">" { depth = max(0, depth - 1) }
                if c == " ", depth == 0 {
                    words.append(word)
                    word = ""
                } else {
                    word.append(c)
                }
            }
            words.append(word)
            var lines: [String] = []
            var current = ""
            for word in words {
                let candidate = current.isEmpty ? String(word) : current + " " + word
                if candidate.count > width, !current.isEmpty, current != indent {
                    lines.append(current)
                    current = indent + word
                } else {
                    current = candidate
                }
            }
            lines.append(current)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The first line, trimmed, with a leading "Error: " dropped.
    static func oneLine(_ s: String) -> String {
        var first = s.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? s
        if first.hasPrefix("Error: ") { first.removeFirst(7) }
        return first.trimmingSpaces()
    }
}
