import FocusSystem
import FocusText
import ArgumentParser
import FocusServices
import Synchronization
import FocusCore
import FocusNotifications
import FocusStorage
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `focus daemon [--install]`.
package struct DaemonCommand: FocusRunnable {
    package static let configuration = CommandConfiguration(
        commandName: "daemon", abstract: "Remind before planned blocks begin and keep the plan honest (a service).",
        discussion: """
            Runs in the foreground, meant for a systemd user service: a notification `reminder` \
            before each planned block (0 turns it off) and one as it starts, each once; blocks \
            that pass with no session are marked missed and the plan is redone. SIGHUP reloads \
            the config; SIGTERM or Ctrl-C stops it. One daemon per database.
            """)

    @Flag(help: "Install the systemd user unit and print how to enable it.")
    var install = false
    @Option(help: GlobalOptions.dbHelp, completion: GlobalOptions.dbCompletion) package var db: String?
    @Option(help: GlobalOptions.tzHelp, completion: GlobalOptions.tzCompletion) package var tz: String?

    package init() {}

    package func run(in env: FocusEnvironment) async throws {
        if install {
            try installUnit(env)
            return
        }
        // Held only here (and by the environment): a database renamed over is let go before
        // the new file is opened.
        let opened = FileIdentity.of(path: env.databasePath)
        let current = try CurrentDatabase(env.openDatabase())
        let lock = try DaemonLock.acquire(path: DaemonLock.lockPath(forDatabase: env.databasePath))
        defer { lock.release() }

        let inbox = DaemonInbox()
        let signals = DaemonSignals()
        signals.start(inbox)
        defer { signals.stop() }

        let console = env.console
        let log: @Sendable (String) -> Void = { console.note("daemon: \($0)") }
        let terminal = TerminalNotifier(console: console, bell: false)
        let makeDesktop = env.makeNotifier
        // Each notice makes its notifier; that desktop notifications are unavailable is said
        // once a run, not before every notice.
        let unavailable = SaidOnce { console.note(DisplayText($0)) }
        let configPath = env.configPath
        let databasePath = env.databasePath
        log("watching \(databasePath) (pid \(getpid()))")
        await DaemonCommand.runLoop(
            clock: env.clock, now: env.now, inbox: inbox, config: env.config, calendar: env.calendar,
            reloadConfig: { () throws(FocusError) -> FocusConfig in try FocusEnvironment.loadConfig(path: configPath) },
            makeNotifier: { config in config.notifications ? makeDesktop(terminal, unavailable.say) : SilentNotifier() },
            settle: { config, db in
                var e = env
                e.config = config
                Planning.replanQuietly(e.services, db)
            },
            fingerprint: { DatabaseFingerprint.of(path: databasePath) },
            files: DatabaseFiles.live(env, opened: opened, current: current),
            log: log, hooks: env.makeHooks(log),
            refreshCalendars: { config in
                var e = env
                e.config = config
                guard let db = current.database else { return }
                await DaemonCalendars.refresh(e.services, db, notifier: config.notifications ? makeDesktop(terminal, unavailable.say) : SilentNotifier(), log: log)
            },
            publishPlan: { config in
                var e = env
                e.config = config
                guard let db = current.database else { return }
                await DaemonCalendars.publish(e.services, db, log: log)
            },
            syncData: { config in
                var e = env
                e.config = config
                guard let db = current.database else { return }
                await DaemonCalendars.sync(e.services, db, log: log)
            },
            syncSignature: { try? current.database?.syncSignature() })
        log("stopped")
    }

    /// Opens the clock existential so the loop is specialised for it.
    private static func runLoop<C: Clock>(
        clock: C, now: @escaping @Sendable () -> Date, inbox: DaemonInbox, config: FocusConfig, calendar: LocalCalendar,
        reloadConfig: @escaping @Sendable () throws(FocusError) -> FocusConfig,
        makeNotifier: @escaping @Sendable (FocusConfig) -> any Notifier,
        settle: @escaping @Sendable (FocusConfig, AppDatabase) -> Void,
        fingerprint: @escaping @Sendable () -> DatabaseFingerprint?, files: DatabaseFiles, log: @escaping @Sendable (String) -> Void,
        hooks: any HookRunner, refreshCalendars: @escaping @Sendable (FocusConfig) async -> Void,
        publishPlan: @escaping @Sendable (FocusConfig) async -> Void,
        syncData: @escaping @Sendable (FocusConfig) async -> Void, syncSignature: @escaping @Sendable () -> [Int64]?
    ) async where C.Duration == Duration {
        // No binding of its own keeps the first connection open after a reopen.
        guard var daemon = files.current.database.map({
            ReminderDaemon(clock: clock, now: now, database: $0, inbox: inbox, config: config, calendar: calendar,
                           reloadConfig: reloadConfig, makeNotifier: makeNotifier, settle: settle, fingerprint: fingerprint, log: log)
        }) else { return }
        daemon.hooks = hooks
        daemon.identity = files.identity
        daemon.openedIdentity = files.opened
        daemon.reopen = files.reopen
        daemon.refreshCalendars = refreshCalendars
        daemon.publishPlan = publishPlan
        daemon.publishPending = { [current = files.current] in (try? current.database?.publicationPending()) ?? false }
        daemon.syncData = syncData
        daemon.syncSignature = syncSignature
        await daemon.run()
    }

    /// Writes the unit to `$XDG_CONFIG_HOME/systemd/user/focus.service` with this binary's path
    /// and, when `--db` or `FOCUS_DB` names the database, its absolute path.
    private func installUnit(_ env: FocusEnvironment) throws {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let base: String
        if let xdg = env.environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = UserDirectories.home(env.environment) + "/.config"
        }
        let path = base + "/systemd/user/focus.service"
        var arguments: [String] = []
        // The database this command would use, when --db or FOCUS_DB chose it (as `databasePath` does).
        if let named = [global.db, env.environment["FOCUS_DB"]].compactMap({ $0 }).first(where: { !$0.isEmpty }) {
            arguments += ["--db", DaemonCommand.absolute(named, from: FileManager.default.currentDirectoryPath)]
        }
        let unit = try DaemonCommand.unit(executable: exe, arguments: arguments)
        try AtomicFile.write(unit, to: path, access: .requested)
        env.console.line("Wrote \(path)")
        env.console.line("Enable it with: systemctl --user enable --now focus")
    }

    /// `path` from `directory` when relative, without leading `./` steps (links are kept: the
    /// unit names what the person named).
    static func absolute(_ path: String, from directory: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var rest = Substring(path)
        while rest.hasPrefix("./") { rest = rest.dropFirst(2).drop(while: { $0 == "/" }) }
        return (directory.hasSuffix("/") ? directory : directory + "/") + rest
    }

    /// The systemd user unit; `data/focus.service` is this with `%h/.local/bin/focus`.
    /// A word with a control character (a line break would start a new directive) is refused (64).
    package static func unit(executable: String, arguments: [String] = []) throws(FocusError) -> String {
        let words = [executable, "daemon"] + arguments
        for word in words where word.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw .invalidValue(what: word == executable ? "path of focus" : "path", value: word,
                                expected: "a path without control characters such as line breaks or tabs, which a systemd unit cannot hold")
        }
        let command = words.map(quoted).joined(separator: " ")
        return """
            [Unit]
            Description=focus reminders before planned work blocks
            After=graphical-session.target

            [Service]
            Type=simple
            ExecStart=\(command)
            ExecReload=/bin/kill -HUP $MAINPID
            Restart=on-failure
            RestartSec=5

            [Install]
            WantedBy=default.target

            """
    }

    /// A word as systemd reads it in ExecStart (systemd.service(5), "Command lines";
    /// systemd.syntax(7), "Quoting"): `%` specifiers written `%%`, `$` variable expansion
    /// written `$$`, and in double quotes (C-style escapes) when it has blanks, quotes,
    /// backslashes or a `;`. A leading `%h/` is kept as the home-directory specifier.
    package static func quoted(_ word: String) -> String {
        var escaped = word.replacing("%", with: "%%").replacing("$", with: "$$")
        if word.hasPrefix("%h/") { escaped = "%h/" + escaped.dropFirst(4) }
        guard escaped.isEmpty || escaped.contains(where: { " \t\"'\\;".contains($0) }) else { return escaped }
        return "\"" + escaped.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}

