import FocusCLI
import FocusCore
import FocusStorage
import FocusTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Things that are not regular files, made in a temporary directory for the rule on files
/// named on the command line (README, "Files named on the command line").
enum Oddity: String, CaseIterable, CustomStringConvertible {
    case missing, directory, fifo, socket, danglingLink, linkToFIFO, linkToDirectory

    var description: String { rawValue }

    /// Makes the thing at `dir/name` and returns its path.
    func make(in dir: TempDir, name: String) throws -> String {
        let path = dir.path + "/" + name
        switch self {
        case .missing:
            break
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .fifo:
            #expect(mkfifo(path, 0o600) == 0)
        case .socket:
            try Oddity.bindSocket(path)
        case .danglingLink:
            #expect(symlink(dir.path + "/nowhere-\(name)", path) == 0)
        case .linkToFIFO:
            #expect(mkfifo(path + ".fifo", 0o600) == 0)
            #expect(symlink(path + ".fifo", path) == 0)
        case .linkToDirectory:
            try FileManager.default.createDirectory(atPath: path + ".d", withIntermediateDirectories: false)
            #expect(symlink(path + ".d", path) == 0)
        }
        return path
    }

    /// A Unix socket bound at `path` (the descriptor is left open for the test's lifetime).
    static func bindSocket(_ path: String) throws {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        #expect(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(rc == 0)
    }

    /// The kind of what is at `path` (lstat), for "left as it was".
    static func kind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }
}

@Suite struct InputFileTests {
    /// `import`, `restore` and `calendar import` given something that is not a regular file.
    static let readers: [(String, [String])] = [
        ("h.jsonl", ["import"]), ("h.csv", ["import"]), ("backup.sqlite", ["restore"]), ("c.ics", ["calendar", "import"]),
    ]

    @Test(arguments: Oddity.allCases)
    func everyCommandThatReadsAFileRefusesWhatIsNotARegularFileWith66NamingIt(_ oddity: Oddity) async throws {
        let w = try FileWorld()
        let now = "2026-11-22T09:00:00Z"
        #expect(await w.run("task", "add", "Thesis", now: now).code == 0)
        let before = try FileWorld.bytes(w.db)
        for (i, (name, command)) in InputFileTests.readers.enumerated() {
            let path = try oddity.make(in: w.dir, name: "\(i)-\(name)")
            let r = await w.run(command + [path], now: now)
            #expect(r.code == 66, "\(command) \(oddity): \(r.err)")
            #expect(r.err.hasPrefix("focus: error: cannot read \(path): "), "\(r.err)")
            #expect(r.err.split(separator: "\n").count == 1)
            #expect(r.out == "")
        }
        #expect(try FileWorld.bytes(w.db) == before, "nothing written")
    }

    @Test(arguments: ["/dev/null", "/dev/zero", "/dev/full"])
    func aDeviceIsNeverReadAsAnInputFile(_ device: String) async throws {
        let w = try FileWorld()
        for command in [["import", device, "--format", "jsonl"], ["restore", device], ["calendar", "import", device]] {
            let r = await w.run(command, now: "2026-11-22T09:00:00Z")
            #expect(r.code == 66, "\(command): \(r.err)")
            #expect(r.err == "focus: error: cannot read \(device): it is a character device, not a regular file. Name a regular file.\n")
        }
    }

