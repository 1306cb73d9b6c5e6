import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `focus ui` while another program holds the database's write lock (README: the view's bad
/// input, "a database locked by a writer"): it opens, reads and answers keys, and quits cleanly.
extension FullScreenViewTests {
    @Test func aDatabaseLockedByAWriterStillOpensAnswersKeysAndQuits() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis/Chapter 2", "--estimate", "2h")
        let db = try #require(s.environment["FOCUS_DB"])
        let marker = s.dir.appendingPathComponent("locked").path
        // Another program takes the write lock (BEGIN IMMEDIATE), says so with a file, and holds it
        // until it is killed: nothing is read from a pipe, so nothing here can block on it.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("BEGIN IMMEDIATE")
            open(sys.argv[2], "w").close()
            time.sleep(300)
            """, db, marker]
        try holder.run()
        // SIGKILL: the child inherits the test thread's blocked signals, so SIGTERM would wait.
        defer { kill(holder.processIdentifier, SIGKILL); holder.waitUntilExit() }
        #expect(await eventually { FileManager.default.fileExists(atPath: marker) }, "the lock holder never took the lock")
        try await t.openView()
        try await t.keys("3")
        try await t.waitFor("Chapter 2")
        try await t.keys("5")
        try await t.waitFor("[5 Stats]")
        try await t.keys("1")
        try await t.waitFor("[1 Today]")
        try await t.quitView()
        #expect(holder.isRunning, "the lock was held the whole time")
    }
}
