import FocusCLI
import FocusCore
import FocusServices
import FocusStorage
import FocusTestSupport
import Foundation
import FocusSQLite
import Testing

/// The daemon's loop driven by a `TestClock`: minutes pass in microseconds, "now" is the
/// test's start plus the clock's time (plus any jump the test makes).
/// A value shared between the test and the loop's closures.
final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}

@Suite struct DaemonLoopTests {
    final class Harness: Sendable {
        let database: AppDatabase
        let inbox = DaemonInbox()
        let clock: TestClock
        let notifier = RecordingNotifier()
        let hooks = RecordingHookRunner()
        let base = TestWorld.instant("2026-11-23T13:50:00Z")
        let jump = Shared<TimeInterval>(0)
        let logs = Shared<[String]>([])
        let settles = Shared(0)
        let config: FocusConfig

        init(database: AppDatabase? = nil, config: FocusConfig = FocusConfig()) throws {
            self.database = try database ?? AppDatabase.inMemory()
            self.config = config
            let inbox = self.inbox
            let ref = Shared<TestClock?>(nil)
            clock = TestClock(isIdle: { inbox.isWaiting && (ref.value?.sleeperCount ?? 0) > 0 })
            ref.value = clock
        }

        var now: Date {
            let offset = clock.now.offset.components
            return base.addingTimeInterval(Double(offset.seconds) + Double(offset.attoseconds) / 1e18 + jump.value)
        }

        /// What `syncData` was called for, and the signature of the local data it reads.
        let syncs = Shared(0)
        let signature = Shared<[Int64]>([1])
        /// Another command changes the data while the first sync runs.
        let changeDuringFirstSync = Shared(false)
        let slowSync = Shared(false)
        let signatureReads = Shared(0)
        let refreshes = Shared(0)
        /// Rounds of the loop (it reads the fingerprint once a round).
        let loops = Shared(0)
        /// Publications of the plan, and whether the last one failed (offline).
        let publishes = Shared(0)
        let publishPending = Shared(false)

        /// Starts a daemon; returns its task.
        func start(syncing: Bool = false, refreshing: Bool = false, publishing: Bool = false) -> Task<Void, Never> {
            var daemon = ReminderDaemon(
                clock: clock, now: { self.now }, database: database, inbox: inbox, config: config,
                calendar: LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!), reloadConfig: { () throws(FocusError) -> FocusConfig in
                    var c = FocusConfig()
                    c.reminderSeconds = 0
                    return c
                },
                makeNotifier: { [notifier] config -> any Notifier in config.notifications ? notifier : SilentNotifier() },
                settle: { [settles] _, _ in settles.update { $0 += 1 } },
                fingerprint: { [loops] in loops.update { $0 += 1 }; return nil }, log: { [logs] line in logs.update { $0.append(line) } })
            daemon.hooks = hooks
            if syncing {
                daemon.syncData = { [syncs, signature, changeDuringFirstSync, slowSync] _ in
                    syncs.update { $0 += 1 }
                    if changeDuringFirstSync.value, syncs.value == 1 { signature.value = [9] }
                    // A slow server: a second of real time.
                    if slowSync.value { try? await Task.sleep(for: .seconds(1), clock: ContinuousClock()) }
                }
                daemon.syncSignature = { [signature, signatureReads] in
                    signatureReads.update { $0 += 1 }
                    return signature.value
                }
            }
            if refreshing {
                daemon.refreshCalendars = { [refreshes] _ in refreshes.update { $0 += 1 } }
            }
            if publishing {
                daemon.publishPlan = { [publishes] _ in publishes.update { $0 += 1 } }
                daemon.publishPending = { [publishPending] in publishPending.value }
            }
            return Task { await daemon.run() }
        }

        func stop(_ task: Task<Void, Never>) async {
            inbox.post(.stop)
            await task.value
        }

        /// A planned block for Thesis/Chapter 2 from `start` minutes after the base, 50 minutes long.
        @discardableResult
        func block(startingIn minutes: Double, length: Double = 50) throws -> Int64 {
            let ids = try database.addSubtask(taskTitle: "Thesis", subtask: Subtask(taskID: 0, title: "Chapter 2", createdAt: base), now: base)
            let start = Int64(base.timeIntervalSince1970 + minutes * 60)
            return try database.write { db in
                try db.execute(sql: "INSERT INTO scheduledBlock (subtaskId, startedAt, endedAt) VALUES (?, ?, ?)",
                               arguments: [ids.subtaskID, start, start + Int64(length * 60)])
                return db.lastInsertedRowID
            }
        }

