import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `focus status` as prompts and status bars read it, idle and running.
@Suite struct StatusCommandTests {
    /// Thesis/Intro planned from 10:00 local (now), and 25 minutes of Side/Reading logged today.
    func plannedWorld() async throws -> TestWorld {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-11-23")
        await world.run("task", "add", "Side/Reading")
        await world.run("log", "add", "Side/Reading", "--start", "2026-11-22 08:00", "--duration", "25m")
        return world
    }

    /// Claims the running-session slot for this process: `phase` with `remaining` of `planned` left.
    func startSession(_ world: TestWorld, path: String, phase: Phase = .work, planned: Int = 1500, remaining: Int,
                      paused: Bool = false, blockID: Int64? = nil) throws {
        let target = try world.database.catalog().resolve(path)
        let now = world.now
        let started = now.addingTimeInterval(-Double(planned - remaining))
        let snapshot = SessionSnapshot(
            phase: phase, cycle: 2, cycles: 4, plannedSeconds: planned, remaining: .seconds(remaining), isPaused: paused,
            phaseStartedAt: started, endsAt: paused ? nil : now.addingTimeInterval(Double(remaining)),
            focusedSeconds: phase == .work ? planned - remaining : 0, workStartedAt: phase == .work ? started : nil,
            workPlannedSeconds: 1500)
        _ = try world.database.claimSession(
            ActiveSession(pid: getpid(), taskID: target.taskID, subtaskID: target.subtaskID, blockID: blockID,
                          snapshot: snapshot, checkpointAt: now),
            now: now, lock: {})
    }

    @Test func idleTemplateShowsTheNextBlockAndTodaysFocus() async throws {
        let world = try await plannedWorld()
        let r = await world.output("status", "--format", "{next} · {today}")
        #expect(r.code == 0)
        #expect(r.out == "10:00 Thesis/Intro · 25m\n")
    }

    @Test func idleTemplateWithoutNextOrTodayStaysAnEmptyLine() async throws {
        let world = try await plannedWorld()
        #expect(await world.output("status", "--format", "{path} {remaining}").out == "\n")
        #expect(await world.output("status").out == "idle\n")
    }

