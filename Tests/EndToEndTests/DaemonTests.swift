import FocusCoreTestSupport
import Foundation
import Testing

/// `focus daemon` for real: the built binary on a private D-Bus session bus with the recording
/// notification server, `FOCUS_NOW` pinned and a block planned to start 3 s later.
@Suite(.serialized, .enabled(if: NotifyBus.available, "dbus-run-session or python3-dbus/gi is missing"))
struct DaemonTests {
    /// 2026-11-23T14:00:00Z.
    static let now = "2026-11-23T14:00:00Z"
    static let nowSeconds = 1_795_442_400

    /// A sandbox with Thesis/Chapter 2 and a 50-minute planned block starting 3 s after `now`.
    static func sandboxWithBlock() async throws -> Sandbox {
        let s = try Sandbox()
        let add = try await s.run("task", "add", "Thesis/Chapter 2")
        #expect(add.code == 0, "\(add.err)")
        let start = nowSeconds + 3
        let sql = "INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt) SELECT id, \(start), \(start + 3000) FROM subtask"
        let r = try await offPool { try TestProcess.run("/usr/bin/sqlite3", [s.db, sql], environment: s.environment, stdin: nil, capture: true) }
        #expect(r.status == 0, "\(r.err)")
        return s
    }

    /// Runs `focus daemon` on the bus until `record` holds `lines` notices (at most `seconds`),
    /// then SIGTERM; the result is the daemon's. `lines: 0` waits the whole `seconds`: for what
    /// must not happen, only time can tell.
    static func runDaemon(_ s: Sandbox, record: String, lines: Int, seconds: Int = 60) async throws -> Sandbox.Result {
        let script = TestRepository.script("servers/with-notify-bus")
        var environment = s.environment
        environment["FOCUS_NOW"] = now
        let env = environment
        let shell = """
            "$0" daemon & p=$!; n=0
            while [ $n -lt \(seconds * 10) ]; do
              [ \(lines) -gt 0 ] && [ "$(cat "$1" 2>/dev/null | wc -l)" -ge \(lines) ] && break
              sleep 0.1; n=$((n + 1))
            done
            kill -TERM $p; wait $p
            """
        return try await offPool {
            let r = try TestProcess.run(script, [record, "--", "/bin/sh", "-c", shell, Sandbox.binary, record], environment: env, stdin: nil, capture: true)
            return Sandbox.Result(code: r.status, out: r.out, err: r.err)
        }
    }

    static func summaries(_ record: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: record) else { return [] }
        return try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["summary"] as? String ?? ""
        }
    }

    @Test func theStartReminderArrivesOnceAndARestartSendsNothingTwice() async throws {
        let s = try await DaemonTests.sandboxWithBlock()
        defer { s.remove() }
        let record = s.dir.appendingPathComponent("notices.jsonl").path
        let first = try await DaemonTests.runDaemon(s, record: record, lines: 1)
        #expect(first.code == 0, "exits cleanly on SIGTERM: \(first.err)")
        // The early reminder's moment (4 min 57 s before FOCUS_NOW) is long past: skipped, not sent late.
        #expect(try DaemonTests.summaries(record) == ["Thesis/Chapter 2 — 50 min block starts now · run `focus start`"])

        let second = try await DaemonTests.runDaemon(s, record: record, lines: 0, seconds: 5)
        #expect(second.code == 0, "\(second.err)")
        let after = try DaemonTests.summaries(record)
        #expect(after.count == 1, "nothing twice: \(after)")
    }
}

