import FocusCLI
import FocusCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The session lock beside the database: one per database whatever its name, and never
/// anything but a plain file of focus's own.
@Suite struct SessionLockTests {
    func dir() throws -> String {
        let d = NSTemporaryDirectory() + "focus-lock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    @Test func nobodyHoldsALockThatWasNeverTakenAndTheHolderIsNamedWhileItIs() throws {
        let d = try dir()
        defer { try? FileManager.default.removeItem(atPath: d) }
        let db = d + "/focus.sqlite"
        #expect(SessionLock.owner(database: db) == .nobody)
        let lock = try SessionLock.acquire(database: db)
        #expect(SessionLock.owner(database: db) == .process(getpid()))
        #expect(throws: FocusError.self) { try SessionLock.acquire(database: db) }
        var st = stat()
        #expect(stat(lock.path, &st) == 0 && st.st_mode & 0o777 == 0o600)
        lock.release()
        #expect(SessionLock.owner(database: db) == .nobody)
    }

    @Test func everyNameOfOneDatabaseLeadsToOneLock() throws {
        let d = try dir()
        defer { try? FileManager.default.removeItem(atPath: d) }
        FileManager.default.createFile(atPath: d + "/focus.sqlite", contents: Data())
        #expect(symlink(d + "/focus.sqlite", d + "/other.sqlite") == 0)
        #expect(SessionLock.path(forDatabase: d + "/other.sqlite") == SessionLock.path(forDatabase: d + "/focus.sqlite"))
        let lock = try SessionLock.acquire(database: d + "/other.sqlite")
        defer { lock.release() }
        #expect(SessionLock.owner(database: d + "/focus.sqlite").isRunning)
    }

    @Test func aLockPathThatIsASymbolicLinkOrAFifoIsRefusedAndHeldByNobody() throws {
        let d = try dir()
        defer { try? FileManager.default.removeItem(atPath: d) }
        let db = d + "/focus.sqlite"
        let target = d + "/elsewhere"
        FileManager.default.createFile(atPath: target, contents: Data("keep".utf8))
        #expect(symlink(target, db + ".session.lock") == 0)
        do {
            _ = try SessionLock.acquire(database: db)
            Issue.record("a symbolic link was used as the lock")
        } catch {
            #expect(error.exitCode == 74)
        }
        #expect(SessionLock.owner(database: db) == .nobody)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")

        let db2 = d + "/second.sqlite"
        #expect(mkfifo(db2 + ".session.lock", 0o600) == 0)
        do {
            _ = try SessionLock.acquire(database: db2)
            Issue.record("a FIFO was used as the lock")
        } catch {
            #expect(error.exitCode == 74)
        }
        #expect(SessionLock.owner(database: db2) == .nobody)
    }
}
