import FocusSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Child processes in tests, the one home of starting them and waiting for them: the commands
/// the end-to-end tests run and the servers tests talk to (Radicale and Xandikos, the slow-PUT,
/// feed and hostile servers). posix_spawn(3) with signals as a fresh program has them
/// (`ChildProcess.defaultSignals`): a child started from a test thread would otherwise inherit
/// the thread's blocked signals, and a blocked SIGCHLD makes a shell wait forever. What a child
/// reads and writes goes through files, never pipes that fill up. Tests stop what they started
/// with SIGKILL (`stop`), which nothing a child blocks or ignores can delay.
package enum TestProcess {
    package struct Output: Sendable {
        package var status: Int32
        package var out: String
        package var err: String
    }

    /// Starts `path` with `arguments` (argv, the program's name first) and `environment`, its
    /// files set up by `actions`. posix_spawn's result (0: started, `pid` set).
    package static func spawn(_ pid: inout pid_t, _ path: String, arguments: [String], environment: [String: String],
                              actions: inout posix_spawn_file_actions_t) -> Int32 {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        ChildProcess.defaultSignals(&attr, ownGroup: false)
        return posix_spawn(&pid, path, &actions, &attr, argv, envp)
    }

    /// Starts `arguments` (the program's path first) and leaves it running: standard input from
    /// /dev/null, standard output and error into the file `output` (or /dev/null). Its pid.
    package static func start(_ arguments: [String], output: String?,
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let rc = spawn(&pid, arguments[0], arguments: arguments, environment: environment, actions: &actions)
        guard rc == 0 else { throw TestProcessFailure(message: "could not start \(arguments[0]): \(String(cString: strerror(rc)))") }
        return pid
    }

    /// Runs `path args` to its end: `stdin` as its standard input, its standard output and
    /// error read back when `capture` (else thrown away). Blocking: callers off the cooperative
    /// pool run it on a thread of their own.
    package static func run(_ path: String, _ args: [String], environment: [String: String], stdin: String?, capture: Bool) throws -> Output {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let inPath = tmp.appendingPathComponent("in").path
        let outPath = capture ? tmp.appendingPathComponent("out").path : "/dev/null"
        let errPath = capture ? tmp.appendingPathComponent("err").path : "/dev/null"
        try Data((stdin ?? "").utf8).write(to: URL(fileURLWithPath: inPath))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var pid: pid_t = 0
        let rc = spawn(&pid, path, arguments: [path] + args, environment: environment, actions: &actions)
        guard rc == 0 else { throw TestProcessFailure(message: "could not start \(path): \(String(cString: strerror(rc)))") }
        let code = wait(pid)
        func read(_ p: String) -> String {
            capture ? ((try? String(contentsOfFile: p, encoding: .utf8)) ?? "") : ""
        }
        return Output(status: code, out: read(outPath), err: read(errPath))
    }

    /// Waits for `pid` to end; its exit code, 128 + N for signal N (as a shell reports it).
    @discardableResult
    package static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG (wait(2)).
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// What a starting server writes to a file (its port, say), once `parse` takes it; nil when
    /// the server `pid` ended first (it is reaped then: its log says why) or `seconds` passed, a
    /// bound for a server that never comes up, never a figure a test checks.
    package static func awaitFile<T>(_ path: String, writtenBy pid: pid_t, within seconds: Double, _ parse: (String) -> T?) -> T? {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), let value = parse(text) { return value }
            if waitpid(pid, nil, WNOHANG) == pid { return nil }
            usleep(20_000)
        }
        return nil
    }

    /// Stops `pid` with SIGKILL and reaps it; nothing when it has been reaped already.
    package static func stop(_ pid: pid_t) {
        guard pid > 0, waitpid(pid, nil, WNOHANG) == 0 else { return }
        kill(pid, SIGKILL)
        wait(pid)
    }
}

package struct TestProcessFailure: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
