import FocusSystem
import FocusText
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Runs focus subcommands for the view as separate processes of this same binary, so that a
/// session started here is exactly `focus start`'s and a pause or stop exactly `focus pause`'s
/// and `focus stop`'s: no rule is written twice.
struct UIChild {
    var databasePath: String
    var environment: [String: String]

    /// This binary (`/proc/self/exe`, proc(5)).
    private var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs `focus ARGS --db PATH`, waits, and returns its first line: what it did, or its error.
    func run(_ arguments: [String]) -> (ok: Bool, line: String) {
        guard let (pid, output) = spawn(arguments, newSession: false) else { return (false, "focus \(arguments.joined(separator: " ")) could not be started.") }
        let text = UIChild.readAll(output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let ok = (status & 0x7f) == 0 && (status >> 8) & 0xff == 0
        return (ok, UIChild.answer(text, ok: ok))
    }

    /// Starts `focus start PATH --db PATH` in a session of its own (setsid(2)), with no
    /// terminal: it runs on when the view is closed, as it would in another terminal. An error
    /// it prints is handed to `failed`.
    func start(_ path: String, failed: @escaping @Sendable (String) -> Void) -> Bool {
        background(["start", path], keepOutput: false) { ok, line in
            if !ok || line.hasPrefix("focus: error:") { failed(line) }
        }
    }

    /// Runs `focus ARGS --db PATH` without waiting, in a session of its own (no terminal: it
    /// cannot read the view's keys or prompt over its screen); `ended` gets whether it
    /// succeeded and its first error line (else its first line), on a thread of its own.
    @discardableResult
    func background(_ arguments: [String], keepOutput: Bool = true, ended: @escaping @Sendable (Bool, String) -> Void) -> Bool {
        guard let (pid, output) = spawn(arguments, newSession: true, outputToNull: !keepOutput) else { return false }
        DetachedThread.start {
            let text = UIChild.readAll(output)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            let ok = (status & 0x7f) == 0 && (status >> 8) & 0xff == 0
            ended(ok, UIChild.answer(text, ok: ok))
        }
        return true
    }

    /// The child's pid and the read end of a pipe holding its standard error (and its standard
    /// output, unless `outputToNull`); its standard input is /dev/null.
    private func spawn(_ arguments: [String], newSession: Bool, outputToNull: Bool = false) -> (pid_t, Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if outputToNull {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        ChildProcess.defaultSignals(&attr, ownGroup: false)
        if newSession {
            var flags: Int16 = 0
            posix_spawnattr_getflags(&attr, &flags)
            // POSIX_SPAWN_SETSID (posix_spawnattr_setflags(3), glibc 2.26), whose value is 0x80:
            // a GNU extension the C importer does not bring in.
            posix_spawnattr_setflags(&attr, flags | 0x80)
        }
        let exe = executable
        let argv: [UnsafeMutablePointer<CChar>?] = ([exe] + arguments + ["--db", databasePath]).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, exe, &actions, &attr, argv, envp)
        close(ends[1])
        guard rc == 0 else {
            close(ends[0])
            return nil
        }
        return (pid, ends[0])
    }

    /// The line that says what a command did: its error when it failed, else its first line
    /// of output that is not a note or warning (`focus: …`), else its first line.
    static func answer(_ text: String, ok: Bool) -> String {
        let lines = text.split(separator: "\n")
        let line = ok ? lines.first { !$0.hasPrefix("focus: ") } : lines.first { $0.hasPrefix("focus: error:") }
        return String(line ?? lines.first ?? "")
    }

    /// Everything on `fd` up to its end (at most 64 KB kept); closes it.
    private static func readAll(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            if bytes.count < 65_536 { bytes += buffer[0..<n] }
        }
        close(fd)
        return String(decoding: bytes, as: UTF8.self)
    }
}
