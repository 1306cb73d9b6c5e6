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

    /// A lock file removed while the session runs is put back, locked, by the holder; one put
    /// there by someone else is left alone.
    @Test func aRemovedLockFileIsPutBackAndLockedAgain() throws {
        let d = try dir()
        defer { try? FileManager.default.removeItem(atPath: d) }
        let lock = try SessionLock.acquire(database: d + "/focus.sqlite")
        defer { lock.release() }
        #expect(lock.keepInPlace())
        #expect(unlink(lock.path) == 0)
        #expect(lock.keepInPlace())
        var st = stat()
        #expect(stat(lock.path, &st) == 0 && st.st_mode & 0o777 == 0o600)
        // Held for real: a lock another open file description asks for is refused (an OFD
        // lock conflicts with this process's own POSIX lock).
        let other = open(lock.path, O_RDWR)
        defer { close(other) }
        var probe = flock()
        probe.l_type = Int16(F_WRLCK)
        probe.l_whence = Int16(SEEK_SET)
        let ofdGetLock: Int32 = 36  // F_OFD_GETLK (fcntl(2), Linux); Glibc does not export it
        #expect(fcntl(other, ofdGetLock, &probe) == 0 && probe.l_type == Int16(F_WRLCK))
        // Replaced by another file: not ours to take over.
        #expect(unlink(lock.path) == 0 && symlink("/dev/null", lock.path) == 0)
        #expect(!lock.keepInPlace())
        var link = stat()
        #expect(lstat(lock.path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK)
        lock.release()
        #expect(!lock.keepInPlace())
    }

    @Test func everyNameOfOneDatabaseLeadsToOneLock() throws {
        let d = try dir()
        defer { try? FileManager.default.removeItem(atPath: d) }
        _ = FileManager.default.createFile(atPath: d + "/focus.sqlite", contents: Data())
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
        _ = FileManager.default.createFile(atPath: target, contents: Data("keep".utf8))
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
