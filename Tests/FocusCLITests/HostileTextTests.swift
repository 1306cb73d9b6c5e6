import FocusCLI
import FocusCore
import FocusRendering
import FocusTestSupport
import Foundation
import FocusSQLite
import Testing
import FocusStorage
import FocusText

/// Text that tries to drive the terminal: CSI, OSC 52 (clipboard), OSC 8 (links), C1
/// controls, bidirectional overrides, NUL/BEL/DEL/backspace/carriage return, and HTML.
enum Hostile {
    static let strings = [
        "csi\u{1B}[2J\u{1B}[31mred\u{1B}[0m",
        "osc52\u{1B}]52;c;Y3VybCBldmlsLmV4YW1wbGV8c2g=\u{07}",
        "osc8\u{1B}]8;;https://evil.example/\u{1B}\\click\u{1B}]8;;\u{1B}\\",
        "c1\u{9B}31m\u{9D}0;title\u{9C}",
        "bidi\u{202E}gnp.exe\u{2066}x\u{2069}\u{200F}\u{061C}",
        "Thes\u{200B}is\u{200C}zero\u{200D}width\u{2060}x\u{FEFF}",
        "nul\u{0}bel\u{7}del\u{7F}bs\u{8}cr\roverwritten",
        "<script>alert('x')</script> & more",
    ]

    /// Every scalar of `text` that could drive a terminal or hide in a name (line feeds between
    /// lines allowed).
    static func unsafe(in text: String) -> [String] {
        var found: [String] = []
        DisplayText.forEachScalar(of: text) { scalar, escaped in
            if scalar != "\n" && escaped || (0x202A...0x202E).contains(scalar.value) || [0x200B, 0x200C, 0x2060, 0xFEFF].contains(scalar.value) {
                found.append("U+" + String(scalar.value, radix: 16, uppercase: true))
            }
        }
        return found
    }

    /// Whether `text` holds something the views must show escaped.
    static func needsEscaping(_ text: String) -> Bool { !DisplayText.isShownAsIs(text.replacingOccurrences(of: "\n", with: " ")) }
}

@Suite struct HostileTextTests {
    /// A world whose database holds hostile text wherever a hand edit (or an .ics file) can put
    /// it: task and subtask titles, notes, a session note, an event's summary, a calendar name.
    func hostileWorld(_ evil: String, dir: TempDir) async throws -> TestWorld {
        let world = try TestWorld(now: "2026-11-23T06:00:00Z")
        #expect(await world.run("task", "add", "Thesis/Chapter", "--estimate", "2h", "--due", "2026-11-27", "--notes", evil) == 0)
        #expect(await world.run("log", "add", "Thesis/Chapter", "--start", "2026-11-23 06:00", "--duration", "25m") == 0)
        try world.database.writer.write { db in
            try db.execute(sql: "UPDATE task SET title = ?, notes = ?", arguments: [Self.taskTitle(evil), evil])
            try db.execute(sql: "UPDATE subtask SET title = ?", arguments: ["S" + evil])
            try db.execute(sql: "UPDATE timeLog SET note = ?", arguments: [evil])
        }
        let ics = try dir.file("evil.ics", """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            X-WR-CALNAME:Cal\(evil)\r
            BEGIN:VEVENT\r
            UID:evil-1\r
            DTSTART:20261123T100000Z\r
            DTEND:20261123T110000Z\r
            SUMMARY:Meet\(evil)\r
            LOCATION:Room\(evil)\r
            END:VEVENT\r
            END:VCALENDAR\r

            """)
        #expect(await world.run("calendar", "import", ics) == 0, "\(world.console.stderr)")
        return world
    }

    /// A task title may not hold `/` (it separates the subtask).
    static func taskTitle(_ evil: String) -> String { "T" + evil.replacingOccurrences(of: "/", with: "|") }

    @Test(arguments: Hostile.strings)
    func everyTextRendererNeutralisesHostileText(evil: String) async throws {
        let dir = try TempDir()
        let world = try await hostileWorld(evil, dir: dir)
        let commands: [[String]] = [
            ["task", "list"], ["task", "list", "--all"], ["task", "show", "#1"], ["task", "show", "#2"],
            ["log", "--last", "3"], ["stats", "--last", "7"], ["agenda", "2026-11-23"], ["plan"], ["plan", "--dry-run"],
            ["calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-23"], ["calendar", "list"],
            ["report", "--html", dir.path + "/r.html", "--last", "7"],
        ]
        // A running session on the hostile subtask, for `status` (this process plays the countdown).
        let now = Int64(world.now.timeIntervalSince1970)
        try world.database.writer.write { db in
            try db.execute(sql: """
                INSERT INTO activeSession (id, pid, taskId, subtaskId, phase, state, cycle, cycles, phaseStartedAt, plannedSeconds,
                  workPlannedSeconds, focusedSeconds, remainingSeconds, endsAt, checkpointAt, workStartedAt)
                VALUES (1, ?, 1, 2, 'work', 'running', 1, 4, ?, 1500, 1500, 0, 1500, ?, ?, ?)
                """, arguments: [ProcessInfo.processInfo.processIdentifier, now, now + 1500, now, now])
        }
        let statusLines = [await world.output("status"), await world.output("status", "--format", "{path} {task} {subtask}")]
        for r in statusLines {
            #expect(r.code == 0, "status: \(r.err)")
            // (Stored text ends at a NUL: SQLite text is read as a C string.)
            let stored = evil.prefix { $0 != "\u{0}" }
            #expect(r.out.contains("\u{FFFD}") || !Hostile.needsEscaping(String(stored)), "status: \(r.out)")
            #expect(Hostile.unsafe(in: r.out).isEmpty, "status printed \(Hostile.unsafe(in: r.out))")
        }
        var sawNeutralised = false
        for command in commands {
            let r = await world.output(command)
            #expect(r.code == 0, "\(command): \(r.err)")
            #expect(Hostile.unsafe(in: r.out).isEmpty, "\(command) printed \(Hostile.unsafe(in: r.out)): \(r.out)")
            #expect(Hostile.unsafe(in: r.err).isEmpty, "\(command) printed \(Hostile.unsafe(in: r.err)) on stderr")
            if r.out.contains("\u{FFFD}") { sawNeutralised = true }
        }
        // The hostile text was shown (neutralised), not merely absent.
        #expect(sawNeutralised || !Hostile.needsEscaping(evil))
        // The HTML report escapes markup and carries no control characters.
        let html = try dir.read("r.html")
        #expect(Hostile.unsafe(in: html).isEmpty)
        #expect(!html.contains("</script> & more"), "the embedded data cannot close its script element")
        #expect(!html.contains("<b><script>alert"))
    }