    @Test func aMissingFileIs66BeforeItsFormatIsGuessedAndAfterTheFlagsAreChecked() async throws {
        let world = try TestWorld()
        let missing = await world.output("import", "/nonexistent/h.json")
        #expect(missing.code == 66)
        #expect(missing.err == "focus: error: cannot read /nonexistent/h.json: no such file (a part of the path is not a directory). Check the path.\n"
            || missing.err == "focus: error: cannot read /nonexistent/h.json: no such file. Check the path.\n")
        let flags = await world.output("import", "/nonexistent/h.jsonl", "--format", "xml")
        #expect(flags.code == 64)
    }

    @Test func aLinkLoopATooLongNameAndAFileUnderAFileAreMissing66() async throws {
        let w = try FileWorld()
        let loop = w.dir.path + "/loop.jsonl"
        #expect(symlink(loop, loop) == 0)
        let plain = try w.dir.file("plain", "x")
        for path in [loop, w.dir.path + "/" + String(repeating: "n", count: 300) + ".jsonl", plain + "/h.jsonl"] {
            let r = await w.run("import", path, now: "2026-11-22T09:00:00Z")
            #expect(r.code == 66, "\(r.err)")
            #expect(r.err.hasPrefix("focus: error: cannot read \(path): no such file"))
        }
    }

    @Test func aConfigFileThatIsAFIFOIsRefusedInsteadOfBlocking() async throws {
        let dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.path + "/focus", withIntermediateDirectories: true)
        #expect(mkfifo(dir.path + "/focus/config.toml", 0o600) == 0)
        let console = RecordingConsole()
        let code = await FocusMain.run(arguments: ["task", "list", "--db", dir.path + "/db.sqlite"], console: console) { global throws(FocusError) in
            try FocusEnvironment.live(global: global, environment: ["XDG_CONFIG_HOME": dir.path, "HOME": dir.path], console: console)
        }
        #expect(code == 66)
        #expect(console.stderr.hasPrefix("focus: error: cannot read \(dir.path)/focus/config.toml: it is a FIFO"))
    }

    @Test(arguments: [Oddity.directory, .fifo, .socket, .linkToFIFO])
    func aDatabasePathThatIsNotARegularFileIsRefusedWith66(_ oddity: Oddity) async throws {
        let w = try FileWorld()
        let now = "2026-11-22T09:00:00Z"
        #expect(await w.run("task", "add", "Thesis", now: now).code == 0)
        let backup = w.dir.path + "/good-backup.sqlite"
        #expect(await w.run("backup", backup, now: now).code == 0)
        let path = try oddity.make(in: w.dir, name: "db.sqlite")
        let kind = Oddity.kind(path)
        for command in [["task", "add", "X"], ["status"], ["stats", "--last", "3"], ["restore", backup], ["daemon"]] {
            let r = await w.run(command + ["--db", path], now: now)
            #expect(r.code == 66, "\(command): \(r.err)")
            #expect(r.err.hasPrefix("focus: error: cannot read \(path): it is "), "\(r.err)")
            #expect(Oddity.kind(path) == kind, "\(command) left it as it was")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: w.dir.path).filter { $0.contains("before-restore") }
        #expect(left.isEmpty, "nothing moved aside: \(left)")
    }
}

@Suite struct OutputFileTests {
    /// Every command that writes a file it is given, with that file's path.
    static func writers(_ path: String) -> [[String]] {
        [["backup", path, "--force"], ["export", "--output", path], ["report", "--html", path, "--last", "3"],
         ["calendar", "export", path]]
    }

