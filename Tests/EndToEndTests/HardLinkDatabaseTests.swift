import Foundation
import Glibc
import Testing

/// A database reached through a hard link (issue #39): SQLite keeps one write-ahead log per
/// name, so sessions recorded through one name vanished through the other. Every command
/// refuses a database file with more than one name, in one line saying why and what to do.
@Suite struct HardLinkDatabaseTests {
    @Test func aDatabaseFileWithASecondNameIsRefusedThroughEitherNameUntilItHasOne() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        #expect(try await s.run("task", "add", "Thesis").code == 0)
        let second = s.dir.appendingPathComponent("second.sqlite").path
        #expect(link(s.db, second) == 0)
        for name in [second, s.db] {
            let r = try await s.run("--db", name, "log", "add", "Thesis", "--start", "2026-11-20 09:00", "--duration", "25m")
            #expect(r.code == 74)
            let lines = r.err.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("focus: error: cannot open \(name): the database file has 2 names (hard links)"), "\(r.err)")
            #expect(r.err.contains("Give it one name"))
        }
        // The daemon does not start on the other name either.
        #expect(try await s.run("--db", second, "daemon").code == 74)
        #expect(unlink(second) == 0)
        let listed = try await s.run("task", "list")
        #expect(listed.code == 0 && listed.out.contains("Thesis"), "\(listed.err)")
    }
}