extension DaemonTests {
    @Test func aNotificationServerThatComesBackIsUsedAgain() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        #expect(try await s.run("task", "add", "Thesis/Chapter 1").code == 0)
        #expect(try await s.run("task", "add", "Thesis/Chapter 2").code == 0)
        // Chapter 1 starts 1 s after FOCUS_NOW, with no server on the bus. Once its notice has
        // gone to the terminal, a server comes up; once it owns its name, Chapter 2 is planned
        // to start 2 s later (on the daemon's clock, which runs on from FOCUS_NOW): states, not
        // shell windows, so a slow machine only makes the test slower.
        let n = DaemonTests.nowSeconds
        let sql = """
            INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt)
              SELECT id, \(n + 1), \(n + 3001) FROM subtask WHERE title = 'Chapter 1';
            """
        let insert = try await offPool { try TestProcess.run("/usr/bin/sqlite3", [s.db, sql], environment: s.environment, stdin: nil, capture: true) }
        #expect(insert.status == 0, "\(insert.err)")
        let later = "INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt) SELECT id, \(n) + $1, \(n) + $1 + 3000 FROM subtask WHERE title = 'Chapter 2';"
        let record = s.dir.appendingPathComponent("notices.jsonl").path
        let recorder = TestRepository.script("servers/notify-recorder")
        let script = TestRepository.script("servers/with-notify-bus")
        var environment = s.environment
        environment["FOCUS_NOW"] = DaemonTests.now
        let env = environment
        let err = s.dir.appendingPathComponent("daemon.err").path
        let shell = """
            recorder=$1 record=$2 err=$3 db=$4 later=$5
            wait_for() { n=0; while [ $n -lt 600 ] && ! eval "$1"; do sleep 0.1; n=$((n + 1)); done; }
            : > "$err"; t0=$(date +%s); "$0" daemon 2>"$err" & p=$!
            wait_for 'grep -q "Chapter 1 — 50 min block starts now" "$err"'
            /usr/bin/python3 "$recorder" "$record" & r=$!
            wait_for 'dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null | grep -q true'
            sqlite3 "$db" "$(printf '%s' "$later" | sed "s/\\$1/$(( $(date +%s) - t0 + 2 ))/g")"
            wait_for '[ -s "$record" ]'
            kill -TERM $p; wait $p; c=$?; kill -TERM $r; wait $r; cat "$err" >&2; exit $c
            """
        let r = try await offPool {
            try TestProcess.run(script, ["-", "--", "/bin/sh", "-c", shell, Sandbox.binary, recorder, record, err, s.db, later],
                          environment: env, stdin: nil, capture: true)
        }
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("Thesis/Chapter 1 — 50 min block starts now"), "the first went to the fallback: \(r.err)")
        #expect(try DaemonTests.summaries(record) == ["Thesis/Chapter 2 — 50 min block starts now · run `focus start`"])
    }
}

extension DaemonTests {
    /// With no notification server, the daemon said "desktop notifications unavailable…" before
    /// every notice: it says so once a run, and every notice still goes to the terminal.
    @Test func desktopNotificationsUnavailableIsSaidOnceARun() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        #expect(try await s.run("task", "add", "Thesis/Chapter 1").code == 0)
        #expect(try await s.run("task", "add", "Thesis/Chapter 2").code == 0)
        let n = DaemonTests.nowSeconds
        let sql = """
            INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt)
              SELECT id, \(n + 1), \(n + 3001) FROM subtask WHERE title = 'Chapter 1';
            INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt)
              SELECT id, \(n + 3), \(n + 3003) FROM subtask WHERE title = 'Chapter 2';
            """
        let insert = try await offPool { try TestProcess.run("/usr/bin/sqlite3", [s.db, sql], environment: s.environment, stdin: nil, capture: true) }
        #expect(insert.status == 0, "\(insert.err)")
        let script = TestRepository.script("servers/with-notify-bus")
        var environment = s.environment
        environment["FOCUS_NOW"] = DaemonTests.now
        let env = environment
        // Until both notices reached the terminal (at most 60 s), then SIGTERM.
        let err = s.dir.appendingPathComponent("daemon.err").path
        let shell = """
            : > "$1"; "$0" daemon 2>"$1" & p=$!; n=0
            while [ $n -lt 600 ] && [ "$(grep -c '^🔔 .*block starts now' "$1")" -lt 2 ]; do sleep 0.1; n=$((n + 1)); done
            kill -TERM $p; wait $p; c=$?; cat "$1" >&2; exit $c
            """
        let r = try await offPool {
            try TestProcess.run(script, ["-", "--", "/bin/sh", "-c", shell, Sandbox.binary, err], environment: env, stdin: nil, capture: true)
        }
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("Thesis/Chapter 1 — 50 min block starts now"), "\(r.err)")
        #expect(r.err.contains("Thesis/Chapter 2 — 50 min block starts now"), "\(r.err)")
        #expect(r.err.components(separatedBy: "desktop notifications unavailable").count - 1 == 1, "\(r.err)")
    }
}

