import FocusCoreTestSupport
import Foundation
import Testing

/// `focus sync` between two machines (two databases, two processes) through one calendar of a
/// real CalDAV server (Radicale, started per test on a free loopback port).
private let now = "2026-11-24T20:00:00+01:00"
private let direct = ["no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "5000", "FOCUS_NOW": now, "TZ": "Europe/Berlin"]

private func json(_ text: String) -> Any? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) }

/// A value with every `id`/`*_id` key removed: ids are each machine's own.
private func withoutIDs(_ value: Any?) -> Any? {
    if let object = value as? [String: Any] {
        var out: [String: Any] = [:]
        for (k, v) in object where k != "id" && !k.hasSuffix("_id") { out[k] = withoutIDs(v) }
        return out
    }
    if let array = value as? [Any] { return array.map { withoutIDs($0) as Any } }
    return value
}

/// The same JSON, keys sorted, for comparing two machines' views.
private func canonical(_ value: Any?) -> String {
    guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else { return "null" }
    return String(decoding: data, as: UTF8.self)
}

/// One machine: a database of its own, connected to the account with a password command.
private struct Machine {
    let sandbox: Sandbox
    let server: RadicaleServer

    /// `userInAddress`: `http://alice@127.0.0.1:port/` instead of `--user alice`. `root`: the
    /// address to connect at, when not the server's own (a proxy in front of it).
    init(_ server: RadicaleServer, userInAddress: Bool = false, root: String? = nil) async throws {
        self.server = server
        sandbox = try Sandbox()
        let password = ["--password-command", "printf '%s\\n' '\(server.password)'"]
        let root = root ?? server.rootURL
        let connect = userInAddress
            ? try await run(["calendar", "connect", root.replacingOccurrences(of: "://", with: "://\(server.user)@")] + password)
            : try await run(["calendar", "connect", root, "--user", server.user] + password)
        #expect(connect.code == 0, "\(connect.err)")
        #expect(connect.out.contains("as \(server.user)"), "\(connect.out)")
    }

    @discardableResult
    func run(_ args: String..., stdin: String? = nil) async throws -> Sandbox.Result {
        try await run(args, stdin: stdin)
    }

    @discardableResult
    func run(_ args: [String], stdin: String? = nil) async throws -> Sandbox.Result {
        try await sandbox.run(args, env: direct, stdin: stdin)
    }

    @discardableResult
    func sync() async throws -> Sandbox.Result {
        let r = try await run("sync")
        #expect(r.code == 0, "\(r.err)")
        return r
    }

    func tasks() async throws -> String { canonical(withoutIDs(json(try await run("task", "list", "--all", "--json").out))) }
    func logs() async throws -> String {
        canonical(withoutIDs(json(try await run("log", "--json", "--last", "365").out)))
    }
}

@Suite("focus sync against Radicale (and Xandikos where said)", .serialized,
       .enabled(if: RadicaleServer.bothAvailable, Comment(rawValue: RadicaleServer.missing)))