    /// `{state} {path} {remaining} | {next}` printed `idle   |` when idle: the empty fields take
    /// their spaces along and a separator with nothing after it goes.
    @Test func idleTemplateLeavesNoRunOfBlanksOrDanglingSeparator() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        #expect(await world.output("status", "--format", "{state} {path} {remaining} | {next}").out == "idle\n")
        let planned = try await plannedWorld()
        #expect(await planned.output("status", "--format", "{state} {path} {remaining} | {next}").out == "idle | 10:00 Thesis/Intro\n")
        try startSession(planned, path: "Side/Reading", remaining: 900)
        #expect(await planned.output("status", "--format", "{state} {path} {remaining} | {next}").out == "running Side/Reading 15:00 | 10:00 Thesis/Intro\n")
    }

    @Test func aBlockTomorrowIsNamedWithItsWeekday() async throws {
        let world = try TestWorld(now: "2026-11-22T20:50:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "Thesis/Intro", "--estimate", "25m", "--due", "2026-11-24")
        #expect(await world.output("status", "--format", "{next}").out == "Mon 08:00 Thesis/Intro\n")
    }

    @Test func todayCountsTheRunningWorkSessionSoFar() async throws {
        let world = try await plannedWorld()
        try startSession(world, path: "Side/Reading", remaining: 900)
        let r = await world.output("status", "--format", "{path} {remaining} · {today} · next {next}")
        // 25m logged + 10m of this session; the next block is still Thesis/Intro at 10:00.
        #expect(r.out == "Side/Reading 15:00 · 35m · next 10:00 Thesis/Intro\n")
    }

    @Test func theRunningSessionsOwnBlockIsNotItsNext() async throws {
        let world = try await plannedWorld()
        let blocks = try world.database.blocks(startingFrom: world.now)
        try startSession(world, path: "Thesis/Intro", remaining: 1200, blockID: blocks.first?.id)
        #expect(await world.output("status", "--format", "{next}").out == "10:30 Thesis/Intro\n")
    }

    @Test func waybarGetsOneJSONObjectWithTextTooltipClassAndPercentage() async throws {
        let world = try await plannedWorld()
        try startSession(world, path: "Side/Reading", remaining: 900)
        let r = await world.output("status", "--waybar")
        #expect(r.out == """
            {"text": "Side/Reading 15:00", "tooltip": "Side/Reading\\nwork · 15:00 left · cycle 2 of 4\\n35m focused today\\nnext: 10:00 Thesis/Intro", \
            "class": ["running", "work"], "percentage": 40}

            """)
    }

    @Test func waybarWhenIdleShowsTheNextBlock() async throws {
        let world = try await plannedWorld()
        let r = await world.output("status", "--waybar")
        #expect(r.out == """
            {"text": "next 10:00 Thesis/Intro", "tooltip": "idle\\n25m focused today\\nnext: 10:00 Thesis/Intro", \
            "class": ["idle"], "percentage": 0}

            """)
    }

    @Test func waybarEscapesMarkupInTitles() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek
        await world.run("task", "add", "R&D/<draft>")
        try startSession(world, path: "R&D/<draft>", remaining: 1500)
        let r = await world.output("status", "--waybar")
        #expect(r.out.hasPrefix(#"{"text": "R&amp;D/&lt;draft&gt; 25:00""#))
    }

    @Test func i3blocksPrintsFullTextShortTextAndAColourPerState() async throws {
        let world = try await plannedWorld()
        #expect(await world.output("status", "--i3blocks").out == "next 10:00 Thesis/Intro\nnext 10:00\n#768390\n")
        try startSession(world, path: "Side/Reading", phase: .shortBreak, planned: 300, remaining: 240)
        #expect(await world.output("status", "--i3blocks").out == "short break 4:00\n4:00\n#57AB5A\n")
    }

    @Test func aPausedSessionSaysSoInEveryPreset() async throws {
        let world = try await plannedWorld()
        try startSession(world, path: "Side/Reading", remaining: 600, paused: true)
        #expect(await world.output("status", "--i3blocks").out == "Side/Reading 10:00 paused\n10:00 paused\n#C69026\n")
        #expect(await world.output("status", "--waybar").out.contains(#""class": ["paused", "work"]"#))
    }

    @Test func onlyOneOutputFormatAtATime() async throws {
        let world = try TestWorld()
        world.config = TestWorld.roundTheWeek
        let r = await world.output("status", "--waybar", "--format", "{path}")
        #expect(r.code == 64)
        #expect(r.err == "focus: error: --format and --waybar cannot be used together; choose one.\n")
    }
}

extension StatusCommandTests {
    /// A status bar on a machine where nothing was recorded yet reads no database at all, and
    /// shows what it shows for an empty one, in every output.
    @Test func withNoDatabaseYetEveryOutputIsAnEmptyDatabasesOne() async throws {
        let empty = try TestWorld(now: "2026-11-22T09:00:00Z")
        let fresh = try TestWorld(now: "2026-11-22T09:00:00Z")
        fresh.databaseMissing = true
        let outputs: [[String]] = [
            ["status"], ["status", "--json"], ["status", "--waybar"], ["status", "--i3blocks"],
            ["status", "--format", "{state}|{path}|{remaining}|{next}|{today}"], ["status", "--format", "{path}"],
        ]
        for args in outputs {
            let expected = await empty.output(args)
            let got = await fresh.output(args)
            #expect(got.code == 0 && got.err.isEmpty, "\(args): \(got.err)")
            #expect(got.out == expected.out, "\(args)")
        }
    }
}

/// `status --json` and the plain line, byte for byte, as scripts and prompts read them.
extension StatusCommandTests {
    @Test func jsonOfARunningSessionIsPinned() async throws {
        let world = try await plannedWorld()
        try startSession(world, path: "Thesis/Intro", remaining: 600)
        let r = await world.output("status", "--json")
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out == #"{"state": "running", "task": "Thesis", "subtask": "Intro", "phase": "work", "started_at": "2026-11-22T08:45:00Z", "ends_at": "2026-11-22T09:10:00Z", "remaining_seconds": 600, "cycle": 2, "cycles": 4, "paused": false, "elapsed_seconds": 900, "pid": \#(getpid())}"# + "\n")
        #expect(await world.output("status").out == "Thesis/Intro · work · 10:00 left\n")
    }

    @Test func jsonOfAPausedBreakIsPinned() async throws {
        let world = try await plannedWorld()
        try startSession(world, path: "Side/Reading", phase: .shortBreak, planned: 300, remaining: 120, paused: true)
        let r = await world.output("status", "--json")
        #expect(r.out == #"{"state": "paused", "task": "Side", "subtask": "Reading", "phase": "short_break", "started_at": "2026-11-22T08:57:00Z", "ends_at": null, "remaining_seconds": 120, "cycle": 2, "cycles": 4, "paused": true, "elapsed_seconds": 180, "pid": \#(getpid())}"# + "\n")
        #expect(await world.output("status").out == "Side/Reading · short break · paused · 2:00 left\n")
    }
}