    @Test(arguments: Hostile.strings)
    func errorMessagesThatEchoInputAreNeutralised(evil: String) async throws {
        let world = try TestWorld()
        for command in [["task", "show", evil], ["task", "add", "T", "--estimate", evil], ["start", "--duration", evil],
                        ["log", "add", "x", "--start", evil, "--duration", "5m"], ["stats", "--tz", evil], ["calendar", "rm", evil]] {
            let r = await world.output(command)
            #expect(r.code != 0)
            #expect(r.err.hasPrefix("focus: error: "), "\(command): \(r.err)")
            #expect(r.err.filter { $0 == "\n" }.count == 1, "one line: \(r.err)")
            #expect(Hostile.unsafe(in: r.err).isEmpty, "\(command) echoed \(Hostile.unsafe(in: r.err))")
        }
    }

    @Test(arguments: Hostile.strings)
    func jsonOutputKeepsHostileTextExact(evil: String) async throws {
        let dir = try TempDir()
        let world = try await hostileWorld(evil, dir: dir)
        // Text is read back with its length: even a NUL inside is kept (JSON writes it \u0000).
        let list = await world.output("task", "list", "--json")
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]])
        #expect(tasks.first?["title"] as? String == Self.taskTitle(evil))
        #expect(tasks.first?["notes"] as? String == evil)
        let log = await world.output("log", "--json", "--last", "3")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(log.out.utf8)) as? [[String: Any]])
        #expect(entries.first?["note"] as? String == evil)
        // JSON escapes controls itself: no raw control character reaches the terminal.
        #expect(Hostile.unsafe(in: list.out).isEmpty)
        #expect(Hostile.unsafe(in: log.out).isEmpty)
    }

    @Test(arguments: Hostile.strings)
    func theCountdownViewNeutralisesThePath(evil: String) {
        let snapshot = SessionSnapshot(
            phase: .work, cycle: 1, cycles: 4, plannedSeconds: 1500, remaining: .seconds(600), isPaused: false,
            phaseStartedAt: Date(timeIntervalSince1970: 1_795_000_000), endsAt: Date(timeIntervalSince1970: 1_795_001_500),
            focusedSeconds: 900, workStartedAt: Date(timeIntervalSince1970: 1_795_000_000), workPlannedSeconds: 1500)
        let lines = CountdownRenderer(path: DisplayText("Thesis/" + evil), width: 200, color: false).lines(snapshot, todaySeconds: 900)
        #expect(Hostile.unsafe(in: lines.map(\.string).joined(separator: "\n")).isEmpty)
    }

    @Test func invalidUTF8InACalendarIsShownAsReplacementCharacters() async throws {
        let world = try TestWorld(now: "2026-11-23T06:00:00Z")
        let dir = try TempDir()
        let path = dir.path + "/bad.ics"
        var bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTART:20261123T090000Z\r\nDTEND:20261123T100000Z\r\nSUMMARY:bad ".utf8)
        bytes += [0xC3, 0x28, 0x20, 0xFF, 0x1B, 0x5B, 0x32, 0x4A]
        bytes += Array("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(await world.run("calendar", "import", path) == 0)
        let r = await world.output("calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-23")
        #expect(r.out.contains("bad \u{FFFD}( \u{FFFD}\u{FFFD}[2J"))
        #expect(Hostile.unsafe(in: r.out).isEmpty)
    }

    @Test func notesOnStandardErrorAreOneSafeLine() {
        let console = RecordingConsole(width: 80)
        console.note("warning: saved although 'T\u{1B}]52;c;eA==\u{7}' does not fit;\nsee `focus plan`")
        #expect(console.stderr == "focus: warning: saved although 'T\u{FFFD}]52;c;eA==\u{FFFD}' does not fit; see `focus plan`\n")
    }

    @Test func aMegabyteNoteIsShownOnOneSafeLine() async throws {
        let world = try TestWorld()
        let note = String(repeating: "\u{1B}[31mx", count: 200_000)
        #expect(await world.run("task", "add", "Thesis") == 0)
        #expect(await world.run("log", "add", "Thesis", "--start", "2026-11-22 08:00", "--duration", "25m") == 0)
        try world.database.writer.write { db in try db.execute(sql: "UPDATE timeLog SET note = ?", arguments: [note]) }
        let r = await world.output("log", "--last", "1")
        #expect(r.code == 0)
        #expect(Hostile.unsafe(in: r.out).isEmpty)
    }
}