/// Process-level behaviour that needs no notification server.
@Suite(.serialized)
struct DaemonProcessTests {
    @Test func aSecondDaemonOnTheSameDatabaseExits69NamingThePid() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let shell = "\"$0\" daemon & p=$!; sleep 1.5; \"$0\" daemon; echo \"second=$?\"; echo \"first=$p\"; kill -TERM $p; wait $p"
        let r = try await offPool {
            try TestProcess.run("/bin/sh", ["-c", shell, Sandbox.binary], environment: s.environment, stdin: nil, capture: true)
        }
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("second=69"), "\(r.out)")
        let pid = r.out.split(separator: "\n").first { $0.hasPrefix("first=") }.map { String($0.dropFirst(6)) } ?? "?"
        #expect(r.err.contains("focus: error: a focus daemon is already running for this database (pid \(pid),"), "\(r.err)")
    }

    @Test func aBlockThatPassedWithNoSessionIsMarkedMissed() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        #expect(try await s.run("task", "add", "Thesis/Chapter 2").code == 0)
        // 13:10–13:50 UTC, ended ten minutes before FOCUS_NOW, no session.
        let start = DaemonTests.nowSeconds - 3000
        let sql = "INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt) SELECT id, \(start), \(start + 2400) FROM subtask"
        let insert = try await offPool { try TestProcess.run("/usr/bin/sqlite3", [s.db, sql], environment: s.environment, stdin: nil, capture: true) }
        #expect(insert.status == 0, "\(insert.err)")
        var environment = s.environment
        environment["FOCUS_NOW"] = DaemonTests.now
        let env = environment
        // Stopped 1.5 s after it says it is watching (not after a fixed time from launch, which
        // raced a slow start on a loaded machine).
        let shell = """
            log="$1"; "$0" daemon 2>"$log" & p=$!
            n=0; while ! grep -q watching "$log" 2>/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n+1)); done
            sleep 1.5; kill -TERM $p; wait $p
            """
        let log = s.dir.appendingPathComponent("daemon.log").path
        let r = try await offPool { try TestProcess.run("/bin/sh", ["-c", shell, Sandbox.binary, log], environment: env, stdin: nil, capture: true) }
        #expect(r.status == 0, "\(r.err)")
        let agenda = try await s.run("agenda", "2026-11-23", "--json")
        let object = try JSONSerialization.jsonObject(with: Data(agenda.out.utf8)) as? [String: Any]
        let blocks = object?["blocks"] as? [[String: Any]] ?? []
        #expect(blocks.map { $0["status"] as? String } == ["missed"], "\(agenda.out)")
    }

    @Test func sigtermStopsTheDaemonWithinASecond() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        // SIGTERM once the daemon says it is watching (its handlers are in place by then; a
        // fixed sleep raced a slow start on a loaded machine), then count the tenths until it is gone.
        let shell = """
            log="$1"; "$0" daemon 2>"$log" & p=$!
            n=0; while ! grep -q watching "$log" 2>/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n+1)); done
            kill -TERM $p; t=0; while kill -0 $p 2>/dev/null; do sleep 0.1; t=$((t+1)); done; wait $p; echo "code=$? tenths=$t"
            """
        let r = try await offPool {
            try TestProcess.run("/bin/sh", ["-c", shell, Sandbox.binary, s.dir.appendingPathComponent("daemon.log").path],
                          environment: s.environment, stdin: nil, capture: true)
        }
        #expect(r.out.contains("code=0"), "\(r.out) \(r.err)")
        let tenths = r.out.split(separator: "=").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 99
        #expect(tenths < 10, "stopped in \(tenths) tenths of a second")
    }
}

