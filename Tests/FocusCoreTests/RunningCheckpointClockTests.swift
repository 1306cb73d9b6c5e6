import FocusCore
import Foundation
import Testing

/// Another machine's running session as its checkpoint in the sync calendar says, read with this
/// machine's clock (README, "Two machines").
@Suite struct RunningCheckpointClockTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// A 25-minute work phase whose checkpoint was written `offset` seconds from `now` by the
    /// other machine's clock, with `left` seconds to go then.
    static func checkpoint(writtenAt offset: Double, left: Int = 1500, paused: Bool = false) -> RunningCheckpoint {
        let at = now.addingTimeInterval(offset)
        return RunningCheckpoint(machineID: "m1", machine: "laptop", label: "Thesis/Chapter 2", phase: "work", paused: paused,
                                 remainingSeconds: left, endsAt: paused ? nil : at.addingTimeInterval(Double(left)), checkpointAt: at)
    }

    /// A clock 36 h ahead showed `2208:22 left` for a 25-minute session: a checkpoint from the
    /// future is ignored, running or paused.
    @Test(arguments: [36 * 3600.0, 2 * 3600.0, 61.0] as [Double])
    func aCheckpointFromTheFutureIsIgnored(ahead: Double) {
        #expect(Self.checkpoint(writtenAt: ahead).line(at: Self.now) == nil)
        #expect(Self.checkpoint(writtenAt: ahead, paused: true).line(at: Self.now) == nil)
    }

    /// A clock a little ahead (within a minute) is believed, but never shows more left than the
    /// checkpoint said.
    @Test func neverMoreLeftThanTheCheckpointSaid() {
        let ahead = Self.checkpoint(writtenAt: 50, left: 600)
        #expect(ahead.remaining(at: Self.now) == 600)
        #expect(ahead.line(at: Self.now) == "running on laptop: Thesis/Chapter 2 (work), 10:00 left")
        // Read two minutes after it was written: two minutes less.
        let written = Self.checkpoint(writtenAt: -120, left: 600)
        #expect(written.remaining(at: Self.now) == 480)
        #expect(written.line(at: Self.now) == "running on laptop: Thesis/Chapter 2 (work), 8:00 left")
    }

    /// A session whose phase ended more than a minute ago (or a clock far behind) is over.
    @Test func anEndedCheckpointShowsNothing() {
        #expect(Self.checkpoint(writtenAt: -36 * 3600).line(at: Self.now) == nil)
        #expect(Self.checkpoint(writtenAt: -3600, paused: true).remaining(at: Self.now) == 1500)
    }
}
