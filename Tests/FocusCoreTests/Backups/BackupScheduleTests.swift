import FocusCore
import Foundation
import Testing

/// Daily backups sit beside the database, named after it (README, Backups).
@Suite struct BackupScheduleTests {
    @Test func backupsSitBesideTheDatabase() {
        let schedule = BackupSchedule(databasePath: "/home/ana/.local/share/focus/focus.sqlite")
        #expect(schedule.directory == "/home/ana/.local/share/focus")
        #expect(schedule.databaseName == "focus.sqlite")
        #expect(schedule.path(for: LocalDate(year: 2026, month: 11, day: 22))
            == "/home/ana/.local/share/focus/focus.sqlite.backup-2026-11-22")
    }

    /// `--db work.sqlite` names a file in the working directory, and so do its backups.
    @Test func aRelativeDatabaseIsTakenFromTheWorkingDirectory() {
        let here = FileManager.default.currentDirectoryPath
        let schedule = BackupSchedule(databasePath: "data/work.sqlite")
        #expect(schedule.directory == (here == "/" ? "" : here) + "/data")
        #expect(schedule.databaseName == "work.sqlite")
        #expect(BackupSchedule(databasePath: "work.sqlite").directory == here)
    }

    @Test func aDatabaseAtTheRootKeepsItsBackupsThere() {
        let schedule = BackupSchedule(databasePath: "/focus.sqlite")
        #expect(schedule.directory == "/")
        #expect(schedule.databaseName == "focus.sqlite")
    }
}