extension DaemonTests {
    /// Another process holds the database's write lock past the busy timeout just as the block
    /// starts: the daemon says so on standard error, keeps running, and posts the reminder once
    /// the lock is gone — once, and well within the two-minute grace.
    @Test func aLockedDatabaseIsRetriedAndTheReminderStillArrivesOnce() async throws {
        let s = try await DaemonTests.sandboxWithBlock()
        defer { s.remove() }
        let record = s.dir.appendingPathComponent("notices.jsonl").path
        let script = TestRepository.script("servers/with-notify-bus")
        var environment = s.environment
        environment["FOCUS_NOW"] = DaemonTests.now
        let env = environment
        // The lock: a write transaction held for 12 s from the daemon's start (the busy
        // timeout is 6 s, the block starts at 3 s, so the first attempt to record the reminder
        // gives up at about 9 s and the retry comes after the lock is released).
        let locker = """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
            c.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            time.sleep(12)
            c.execute("ROLLBACK")
            """
        let shell = """
            python3 -c "$1" "$2" > "$2.lock" & l=$!
            while ! grep -q locked "$2.lock" 2>/dev/null; do sleep 0.05; done
            "$0" daemon & p=$!; sleep 21; kill -TERM $p; wait $p; s=$?; wait $l; exit $s
            """
        let result = try await offPool {
            try TestProcess.run(script, [record, "--", "/bin/sh", "-c", shell, Sandbox.binary, locker, s.db], environment: env, stdin: nil, capture: true)
        }
        #expect(result.status == 0, "exits cleanly on SIGTERM: \(result.err)")
        #expect(result.err.contains("Trying again"), "the lock is reported: \(result.err)")
        #expect(try DaemonTests.summaries(record) == ["Thesis/Chapter 2 — 50 min block starts now · run `focus start`"])
    }
}

extension DaemonTests {
    /// Issue #39: a daemon whose database file was replaced (another file renamed over it, as
    /// `mv` or a sync tool does) kept reading the old, unlinked file: the new file's blocks were
    /// never reminded of. It notices the file at the path is another one and opens it afresh.
    @Test func aDatabaseRenamedOverIsOpenedAfreshAndItsBlockRemindedOf() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        #expect(try await s.run("task", "add", "Old/Only here").code == 0)
        // The replacement, made beside it, with a block 30 s after the daemon's FOCUS_NOW.
        let other = s.dir.appendingPathComponent("other.sqlite").path
        #expect(try await s.run("task", "add", "New/Arrived", env: ["FOCUS_DB": other]).code == 0)
        let start = DaemonTests.nowSeconds + 30
        let sql = "INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt) SELECT id, \(start), \(start + 3000) FROM subtask"
        let inserted = try await offPool { try TestProcess.run("/usr/bin/sqlite3", [other, sql], environment: s.environment, stdin: nil, capture: true) }
        #expect(inserted.status == 0, "\(inserted.err)")
        let record = s.dir.appendingPathComponent("notices.jsonl").path
        let script = TestRepository.script("servers/with-notify-bus")
        var environment = s.environment
        environment["FOCUS_NOW"] = DaemonTests.now
        let env = environment
        // Renamed over once the daemon watches the first file; then until the notice arrives.
        let shell = """
            "$0" daemon 2> "$1.err" & p=$!; n=0
            while ! grep -q watching "$1.err" && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
            mv "$2" "$3"; n=0
            while [ "$(cat "$1" 2>/dev/null | wc -l)" -lt 1 ] && [ $n -lt 900 ]; do sleep 0.1; n=$((n + 1)); done
            kill -TERM $p; wait $p; c=$?; cat "$1.err" >&2; exit $c
            """
        let result = try await offPool {
            try TestProcess.run(script, [record, "--", "/bin/sh", "-c", shell, Sandbox.binary, record, other, s.db], environment: env, stdin: nil, capture: true)
        }
        #expect(result.status == 0, "exits cleanly on SIGTERM: \(result.err)")
        #expect(result.err.contains("the database file was replaced"), "\(result.err)")
        #expect(try DaemonTests.summaries(record) == ["New/Arrived — 50 min block starts now · run `focus start`"], "\(result.err)")
    }
}
