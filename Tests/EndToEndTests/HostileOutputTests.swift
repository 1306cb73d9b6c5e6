import Foundation
import Testing

/// The real binary, its standard output and error captured: text that tries to drive the
/// terminal (escape sequences, OSC 52 and OSC 8, C1 controls, bidi overrides) comes out inert.
@Suite struct HostileOutputTests {
    static let evil = "\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[2J\u{9B}31m\u{202E}txt.exe\u{1B}]8;;http://x/\u{1B}\\"

    static func unsafe(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { v in
            (v < 0x20 && v != 0x0A) || v == 0x7F || (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v)
                || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C
        }
    }

    @Test func hostileTextFromFilesAndArgumentsNeverReachesTheTerminal() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let ics = s.dir.appendingPathComponent("evil.ics").path
        try Data("""
            BEGIN:VCALENDAR\r
            X-WR-CALNAME:Work\(Self.evil)\r
            BEGIN:VEVENT\r
            UID:1\r
            DTSTART:20261123T090000Z\r
            DTEND:20261123T100000Z\r
            SUMMARY:Standup\(Self.evil)\r
            LOCATION:Room\(Self.evil)\r
            END:VEVENT\r
            END:VCALENDAR\r

            """.utf8).write(to: URL(fileURLWithPath: ics))
        let now = ["FOCUS_NOW": "2026-11-23T07:00:00Z"]
        #expect(try await s.run("calendar", "import", ics, env: now).code == 0)
        #expect(try await s.run("task", "add", "Thesis", "--notes", Self.evil, env: now).code == 0)
        #expect(try await s.run("log", "add", "Thesis", "--start", "2026-11-23 07:00", "--duration", "25m", env: now).code == 0)
        #expect(try await s.run("log", "edit", "1", "--note", Self.evil, env: now).code == 0)
        var shown = ""
        for args in [["calendar", "busy", "--from", "2026-11-23", "--to", "2026-11-23"], ["calendar", "list"], ["agenda", "2026-11-23"],
                     ["log", "--last", "2"], ["task", "show", "Thesis"], ["task", "show", Self.evil], ["stats", "--last", "2"],
                     ["log", "--json", "--last", "2"], ["calendar", "busy", "--json", "--from", "2026-11-23", "--to", "2026-11-23"]] {
            let r = try await s.run(args, env: now)
            #expect(Self.unsafe(r.out).isEmpty, "\(args) wrote \(Self.unsafe(r.out)) to stdout")
            #expect(Self.unsafe(r.err).isEmpty, "\(args) wrote \(Self.unsafe(r.err)) to stderr")
            shown += r.out
        }
        // The text is there, neutralised, not dropped.
        #expect(shown.contains("Standup\u{FFFD}]52;c;ZXZpbA==\u{FFFD}"))
        // JSON keeps it exactly, escaped.
        let busy = try await s.run("calendar", "busy", "--json", "--from", "2026-11-23", "--to", "2026-11-23", env: now)
        let events = try #require(try JSONSerialization.jsonObject(with: Data(busy.out.utf8)) as? [[String: Any]])
        #expect(events.first?["summary"] as? String == "Standup" + Self.evil)
    }
}