struct SyncTests {
    @Test("two machines that worked offline end with the same tasks and history; a second sync sends nothing",
          arguments: RadicaleServer.Kind.allCases)
    func twoMachinesConverge(kind: RadicaleServer.Kind) async throws {
        let server = try RadicaleServer(kind)
        let laptop = try await Machine(server)
        let desktop = try await Machine(server, userInAddress: true)
        defer { laptop.sandbox.remove(); desktop.sandbox.remove() }

        try await laptop.run("task", "add", "Thesis/Chapter 2", "--estimate", "2h", "--due", "2026-11-30", "--notes", "Methods; results, then discussion")
        try await laptop.run("log", "add", "Thesis/Chapter 2", "--start", "2026-11-24 09:00", "--duration", "25m", "--note", "slow start")
        try await desktop.run("task", "add", "Thesis/Intro", "--estimate", "1h", "--due", "2026-11-28", "--span", "30m", "--earliest", "10:00")
        try await desktop.run("task", "add", "Garden/Plant bulbs")
        try await desktop.run("log", "add", "Thesis/Intro", "--start", "2026-11-24 14:00", "--duration", "50m", "--interrupted")

        let setup = try await laptop.run("sync", "setup", "Focus")
        #expect(setup.code == 0, "\(setup.err)")
        #expect(setup.out.contains("Made calendar Focus"), "\(setup.out)")
        #expect(setup.out.contains("Synced with Focus: 3 sent."), "\(setup.out)")
        #expect(setup.err.isEmpty || !setup.err.contains("error"), "\(setup.err)")

        let second = try await desktop.run("sync", "setup", "Focus")
        #expect(second.code == 0, "\(second.err)")
        #expect(!second.out.contains("Made calendar"), "\(second.out)")
        #expect(second.out.contains("received"), "\(second.out)")
        try await laptop.sync()

        #expect(try await laptop.tasks() == desktop.tasks())
        #expect(try await laptop.logs() == desktop.logs())
        let list = json(try await laptop.run("task", "list", "--all", "--json").out) as? [[String: Any]] ?? []
        #expect(list.compactMap { $0["title"] as? String }.sorted() == ["Garden", "Thesis"], "one Thesis, not two")
        let thesis = list.first { $0["title"] as? String == "Thesis" }
        let subtasks = (thesis?["subtasks"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }.sorted()
        #expect(subtasks == ["Chapter 2", "Intro"])
        let intro = (thesis?["subtasks"] as? [[String: Any]])?.first { $0["title"] as? String == "Intro" }
        #expect(intro?["span_seconds"] as? Int == 1800 && intro?["earliest_time"] as? String == "10:00", "\(String(describing: intro))")
        let logs = json(try await laptop.run("log", "--json", "--last", "1").out) as? [[String: Any]] ?? []
        #expect(logs.count == 2)
        #expect(logs.contains { $0["note"] as? String == "slow start" && $0["status"] as? String == "completed" })
        #expect(logs.contains { $0["status"] as? String == "interrupted" && $0["focused_seconds"] as? Int == 3000 })

        // Nothing changed: nothing is sent or received, and status says nothing waits.
        let quiet = try await laptop.sync()
        #expect(quiet.out.contains("Synced with Focus: nothing changed."), "\(quiet.out)")
        let status = try await laptop.run("sync", "status")
        #expect(status.code == 0 && status.out.contains("Nothing waits to be sent."), "\(status.out)")
        // The sync calendar never counts as busy time, even when connected again with every calendar.
        let again = try await laptop.run("calendar", "connect", server.rootURL, "--user", server.user)
        #expect(again.code == 0 && again.out.contains("focus sync"), "\(again.out)\(again.err)")
        let busy = json(try await laptop.run("calendar", "busy", "--from", "2026-11-24", "--to", "2026-11-24", "--json").out) as? [Any]
        #expect(busy?.isEmpty == true)

        // The server goes away: one line, exit 69, nothing lost; status and doctor say so.
        try await laptop.run("task", "add", "Thesis/Offline work")
        server.stop()
        let down = try await laptop.run("sync")
        #expect(down.code == 69 && down.err.split(separator: "\n").count == 1, "\(down.err)")
        let after = try await laptop.run("sync", "status")
        #expect(after.out.contains("Last attempt failed") && after.out.contains("Waiting to be sent: 0 changed, 1 new, 0 removed."), "\(after.out)")
        #expect(try await laptop.run("doctor").out.contains("the last sync with 'Focus' failed"))
        #expect(try await laptop.run("task", "list").out.contains("Offline work"))
    }

    @Test("a long history's first sync into a new calendar is one write; the other machine gets it all and later edits replace, never double")
    func longFirstSync() async throws {
        let server = try RadicaleServer()
        let laptop = try await Machine(server)
        let desktop = try await Machine(server)
        defer { laptop.sandbox.remove(); desktop.sandbox.remove() }
        // 120 sessions on 40 days, imported as a history is.
        var lines: [String] = []
        for i in 0..<120 {
            let day = Calendar(identifier: .gregorian).date(byAdding: .day, value: -(i % 40) - 1, to: ISO8601DateFormatter().date(from: "2026-11-24T00:00:00Z")!)!
            let date = String(ISO8601DateFormatter().string(from: day).prefix(10))
            lines.append(#"{"task": "Thesis", "subtask": "Chapter 2", "start": "\#(date)T0\#(7 + i / 40):00:00Z", "end": "\#(date)T0\#(7 + i / 40):25:00Z", "status": "completed"}"#)
        }
        let file = laptop.sandbox.dir.appendingPathComponent("history.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await laptop.run("import", file)
        #expect(imported.code == 0, "\(imported.err)")

        let setup = try await laptop.run("sync", "setup", "Focus")
        #expect(setup.code == 0, "\(setup.err)")
        #expect(setup.out.contains("Synced with Focus: 122 sent."), "\(setup.out)")
        let second = try await desktop.run("sync", "setup", "Focus")
        #expect(second.code == 0 && second.out.contains("122 received"), "\(second.out)\(second.err)")
        #expect(try await laptop.logs() == desktop.logs())
        #expect(try await laptop.tasks() == desktop.tasks())

        // An edit of a session afterwards replaces the item the server made: 122 items, not 123.
        let id = (json(try await laptop.run("log", "--json", "--last", "2").out) as? [[String: Any]])?.first?["id"] as? Int
        #expect(try await laptop.run("log", "edit", "\(id ?? 0)", "--note", "from the laptop").code == 0)
        try await laptop.sync()
        try await desktop.sync()
        #expect(try await laptop.logs() == desktop.logs())
        #expect(try await desktop.run("log", "--json", "--last", "2").out.contains("from the laptop"))
        // (A second item with the session's UID would have been refused by the server: 409.)
        let status = try await laptop.run("sync", "status")
        #expect(status.out.contains("Nothing waits to be sent."), "\(status.out)")
    }

    @Test("a first sync through a server that takes PUTs together sends several at once, each item once; the other machine reads them all")
    func firstSyncSendsSeveralAtOnce() async throws {
        let server = try RadicaleServer()
        // Each PUT held 50 ms, several at once, before Radicale has it; a PUT of the whole
        // collection refused, as servers other than Radicale refuse it.
        let slow = try SlowPutServer(hold: 0.05, upstream: server.rootURL)
        let laptop = try await Machine(server, root: slow.rootURL)
        let desktop = try await Machine(server)
        defer { laptop.sandbox.remove(); desktop.sandbox.remove() }
        let lines = (0..<60).map { i in
            #"{"task": "Thesis", "subtask": "Chapter 2", "start": "2026-10-\#(10 + i / 4)T\#(10 + i % 4):00:00Z", "end": "2026-10-\#(10 + i / 4)T\#(10 + i % 4):25:00Z", "status": "completed"}"#
        }
        let file = laptop.sandbox.dir.appendingPathComponent("history.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try await laptop.run("import", file).code == 0)

        let setup = try await laptop.run("sync", "setup", "Focus")
        #expect(setup.code == 0 && setup.out.contains("Synced with Focus: 62 sent."), "\(setup.out)\(setup.err)")
        let stats = try slow.stats()
        #expect(stats.mostInFlight > 1)
        #expect(stats.written.count >= 62 && stats.written.values.allSatisfy { $0 == 1 }, "\(stats.written)")
        let second = try await desktop.run("sync", "setup", "Focus")
        #expect(second.code == 0 && second.out.contains("62 received"), "\(second.out)\(second.err)")
        #expect(try await laptop.logs() == desktop.logs())
        #expect(try await laptop.sync().out.contains("Synced with Focus: nothing changed."))
    }

    @Test("a rename on one machine and a new estimate on the other both survive; the same field changed twice keeps the newer and says so")
    func fieldLevelMerge() async throws {
        let server = try RadicaleServer()
        let laptop = try await Machine(server)
        let desktop = try await Machine(server)
        defer { laptop.sandbox.remove(); desktop.sandbox.remove() }
        try await laptop.run("task", "add", "Thesis/Chapter 2", "--estimate", "2h", "--due", "2026-11-30")
        #expect(try await laptop.run("sync", "setup", "Focus").code == 0)
        #expect(try await desktop.run("sync", "setup", "Focus").code == 0)

        try await laptop.run("task", "edit", "Thesis/Chapter 2", "--title", "Methods")
        try await desktop.run("task", "edit", "Thesis/Chapter 2", "--estimate", "3h")
        try await laptop.sync()
        try await desktop.sync()
        try await laptop.sync()
        for machine in [laptop, desktop] {
            let show = json(try await machine.run("task", "list", "--json").out) as? [[String: Any]] ?? []
            let sub = (show.first?["subtasks"] as? [[String: Any]])?.first
            #expect(sub?["title"] as? String == "Methods" && sub?["estimate_seconds"] as? Int == 10_800, "\(show)")
        }

        // Both change the notes: the later edit wins on both machines, and status shows both values.
        try await laptop.run("task", "edit", "Thesis/Methods", "--notes", "from the laptop")
        try await Task.sleep(for: .milliseconds(50))
        try await desktop.run("task", "edit", "Thesis/Methods", "--notes", "from the desktop")
        try await laptop.sync()
        let merged = try await desktop.sync()
        #expect(merged.out.contains("changed on both machines"), "\(merged.out)")
        try await laptop.sync()
        #expect(try await laptop.tasks() == desktop.tasks())
        for machine in [laptop, desktop] {
            #expect(try await machine.run("task", "list", "--search", "from the desktop").out.contains("Methods"), "the later edit is kept")
        }
        let status = json(try await desktop.run("sync", "status", "--json").out) as? [String: Any]
        let conflict = (status?["conflicts"] as? [[String: Any]])?.first
        #expect(conflict?["field"] as? String == "notes", "\(String(describing: status))")
        #expect(conflict?["kept"] as? String == "local" && conflict?["remote"] as? String == "from the laptop", "\(String(describing: conflict))")
    }

    @Test("a sync calendar deleted in another app and set up again by name loses nothing; work recorded where a task was deleted brings it back on both")
    func calendarMadeAgainAndSessionsAreFacts() async throws {
        let server = try RadicaleServer()
        let laptop = try await Machine(server)
        let desktop = try await Machine(server)
        defer { laptop.sandbox.remove(); desktop.sandbox.remove() }
        try await laptop.run("task", "add", "Code/Refactor parser")
        try await laptop.run("log", "add", "Code/Refactor parser", "--start", "2026-11-23 09:00", "--duration", "25m")
        try await laptop.run("log", "add", "Code/Refactor parser", "--start", "2026-11-23 14:00", "--duration", "50m")
        #expect(try await laptop.run("sync", "setup", "Focus").code == 0)
        #expect(try await desktop.run("sync", "setup", "Focus").code == 0)

        // Deleted in another app; the obvious repair is to set it up again by name.
        try server.delete("focus/")
        let again = try await laptop.run("sync", "setup", "Focus")
        #expect(again.code == 0, "\(again.err)")
        #expect(!again.out.contains("deleted here"), "\(again.out)")
        try await desktop.sync()
        try await laptop.sync()
        #expect((json(try await laptop.run("log", "--json").out) as? [Any])?.count == 2)
        #expect(try await laptop.logs() == desktop.logs())

        // The laptop deletes Code while the desktop, not yet told, records two hours in it.
        #expect(try await laptop.run("task", "rm", "Code", "--force").code == 0)
        try await laptop.sync()
        try await desktop.run("log", "add", "Code/Refactor parser", "--start", "2026-11-24 10:00", "--duration", "2h")
        let kept = try await desktop.sync()
        #expect(kept.err.contains("holds work the other recorded"), "\(kept.err)")
        #expect(kept.out.contains("Backed up the database to "), "it deletes the two sessions the laptop had seen: \(kept.out)")
        try await laptop.sync()
        #expect(try await laptop.tasks() == desktop.tasks())
        #expect(try await laptop.logs() == desktop.logs())
        let logged = json(try await laptop.run("log", "--json").out) as? [[String: Any]]
        #expect(logged?.count == 1 && logged?.first?["focused_seconds"] as? Int == 7200, "\(String(describing: logged))")
    }

    @Test("working hours, days off and feed subscriptions set on one machine arrive on the other; a change on both keeps the later",
          arguments: RadicaleServer.Kind.allCases)
    func settingsTravel(kind: RadicaleServer.Kind) async throws {
        let server = try RadicaleServer(kind)
        let laptop = try await Machine(server)
        let desktop = try await Machine(server)
        defer { laptop.sandbox.remove(); desktop.sandbox.remove() }
        try await laptop.run("task", "add", "Thesis/Chapter 2", "--estimate", "2h", "--due", "2026-11-30")
        #expect(try await laptop.run("sync", "setup", "Focus").code == 0)
        #expect(try await desktop.run("sync", "setup", "Focus").code == 0)
        for (key, value) in [("day_start", "07:30"), ("hours.fri", "off"), ("off", "2026-11-26")] {
            #expect(try await laptop.run("config", "set", key, value).code == 0)
        }
        try await laptop.sync()
        let arrived = try await desktop.sync()
        #expect(arrived.out.contains("Settings from the other machines: day_start = 07:30, hours.fri = off, off = 2026-11-26."), "\(arrived.out)")
        #expect(try await desktop.run("config", "get", "day_start").out == "07:30\n")
        #expect(try await desktop.run("config", "get", "off").out == "2026-11-26\n")
        // Both plan the same week: the same blocks, none on the day off or the Friday.
        let plans = try await [laptop, desktop].asyncMap { try await $0.run("plan", "--json").out }
        let blocks = plans.map { (json($0) as? [String: Any])?["blocks"] as? [[String: Any]] ?? [] }
        #expect(!blocks[0].isEmpty)
        #expect(blocks[0].map { $0["start"] as? String } == blocks[1].map { $0["start"] as? String })
        #expect(!blocks[0].contains { ($0["start"] as? String ?? "").hasPrefix("2026-11-26") || ($0["start"] as? String ?? "").hasPrefix("2026-11-27") })
        // Both change day_end: the later change wins on both.
        #expect(try await laptop.run("config", "set", "day_end", "18:00").code == 0)
        try await Task.sleep(for: .milliseconds(20))
        #expect(try await desktop.run("config", "set", "day_end", "16:00").code == 0)
        try await laptop.sync()
        try await desktop.sync()
        try await laptop.sync()
        for machine in [laptop, desktop] { #expect(try await machine.run("config", "get", "day_end").out == "16:00\n") }
        // The settings event is not another app's event: a new machine may set up the calendar.
        let third = try await Machine(server)
        defer { third.sandbox.remove() }
        let setup = try await third.run("sync", "setup", "Focus")
        #expect(setup.code == 0, "\(setup.err)")
        #expect(try await third.run("config", "get", "day_end").out == "16:00\n")
    }

    @Test("a deletion on one machine removes it on the other and never comes back; another app's to-do becomes a task")
    func deletionsAndForeignTodos() async throws {
        let server = try RadicaleServer()
        let laptop = try await Machine(server)
        let desktop = try await Machine(server)
        defer { laptop.sandbox.remove(); desktop.sandbox.remove() }
        try await laptop.run("task", "add", "Thesis/Chapter 2", "--estimate", "2h", "--due", "2026-11-30")
        try await laptop.run("task", "add", "Old/Thing")
        try await laptop.run("log", "add", "Old/Thing", "--start", "2026-11-24 09:00", "--duration", "25m")
        #expect(try await laptop.run("sync", "setup", "Focus").code == 0)
        #expect(try await desktop.run("sync", "setup", "Focus").code == 0)

        #expect(try await desktop.run("task", "rm", "Old", "--force").code == 0)
        // Meanwhile the laptop edits the deleted task's subtask: the deletion still wins.
        try await laptop.run("task", "edit", "Old/Thing", "--notes", "edited")
        try await desktop.sync()
        try await laptop.sync()
        try await desktop.sync()
        #expect(try await laptop.tasks() == desktop.tasks())
        #expect(try await !laptop.tasks().contains("Old"))
        #expect(try await laptop.logs() == "[]")

        // A to-do written by another CalDAV client (tasks.org, Thunderbird) in the same calendar.
        let todo = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Example//Tasks//EN\r
            BEGIN:VTODO\r
            UID:buy-milk-7@example.org\r
            DTSTAMP:20261124T100000Z\r
            SUMMARY:Buy milk\r
            STATUS:NEEDS-ACTION\r
            PRIORITY:1\r
            CATEGORIES:Errands\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:Milk\r
            TRIGGER:-PT15M\r
            END:VALARM\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        _ = try server.put("focus/buy-milk.ics", ics: todo)
        try await laptop.sync()
        #expect(try await laptop.tasks().contains("Buy milk"))
        // Renamed here, it is written back with what the other app keeps in it.
        #expect(try await laptop.run("task", "edit", "Buy milk", "--title", "Buy oat milk").code == 0)
        try await laptop.sync()
        let there = try server.request("GET", "focus/buy-milk.ics").body.replacingOccurrences(of: "\r\n ", with: "")
        #expect(there.contains("SUMMARY:Buy oat milk") && there.contains("PRIORITY:1") && there.contains("CATEGORIES:Errands"), "\(there)")
        #expect(there.contains("BEGIN:VALARM") && there.contains("TRIGGER:-PT15M"), "\(there)")
        #expect(!there.contains("SUMMARY:Buy milk"), "\(there)")
    }

    @Test("another app's to-do with a date-only due date is planned here and keeps its date there, with no child to-do")
    func foreignDueDate() async throws {
        let server = try RadicaleServer()
        let laptop = try await Machine(server)
        let desktop = try await Machine(server)
        defer { laptop.sandbox.remove(); desktop.sandbox.remove() }
        #expect(try await laptop.run("sync", "setup", "Focus").code == 0)
        let todo = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Example//Tasks//EN", "BEGIN:VTODO", "UID:milk@example.org",
                    "DTSTAMP:20261124T100000Z", "SUMMARY:Buy milk", "DUE;VALUE=DATE:20261127", "STATUS:NEEDS-ACTION", "END:VTODO",
                    "END:VCALENDAR", ""].joined(separator: "\r\n")
        _ = try server.put("focus/milk.ics", ics: todo)
        try await laptop.sync()
        let shown = try await laptop.run("task", "show", "Buy milk/Buy milk", "--json").out
        #expect(shown.contains("\"due\": \"2026-11-27T23:00:00Z\""), "\(shown)")
        #expect(try await laptop.run("task", "edit", "Buy milk/Buy milk", "--estimate", "30m").code == 0)
        let plan = try await laptop.run("plan", "--json").out
        #expect(plan.contains("\"subtask\": \"Buy milk\""), "planned: \(plan)")
        try await laptop.sync()
        let there = try server.request("GET", "focus/milk.ics").body.replacingOccurrences(of: "\r\n ", with: "")
        #expect(there.contains("DUE;VALUE=DATE:20261127") && there.contains("X-FOCUS-ESTIMATE:1800"), "\(there)")
        let folder = server.directory.appendingPathComponent("collections/collection-root/\(server.user)/focus")
        let todos = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.filter {
            ((try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) ?? "").contains("BEGIN:VTODO")
        }
        #expect(todos.count == 1, "no child to-do: \(todos)")
        #expect(try await desktop.run("sync", "setup", "Focus").code == 0)
        #expect(try await laptop.tasks() == desktop.tasks())
    }

    @Test("a session whose event another app deleted is written again when edited here (Radicale's 412 for a missing member)")
    func editOfADeletedMemberIsWrittenAgain() async throws {
        let server = try RadicaleServer()
        let laptop = try await Machine(server)
        let desktop = try await Machine(server)
        defer { laptop.sandbox.remove(); desktop.sandbox.remove() }
        try await laptop.run("task", "add", "Thesis/Draft")
        try await laptop.run("log", "add", "Thesis/Draft", "--start", "2026-11-24 09:00", "--duration", "25m")
        #expect(try await laptop.run("sync", "setup", "Focus").code == 0)
        let folder = server.directory.appendingPathComponent("collections/collection-root/\(server.user)/focus")
        let session = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first {
            ((try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) ?? "").contains("X-FOCUS-SESSION")
        })
        // Deleted there while the laptop, not yet told, edits it: If-Match on a missing member.
        try server.delete("focus/" + session)
        let id = try #require((json(try await laptop.run("log", "--json").out) as? [[String: Any]])?.first?["id"] as? Int)
        #expect(try await laptop.run("log", "edit", String(id), "--note", "kept").code == 0)
        let synced = try await laptop.sync()
        #expect(!synced.out.contains("nothing changed"), "\(synced.out)")
        #expect(try await laptop.run("sync", "status").out.contains("Nothing waits to be sent."))
        #expect(try await desktop.run("sync", "setup", "Focus").code == 0)
        #expect(try await laptop.logs() == desktop.logs())
    }

    @Test("two machines' first syncs at the same moment name the same work once: no `(2)`, and later syncs send nothing")
    func sameMomentFirstSyncs() async throws {
        let server = try RadicaleServer()
        let laptop = try await Machine(server)
        let desktop = try await Machine(server)
        defer { laptop.sandbox.remove(); desktop.sandbox.remove() }
        for machine in [laptop, desktop] {
            try await machine.run("task", "add", "Thesis/Chapter 1")
            try await machine.run("log", "add", "Thesis/Chapter 1", "--start", "2026-11-23 09:00", "--duration", "25m")
        }
        async let first = laptop.run("sync", "setup", "Focus")
        async let second = desktop.run("sync", "setup", "Focus")
        let (a, b) = try await (first, second)
        #expect(a.code == 0 && b.code == 0, "\(a.err) \(b.err)")
        for _ in 0..<2 {
            try await laptop.sync()
            try await desktop.sync()
        }
        #expect(try await laptop.tasks() == desktop.tasks())
        #expect(try await !laptop.tasks().contains("(2)"))
        #expect((json(try await laptop.run("log", "--json").out) as? [Any])?.count == 1)
        #expect(try await laptop.sync().out.contains("nothing changed"))
    }

    @Test("the daemon syncs when it starts and a moment after each change made here")
    func theDaemonSyncs() async throws {
        let server = try RadicaleServer()
        let laptop = try await Machine(server)
        let desktop = try await Machine(server)
        defer { laptop.sandbox.remove(); desktop.sandbox.remove() }
        #expect(try await laptop.run("sync", "setup", "Focus").code == 0)
        #expect(try await desktop.run("sync", "setup", "Focus").code == 0)
        try await desktop.run("task", "add", "Reading/Chapter 1")
        try await desktop.sync()

        // The laptop's daemon: its log goes to a file.
        let log = laptop.sandbox.dir.appendingPathComponent("daemon.log").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        var pid: pid_t = 0
        let environment = laptop.sandbox.environment.merging(direct) { $1 }
        #expect(TestProcess.spawn(&pid, Sandbox.binary, arguments: [Sandbox.binary, "daemon"], environment: environment, actions: &actions) == 0)
        defer {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        // At start: the desktop's task arrives.
        let received = await eventually(seconds: 30) { (try? await laptop.tasks().contains("Reading")) == true }
        #expect(received, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        // A change here goes out a few seconds later, without a `focus sync`.
        try await laptop.run("task", "add", "Garden/Plant bulbs")
        let sent = await eventually(seconds: 40) {
            _ = try? await desktop.run("sync")
            return (try? await desktop.tasks().contains("Plant bulbs")) == true
        }
        #expect(sent, "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    }

    @Test("setup refuses a calendar with other events, and sync without setup says what to do")
    func refusals() async throws {
        let server = try RadicaleServer()
        let laptop = try await Machine(server)
        defer { laptop.sandbox.remove() }
        let none = try await laptop.run("sync")
        #expect(none.code == 64 && none.err.contains("sync is not set up"), "\(none.err)")
        #expect(try await laptop.run("sync", "status").out.contains("Sync is not set up."))
        try server.makeCalendar("work", displayName: "Work")
        let eventsOnly = try await laptop.run("sync", "setup", "Work")
        #expect(eventsOnly.code == 64 && eventsOnly.err.contains("holds only VEVENT"), "\(eventsOnly.err)")
        try server.makeCalendar("shared", displayName: "Shared", components: ["VEVENT", "VTODO"])
        _ = try server.put("shared/standup.ics", ics: RadicaleServer.event(uid: "standup@example.org", summary: "Stand-up"))
        let refused = try await laptop.run("sync", "setup", "Shared")
        #expect(refused.code == 64 && refused.err.contains("has 1 event of its own"), "\(refused.err)")
        server.stop()
        try await laptop.run("task", "add", "Thesis")
        let down = try await laptop.run("sync", "setup", "Focus")
        #expect(down.code == 69, "\(down.err)")
        #expect(down.err.split(separator: "\n").count == 1, "\(down.err)")
    }

    /// Issue #40: the README's "Two machines" gestures (set up once on each, add work on both,
    /// sync both) end in the same `plan --json` on both, apart from the blocks' local ids. Two
    /// subtasks with the same constraints, each added on its own machine, are ordered alike.
    @Test("work added on two machines and synced is planned alike on both")
    func twoMachinesPlanTheSameWeek() async throws {
        let server = try RadicaleServer()
        let laptop = try await Machine(server)
        let desktop = try await Machine(server)
        defer { laptop.sandbox.remove(); desktop.sandbox.remove() }
        #expect(try await laptop.run("sync", "setup", "Focus").code == 0)
        #expect(try await desktop.run("sync", "setup", "Focus").code == 0)
        let same = ["--estimate", "2h", "--due", "2026-11-27", "--span", "50m"]
        // The desktop adds its work first, so its local ids run the other way round.
        #expect(try await desktop.run(["task", "add", "Book/Outro"] + same).code == 0)
        #expect(try await desktop.run(["task", "add", "Garden/Plant bulbs", "--estimate", "1h", "--due", "2026-11-26"]).code == 0)
        #expect(try await laptop.run(["task", "add", "Book/Intro"] + same).code == 0)
        #expect(try await laptop.run(["task", "add", "Book/Outro"] + same).code == 0)
        #expect(try await laptop.run("config", "set", "work", "50m").code == 0)
        for machine in [laptop, desktop, laptop, desktop] { try await machine.sync() }
        #expect(try await laptop.tasks() == desktop.tasks())
        let plans = try await [laptop, desktop].asyncMap { machine in
            let r = try await machine.run("plan", "--json")
            #expect(r.code == 0, "\(r.err)")
            return canonical(withoutIDs(json(r.out)))
        }
        #expect(plans[0] == plans[1], "laptop: \(plans[0])\ndesktop: \(plans[1])")
        let blocks = (json(try await laptop.run("plan", "--json").out) as? [String: Any])?["blocks"] as? [[String: Any]] ?? []
        let planned = Set(blocks.compactMap { b in (b["task"] as? String).map { "\($0)/\(b["subtask"] as? String ?? "")" } })
        #expect(planned == ["Book/Intro", "Book/Outro", "Garden/Plant bulbs"], "\(blocks)")
    }
}

private extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}