/// The daemon's database file: which file is at its path, and how to open it afresh.
struct DatabaseFiles {
    /// The file at the path just before the database was first opened.
    var opened: FileIdentity?
    var identity: @Sendable () -> FileIdentity?
    var reopen: @Sendable () throws(FocusError) -> AppDatabase
    var current: CurrentDatabase

    /// The files at `env`'s database path; a reopen lets the open database go first (its
    /// write-ahead log has the name the new one's gets), then opens the file there now.
    static func live(_ env: FocusEnvironment, opened: FileIdentity?, current: CurrentDatabase) -> DatabaseFiles {
        let path = env.databasePath
        return DatabaseFiles(opened: opened, identity: { FileIdentity.of(path: path) }, reopen: { () throws(FocusError) -> AppDatabase in
            current.set(nil)
            env.databaseUse.release()
            let fresh = try env.openDatabase()
            current.set(fresh)
            return fresh
        }, current: current)
    }
}

/// The database the daemon has open now, for the jobs that run beside its loop: another one
/// once the file at its path was renamed over.
final class CurrentDatabase: Sendable {
    private let state: Mutex<AppDatabase?>

    init(_ database: AppDatabase) { state = Mutex(database) }

    var database: AppDatabase? { state.withLock { $0 } }

    func set(_ database: AppDatabase?) { state.withLock { $0 = database } }
}

/// Passes on the first message only: a warning said once for a whole run.
final class SaidOnce: Sendable {
    private let said = Mutex(false)
    private let sink: @Sendable (String) -> Void

    init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    var say: @Sendable (String) -> Void {
        { [self] message in
            let first = said.withLock { done in
                defer { done = true }
                return !done
            }
            if first { sink(message) }
        }
    }
}
