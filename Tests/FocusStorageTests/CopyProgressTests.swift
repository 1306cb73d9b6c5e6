import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import Synchronization
import Testing

/// Backups and restores told step by step (for the progress line) make the same copies.
@Suite struct CopyProgressTests {
    @Test func aBackupAndARestoreInStepsReportProgressUpToTheWholeAndCopyEverything() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("focus-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try AppDatabase.inMemory()
        let now = TestDates.instant("2026-11-20T12:00:00Z")
        let sub = Subtask(taskID: 0, title: "Chapter 2", createdAt: now)
        let ids = try db.addSubtask(taskTitle: "Thesis", subtask: sub, now: now)
        for i in 0..<200 {
            let end = now - Double(i * 3600)
            _ = try db.recordSession(TimeLog(taskID: ids.taskID, subtaskID: ids.subtaskID, startedAt: end - 1500, endedAt: end,
                                             plannedSeconds: 1500, focusedSeconds: 1500, status: .completed), now: now)
        }
        let steps = Mutex<[(Int, Int)]>([])
        let backup = dir.appendingPathComponent("copy.sqlite").path
        let made = try db.backup(to: backup) { done, total in steps.withLock { $0.append((done, total)) } }
        #expect(made.sessions == 200)
        let seen = steps.withLock { $0 }
        #expect(!seen.isEmpty)
        #expect(seen.last.map { $0.0 == $0.1 && $0.1 > 0 } == true)

        let target = dir.appendingPathComponent("focus.sqlite").path
        let restoreSteps = Mutex(0)
        let restored = try AppDatabase.restore(from: backup, into: target, aside: target + ".aside") { _, _ in restoreSteps.withLock { $0 += 1 } }
        #expect(restored.facts.sessions == 200)
        #expect(restoreSteps.withLock { $0 } > 0)
    }
}
