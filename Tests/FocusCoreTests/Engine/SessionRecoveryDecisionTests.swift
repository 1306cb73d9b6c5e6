import Foundation
import Testing
import FocusCore

/// What a running-session row whose process is gone becomes: decided in Core
/// (`ActiveSession.recoveredLog`), applied by Storage.
@Suite struct SessionRecoveryDecisionTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    static func row(phase: Phase = .work, focused: Int, checkpoint: TimeInterval, workPlanned: Int = 1500,
                    workStarted: Date? = start) -> ActiveSession {
        let snapshot = SessionSnapshot(
            phase: phase, cycle: 1, cycles: 4, plannedSeconds: workPlanned, remaining: .seconds(100), isPaused: false,
            phaseStartedAt: start, endsAt: nil, focusedSeconds: focused, workStartedAt: phase == .work ? workStarted : nil,
            workPlannedSeconds: workPlanned)
        return ActiveSession(pid: 42, taskID: 1, subtaskID: 2, blockID: 9, snapshot: snapshot,
                             checkpointAt: start.addingTimeInterval(checkpoint), tags: ["deep"])
    }

    @Test func aCountdownIsRecordedInterruptedUpToItsLastCheckpoint() throws {
        let log = try #require(Self.row(focused: 300, checkpoint: 310).recoveredLog(blockID: 9))
        #expect(log.status == .interrupted)
        #expect(log.startedAt == Self.start && log.endedAt == Self.start.addingTimeInterval(310))
        #expect(log.focusedSeconds == 300 && log.plannedSeconds == 1500)
        #expect(log.blockID == 9 && log.tags == ["deep"] && log.note == ActiveSession.recoveredNote)
    }

    @Test func aStopwatchIsRecordedOpen() throws {
        let log = try #require(Self.row(focused: 600, checkpoint: 600, workPlanned: 0).recoveredLog(blockID: nil))
        #expect(log.status == .open && log.blockID == nil)
    }

    /// Focus never exceeds the time the session covers; a checkpoint before the start (a clock
    /// set back) gives an empty session, not a negative one.
    @Test(arguments: [(focused: 900, checkpoint: 600.0, expected: 600), (focused: 50, checkpoint: -30.0, expected: 0)])
    func focusIsBoundedByTheTimeCovered(focused: Int, checkpoint: Double, expected: Int) throws {
        let log = try #require(Self.row(focused: focused, checkpoint: checkpoint).recoveredLog(blockID: nil))
        #expect(log.focusedSeconds == expected)
        #expect(log.endedAt >= log.startedAt)
    }

    /// A timer left running for weeks (or a hand-edited checkpoint) ends at the longest session
    /// the log holds, so every later command can still record it.
    @Test func aCheckpointWeeksLaterIsCutAtTheLongestSession() throws {
        let log = try #require(Self.row(focused: 60 * 86_400, checkpoint: 60 * 86_400).recoveredLog(blockID: nil))
        #expect(log.endedAt.timeIntervalSince(log.startedAt) == Double(SessionRecord.maximumLengthSeconds))
        #expect(log.focusedSeconds == Int(SessionRecord.maximumLengthSeconds))
    }

    @Test func aBreakHasNoWorkToRecord() {
        #expect(Self.row(phase: .shortBreak, focused: 0, checkpoint: 100).recoveredLog(blockID: 9) == nil)
    }
}