    @Test(arguments: [Oddity.directory, .fifo, .socket, .linkToFIFO, .linkToDirectory])
    func anOutputThatIsNotARegularFileIsRefusedWith74AndLeftAsItWas(_ oddity: Oddity) async throws {
        let w = try FileWorld()
        let now = "2026-11-22T09:00:00Z"
        #expect(await w.run("task", "add", "Thesis", now: now).code == 0)
        #expect(await w.logSession("2026-11-21 09:00", now: now) == 0)
        for (i, command) in OutputFileTests.writers("").enumerated() {
            let path = try oddity.make(in: w.dir, name: "out-\(i)")
            let kind = Oddity.kind(path)
            let r = await w.run(OutputFileTests.writers(path)[i], now: now)
            #expect(r.code == 74, "\(command[0]) \(oddity): \(r.err)")
            #expect(r.err.hasPrefix("focus: error: cannot write \(path): it is "), "\(r.err)")
            #expect(r.err.hasSuffix("not a regular file, and focus replaces only regular files. Name a new file or a regular one.\n"))
            #expect(r.out == "")
            #expect(Oddity.kind(path) == kind, "\(command[0]) left \(oddity) as it was")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: w.dir.path).filter { $0.contains("focus-tmp") }
        #expect(left.isEmpty, "no temporary file left: \(left)")
    }

    @Test func aLinkToARegularFileIsReplacedNotWrittenThrough() async throws {
        let w = try FileWorld()
        let now = "2026-11-22T09:00:00Z"
        #expect(await w.run("task", "add", "Thesis", now: now).code == 0)
        #expect(await w.logSession("2026-11-21 09:00", now: now) == 0)
        for (i, _) in OutputFileTests.writers("").enumerated() {
            let target = try w.dir.file("target-\(i)", "keep me")
            let link = w.dir.path + "/link-\(i)"
            #expect(symlink(target, link) == 0)
            let r = await w.run(OutputFileTests.writers(link)[i], now: now)
            #expect(r.code == 0, "\(r.err)")
            #expect(try w.dir.read("target-\(i)") == "keep me")
            #expect(Oddity.kind(link) == S_IFREG)
        }
    }

    @Test func aDanglingLinkIsReplacedAndWhatItNamedIsNotCreated() async throws {
        let w = try FileWorld()
        let now = "2026-11-22T09:00:00Z"
        #expect(await w.run("task", "add", "Thesis", now: now).code == 0)
        #expect(await w.logSession("2026-11-21 09:00", now: now) == 0)
        for (i, _) in OutputFileTests.writers("").enumerated() {
            let link = try Oddity.danglingLink.make(in: w.dir, name: "dangling-\(i)")
            let r = await w.run(OutputFileTests.writers(link)[i], now: now)
            #expect(r.code == 0, "\(r.err)")
            #expect(Oddity.kind(link) == S_IFREG)
            #expect(Oddity.kind(w.dir.path + "/nowhere-dangling-\(i)") == nil)
        }
    }

    @Test func dashIsStandardOutputForExportReportAndCalendarExport() async throws {
        let world = try TestWorld()
        try CLIFixtures.seed(world, CLIFixtures.smallHistory)
        let export = await world.output("export", "--output", "-")
        #expect(export.code == 0)
        #expect(export.out.split(separator: "\n").count == 3)
        #expect(!export.out.contains("Exported"))
        let csv = await world.output("export", "-o", "-", "--format", "csv")
        #expect(csv.out.hasPrefix("task,subtask,start,end,status"))
        let report = await world.output("report", "--html", "-", "--last", "3")
        #expect(report.code == 0)
        #expect(report.out.hasPrefix("<!DOCTYPE html>"))
        #expect(!report.out.contains("focused, "), "the summary line is left out")
        let calendar = await world.output("calendar", "export", "-")
        #expect(calendar.code == 0)
        #expect(calendar.out.hasPrefix("BEGIN:VCALENDAR"))
        #expect(!calendar.out.contains("Wrote "))
    }

    @Test func backupRefusesADirectoryOrFIFOEvenWithoutForce() async throws {
        let w = try FileWorld()
        let now = "2026-11-22T09:00:00Z"
        #expect(await w.run("task", "add", "Thesis", now: now).code == 0)
        #expect(await w.logSession("2026-11-21 09:00", now: now) == 0)
        let fifo = try Oddity.fifo.make(in: w.dir, name: "pipe")
        let r = await w.run("backup", fifo, now: now)
        #expect(r.code == 74)
        #expect(Oddity.kind(fifo) == S_IFIFO)
    }
}

@Suite struct DatabasePathTests {
    @Test(arguments: [
        ("file:/x?mode=memory", "./file:/x?mode=memory"), (":memory:", "./:memory:"), ("file:x", "./file:x"),
        ("/abs/file:x", "/abs/file:x"), ("rel/db.sqlite", "./rel/db.sqlite"), ("./here", "./here"),
    ])
    func sqliteIsAlwaysGivenAPlainFileName(path: String, name: String) {
        #expect(AppDatabase.sqliteName(path) == name)
    }
}
