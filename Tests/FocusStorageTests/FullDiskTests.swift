import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A database on a file system that is full, or read-only: the error says which (it used to say
/// "input/output error (disk I/O error)"), and nothing already there is lost. Needs root to mount
/// a small tmpfs; scripts/torture/torture runs the same with the binary.
@Suite(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
struct FullDiskTests {
    /// A fresh 2 MiB tmpfs (a new database with every migration applied needs more than 512 KiB of WAL), or nil where mounting is not allowed (a container without the capability).
    static func mount() throws -> String? {
        let dir = NSTemporaryDirectory() + "focus-tiny-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", dir]) == 0 else {
            try? FileManager.default.removeItem(atPath: dir)
            return nil
        }
        return dir
    }

    static func unmount(_ dir: String) {
        _ = run("/bin/umount", ["-l", dir])
        try? FileManager.default.removeItem(atPath: dir)
    }

    static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }

    static func fill(_ dir: String) {
        let fd = open(dir + "/filler", O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 0, count: 4096)
        while write(fd, block, block.count) > 0 {}
        close(fd)
    }

    @Test func aFullDiskIsNamedAndWhatWasThereStays() throws {
        guard let dir = try FullDiskTests.mount() else { return }
        defer { FullDiskTests.unmount(dir) }
        let path = dir + "/focus.sqlite"
        let now = TestDates.instant("2026-11-22T09:00:00Z")
        do {
            let db = try AppDatabase.open(path: path)
            _ = try db.addTask(title: "Thesis", notes: nil, now: now)
        }
        FullDiskTests.fill(dir)
        do {
            let db = try AppDatabase.open(path: path)
            _ = try db.addTask(title: "Reading", notes: nil, now: now)
            Issue.record("a write to a full disk succeeded")
        } catch {
            #expect(error.exitCode == 74)
            #expect(error.description.contains("the disk holding \(dir) is full; free some space and try again (nothing was written)"), "\(error)")
        }
        unlink(dir + "/filler")
        let titles = try AppDatabase.open(path: path).catalog().tasks.map(\.title)
        #expect(titles == ["Thesis"])
    }

    @Test func aReadOnlyFileSystemIsNamed() throws {
        guard let dir = try FullDiskTests.mount() else { return }
        defer { FullDiskTests.unmount(dir) }
        let path = dir + "/focus.sqlite"
        do {
            _ = try AppDatabase.open(path: path).addTask(title: "Thesis", notes: nil, now: TestDates.instant("2026-11-22T09:00:00Z"))
        }
        try #require(FullDiskTests.run("/bin/mount", ["-o", "remount,ro", dir]) == 0)
        do {
            _ = try AppDatabase.open(path: path).addTask(title: "Reading", notes: nil, now: TestDates.instant("2026-11-22T09:00:00Z"))
            Issue.record("a write to a read-only file system succeeded")
        } catch {
            #expect(error.exitCode == 74)
            #expect(error.description.contains("\(dir) is on a read-only file system; remount it read-write"), "\(error)")
        }
    }
}

/// A database named on a kernel file system (proc(5)), whose statvfs reports no blocks at all: the
/// error says so, where it used to say that the disk holding /proc was full.
struct KernelFileSystemTests {
    @Test func aFileUnderProcIsNotCalledAFullDisk() throws {
        do {
            _ = try AppDatabase.open(path: "/proc/version")
            Issue.record("/proc/version opened as a database")
        } catch {
            let sentence = String(describing: error)
            #expect(sentence.contains("/proc is not on a disk"), "\(sentence)")
            #expect(!sentence.contains("full"), "\(sentence)")
        }
    }
}