        var summaries: [String] { notifier.notices.map(\.summary) }
    }

    @Test func remindsAtTheLeadTimeAndAtTheStartEachOnce() async throws {
        let h = try Harness()
        try h.block(startingIn: 10)
        let task = h.start()
        await h.clock.advance(by: .seconds(299))
        #expect(h.summaries.isEmpty)
        await h.clock.advance(by: .seconds(1))
        #expect(h.summaries == ["Thesis/Chapter 2 — 50 min block in 5 min"])
        #expect(h.notifier.notices.first?.body == "15:00–15:50")
        await h.clock.advance(by: .seconds(299))
        #expect(h.summaries.count == 1)
        await h.clock.advance(by: .seconds(1))
        #expect(h.summaries == ["Thesis/Chapter 2 — 50 min block in 5 min",
                                "Thesis/Chapter 2 — 50 min block starts now · run `focus start`"])
        await h.clock.advance(by: .seconds(600))
        #expect(h.summaries.count == 2)
        await h.stop(task)
        let stored = try h.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sentReminder") }
        #expect(stored == 2)
    }

    /// README, "Your real calendar": the daemon publishes a change of plan made elsewhere
    /// within seconds, and a publication that failed (offline) is tried again every minute.
    @Test func publishesWithinTenSecondsOfAChangeOfPlanAndRetriesWhileOffline() async throws {
        let h = try Harness()
        let task = h.start(publishing: true)
        await h.clock.advance(by: .seconds(1))
        let initial = h.publishes.value
        try h.block(startingIn: 60)
        await h.clock.advance(by: .seconds(10))
        #expect(h.publishes.value == initial + 1, "the new block is published within 10 s")
        await h.clock.advance(by: .seconds(120))
        #expect(h.publishes.value == initial + 1, "nothing changed: nothing written")
        h.publishPending.value = true
        await h.clock.advance(by: .seconds(125))
        #expect(h.publishes.value >= initial + 3, "offline: tried again every minute")
        h.publishPending.value = false
        await h.clock.advance(by: .seconds(10))
        let after = h.publishes.value
        await h.clock.advance(by: .seconds(180))
        #expect(h.publishes.value == after, "published: no more tries")
        await h.stop(task)
    }

    @Test func syncsAtStartAMomentAfterALocalChangeAndEveryInterval() async throws {
        var config = FocusConfig()
        config.syncIntervalSeconds = 3600
        let h = try Harness(config: config)
        let task = h.start(syncing: true)
        await h.clock.advance(by: .seconds(1))
        #expect(h.syncs.value == 1, "at start")
        await h.clock.advance(by: .seconds(60))
        #expect(h.syncs.value == 1, "nothing changed")
        h.signature.value = [2]
        await h.clock.advance(by: .seconds(6))
        #expect(h.syncs.value == 1, "a change waits a moment for what follows it")
        await h.clock.advance(by: .seconds(10))
        #expect(h.syncs.value == 2)
        await h.clock.advance(by: .seconds(3610))
        #expect(h.syncs.value == 3, "every sync_interval")
        await h.stop(task)
    }

    /// A job that comes due while another runs waits for it without spinning the loop (a
    /// spinning loop raced its own timer against SIGTERM and lost the stop).
    @Test func aJobDueWhileAnotherRunsWaitsWithoutSpinning() async throws {
        var config = FocusConfig()
        config.calendarRefreshSeconds = 60
        let h = try Harness(config: config)
        h.slowSync.value = true
        let task = h.start(syncing: true, refreshing: true)
        await h.clock.advance(by: .seconds(1))   // the refresh, then the slow sync begins
        await h.clock.advance(by: .seconds(120)) // the next refresh comes due meanwhile
        let rounds = h.loops.value
        #expect(rounds < 200, "the loop went round \(rounds) times in 121 s while a job ran")
        await h.stop(task)
    }

    @Test func aChangeMadeWhileASyncRunsGoesInTheNextOne() async throws {
        let h = try Harness()
        h.changeDuringFirstSync.value = true
        let task = h.start(syncing: true)
        await h.clock.advance(by: .seconds(1))
        #expect(h.syncs.value == 1)
        await h.clock.advance(by: .seconds(30))
        #expect(h.syncs.value == 2)
        await h.clock.advance(by: .seconds(120))
        #expect(h.syncs.value == 2)
        await h.stop(task)
    }

    @Test func theBlockStartsHookRunsWithTheStartNoticeOnly() async throws {
        let h = try Harness()
        let id = try h.block(startingIn: 10)
        let task = h.start()
        await h.clock.advance(by: .seconds(300))
        #expect(h.summaries.count == 1)
        #expect(h.hooks.events.isEmpty, "the early reminder runs no hook")
        await h.clock.advance(by: .seconds(300))
        await h.stop(task)
        // Started off the loop's path: give it a moment.
        for _ in 0..<200 where h.hooks.events.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        #expect(h.hooks.events == [.blockStarts])
        #expect(h.hooks.payloads.first?.rendered() == """
            {"event": "block-starts", "block_id": \(id), "task": "Thesis", "subtask": "Chapter 2", \
            "start": "2026-11-23T14:00:00Z", "end": "2026-11-23T14:50:00Z", "planned_seconds": 3000}
            """)
    }

    @Test func aRestartedDaemonSendsNothingTwice() async throws {
        let h = try Harness()
        try h.block(startingIn: 5)
        let first = h.start()
        await h.clock.advance(by: .seconds(1))
        #expect(h.summaries == ["Thesis/Chapter 2 — 50 min block in 5 min"])
        await h.stop(first)
        let second = h.start()
        await h.clock.advance(by: .seconds(30))
        #expect(h.summaries.count == 1, "the early reminder is remembered")
        await h.clock.advance(by: .seconds(300))
        await h.stop(second)
        #expect(h.summaries.count == 2)
    }

    @Test func theRunningSessionsBlockStaysQuiet() async throws {
        let h = try Harness()
        let id = try h.block(startingIn: 1)
        try h.database.write { db in
            try db.execute(sql: """
                INSERT INTO activeSession (id, pid, taskId, subtaskId, blockId, phase, state, cycle, cycles, phaseStartedAt,
                  plannedSeconds, workPlannedSeconds, focusedSeconds, remainingSeconds, checkpointAt)
                VALUES (1, 1, 1, 2, ?, 'work', 'running', 1, 4, ?, 1500, 1500, 0, 1500, ?)
                """, arguments: [id, Int64(h.base.timeIntervalSince1970), Int64(h.base.timeIntervalSince1970)])
        }
        let task = h.start()
        await h.clock.advance(by: .seconds(600))
        await h.stop(task)
        #expect(h.summaries.isEmpty)
    }

    @Test func aBlockThatEndsIsSettledOnceAtItsEnd() async throws {
        let h = try Harness()
        try h.block(startingIn: 1, length: 2)
        let task = h.start()
        await h.clock.advance(by: .seconds(179))
        #expect(h.settles.value == 0)
        await h.clock.advance(by: .seconds(1))
        #expect(h.settles.value == 1)
        await h.clock.advance(by: .seconds(60))
        #expect(h.settles.value == 1, "the re-plan does not repeat for the same block")
        await h.stop(task)
    }

    @Test func aNewPeriodOfRecurringWorkIsPlannedOnceADayWithoutSpinning() async throws {
        let h = try Harness()
        var series = Subtask(taskID: 0, title: "Weekly review", estimateSeconds: 3600, createdAt: h.base)
        series.recurrence = Recurrence(every: .week)
        _ = try h.database.addSubtask(taskTitle: "Admin", subtask: series, now: h.base)
        let task = h.start()
        await h.clock.advance(by: .seconds(1))
        #expect(h.settles.value == 1, "the week's instances are missing: the plan is made again")
        // This settle makes no instance; the daemon does not try again and again that day.
        await h.clock.advance(by: .seconds(600))
        #expect(h.settles.value == 1)
        await h.stop(task)
    }

    @Test func stopEndsTheLoopWithoutWaitingForTheTimer() async throws {
        let h = try Harness()
        let task = h.start()
        await h.clock.settle()
        await h.stop(task)
        #expect(h.clock.now.offset == .zero)
    }

    @Test func reloadTakesTheNewLeadTime() async throws {
        let h = try Harness()
        try h.block(startingIn: 10)
        let task = h.start()
        await h.clock.settle()
        h.inbox.post(.reload)
        await h.clock.advance(by: .seconds(600))
        await h.stop(task)
        #expect(h.summaries == ["Thesis/Chapter 2 — 50 min block starts now · run `focus start`"])
        #expect(h.logs.value.contains("config reloaded"))
    }

    @Test func theDaySummaryComesAtItsTimeOnceEvenAcrossARestart() async throws {
        var config = FocusConfig()
        config.summaryTime = TimeOfDay(hour: 14, minute: 55)  // 13:55Z, five minutes after the base
        let h = try Harness(config: config)
        try h.database.write { db in
            try db.execute(sql: "INSERT INTO task (id, title, titleKey, createdAt) VALUES (1, 'Thesis', 'thesis', 0)")
            try db.execute(sql: """
                INSERT INTO timeLog (taskId, startedAt, endedAt, plannedSeconds, focusedSeconds, status, createdAt)
                VALUES (1, ?, ? + 1500, 1500, 1500, 'completed', 0), (1, ? + 1800, ? + 2400, 1500, 600, 'interrupted', 0)
                """, arguments: StatementArguments(Array(repeating: Int64(h.base.timeIntervalSince1970) - 7200, count: 4)))
        }
        let first = h.start()
        await h.clock.advance(by: .seconds(299))
        #expect(h.summaries.isEmpty)
        await h.clock.advance(by: .seconds(1))
        #expect(h.summaries == ["Today: 35m focused · 2 sessions"])
        #expect(h.notifier.notices.first?.body == "1 completed, 1 interrupted")
        await h.stop(first)
        let second = h.start()
        await h.clock.advance(by: .seconds(30))
        await h.stop(second)
        #expect(h.summaries.count == 1)
    }

    @Test func aWallClockJumpIsNoticedAndTheDueReminderSent() async throws {
        let h = try Harness()
        try h.block(startingIn: 30)
        let task = h.start()
        await h.clock.advance(by: .seconds(1))
        // The wall clock jumps 25 minutes ahead (a resume from suspend): the early reminder is due.
        h.jump.value = 1500
        await h.clock.advance(by: .seconds(5))
        await h.stop(task)
        #expect(h.summaries == ["Thesis/Chapter 2 — 50 min block in 5 min"])
        #expect(h.logs.value.contains { $0.hasPrefix("the wall clock moved 1500 s") })
    }
}

@Suite struct DaemonServiceTests {
    @Test func theShippedUnitIsTheInstalledOneWithTheUsualPath() throws {
        let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data/focus.service")
        let shipped = try String(contentsOf: data, encoding: .utf8)
        #expect(try shipped == DaemonCommand.unit(executable: "%h/.local/bin/focus"))
        #expect(shipped.contains("ExecStart=%h/.local/bin/focus daemon\n"))
        #expect(shipped.contains("Restart=on-failure\n"))
    }

    @Test func anInstallPathWithSpacesOrPercentIsQuotedForSystemd() throws {
        #expect(try DaemonCommand.unit(executable: "/opt/my tools/focus", arguments: ["--db", "/d/100%.sqlite"])
            .contains(#"ExecStart="/opt/my tools/focus" daemon --db /d/100%%.sqlite"# + "\n"))
    }

    @Test func installWritesTheUnitUnderXDGConfigHomeAndSaysHowToEnableIt() async throws {
        let dir = try TempDir()
        let world = try TestWorld()
        let r = await FocusMain.run(arguments: ["daemon", "--install"], console: world.console) { global throws(FocusError) in
            var env = try world.environment(global: global)
            env.environment = ["XDG_CONFIG_HOME": dir.path]
            return env
        }
        #expect(r == 0)
        let unit = try dir.read("systemd/user/focus.service")
        #expect(unit.contains("ExecStart=/"), "an absolute path: \(unit)")
        #expect(world.console.stdout.contains("systemctl --user enable --now focus"))
    }

    @Test func aSecondDaemonOnTheSameDatabaseIsRefusedNamingThePid() throws {
        let dir = try TempDir()
        let path = dir.path + "/focus.sqlite.daemon.lock"
        let first = try DaemonLock.acquire(path: path, pid: 4242)
        // flock locks belong to the open file: a second open in this process conflicts too.
        #expect(throws: FocusError.self) { try DaemonLock.acquire(path: path) }
        do {
            _ = try DaemonLock.acquire(path: path)
        } catch {
            #expect(error.exitCode == 69)
            #expect(error.description.contains("pid 4242"))
        }
        first.release()
        let again = try DaemonLock.acquire(path: path)
        again.release()
    }

    /// Runs `daemon --install` with `args` and `environment`, the unit under a fresh XDG_CONFIG_HOME.
    private func install(_ args: [String], environment: [String: String] = [:]) async throws -> (code: Int32, unit: String?, err: String, dir: TempDir) {
        let dir = try TempDir()
        let world = try TestWorld()
        let code = await FocusMain.run(arguments: ["daemon", "--install"] + args, console: world.console) { global throws(FocusError) in
            var env = try world.environment(global: global)
            env.environment = environment.merging(["XDG_CONFIG_HOME": dir.path]) { a, _ in a }
            return env
        }
        return (code, try? dir.read("systemd/user/focus.service"), world.console.stderr, dir)
    }

    @Test(arguments: ["x\nExecStart=/bin/touch PWNED", "a\rb", "tab\there", "esc\u{1B}[0m", "c1\u{85}"])
    func aDatabasePathWithAControlCharacterIsRefusedAndNoUnitWritten(_ path: String) async throws {
        let r = try await install(["--db", "/tmp/" + path])
        #expect(r.code == 64)
        #expect(r.unit == nil)
        #expect(r.err.hasPrefix("focus: error: invalid path '"))
        #expect(r.err.split(separator: "\n").count == 1)
    }

    @Test func theInstalledUnitWatchesTheDatabaseFOCUS_DBOrDbNames() async throws {
        let viaEnvironment = try await install([], environment: ["FOCUS_DB": "/data/mine.sqlite"])
        #expect(viaEnvironment.code == 0)
        #expect(viaEnvironment.unit?.contains(" daemon --db /data/mine.sqlite\n") == true, "\(viaEnvironment.unit ?? "")")
        let relative = try await install(["--db", "./rel/db.sqlite"])
        let cwd = FileManager.default.currentDirectoryPath
        #expect(relative.unit?.contains(" daemon --db \(DaemonCommand.quoted((cwd.hasSuffix("/") ? cwd : cwd + "/") + "rel/db.sqlite"))\n") == true,
                "\(relative.unit ?? "")")
        let none = try await install([])
        #expect(none.unit?.contains(" daemon\n") == true)
    }

    @Test func dollarsPercentsQuotesBackslashesAndSemicolonsAreEscapedForSystemd() throws {
        #expect(DaemonCommand.quoted("/d/$HOME/x") == "/d/$$HOME/x")
        #expect(DaemonCommand.quoted("/d/${X}%n") == "/d/$${X}%%n")
        #expect(DaemonCommand.quoted("/d/a;b") == #""/d/a;b""#)
        #expect(DaemonCommand.quoted(#"/d/"q" \b"#) == #""/d/\"q\" \\b""#)
        #expect(DaemonCommand.quoted("") == #""""#)
    }

    @Test func oneDatabaseNamedByALinkDotOrDotDotHasOneLock() throws {
        let dir = try TempDir()
        let real = try dir.file("focus.sqlite", "")
        #expect(symlink(real, dir.path + "/link.sqlite") == 0)
        let sub = dir.path + "/sub"
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let names = [real, dir.path + "/link.sqlite", dir.path + "/./focus.sqlite", sub + "/../focus.sqlite", dir.path + "//focus.sqlite"]
        let locks = Set(names.map(DaemonLock.lockPath(forDatabase:)))
        #expect(locks.count == 1, "\(locks)")
        let first = try DaemonLock.acquire(path: DaemonLock.lockPath(forDatabase: names[1]), pid: 4242)
        defer { first.release() }
        for name in names {
            do {
                _ = try DaemonLock.acquire(path: DaemonLock.lockPath(forDatabase: name))
                Issue.record("a second lock through \(name)")
            } catch {
                #expect(error.exitCode == 69)
            }
        }
        // A database that does not exist yet: its directory is resolved.
        #expect(DaemonLock.lockPath(forDatabase: sub + "/../new.sqlite") == DaemonLock.lockPath(forDatabase: dir.path + "/new.sqlite"))
    }

    @Test func aLockFileThatIsALinkOrAStrangersFileIsRefusedAndLeftAsItWas() throws {
        let dir = try TempDir()
        let victim = try dir.file("victim", "precious")
        let lock = dir.path + "/focus.sqlite.daemon.lock"
        #expect(symlink(victim, lock) == 0)
        #expect(throws: FocusError.self) { try DaemonLock.acquire(path: lock) }
        #expect(try dir.read("victim") == "precious")
        unlink(lock)
        #expect(link(victim, lock) == 0, "a hard link")
        do {
            _ = try DaemonLock.acquire(path: lock)
            Issue.record("a hard-linked lock file was taken")
        } catch {
            #expect(error.exitCode == 74)
            #expect(error.description.contains("not a lock file focus made"))
        }
        #expect(try dir.read("victim") == "precious")
        unlink(lock)
        let mine = try DaemonLock.acquire(path: lock, pid: 77)
        #expect(try dir.read("focus.sqlite.daemon.lock") == "77\n")
        mine.release()
    }
}
