import Foundation
import Testing

/// Process-level checks of results and messages: the environment and a hand-edited config file.
@Suite struct ResultsAndMessagesTests {
    @Test func aRefusedFocusNowSuggestsOnlyFormsItAccepts() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let r = try await s.run("status", env: ["FOCUS_NOW": "garbage"])
        #expect(r.code == 64)
        #expect(r.err == "focus: error: invalid FOCUS_NOW 'garbage': expected an ISO 8601 instant with an offset, like 2026-11-22T09:00:00Z or 2026-11-22T10:00:00+01:00.\n")
        for suggested in ["2026-11-22T09:00:00Z", "2026-11-22T10:00:00+01:00"] {
            let ok = try await s.run("status", env: ["FOCUS_NOW": suggested])
            #expect(ok.code == 0, "\(suggested): \(ok.err)")
        }
        // A local date-time without an offset is not an instant: refused with the same sentence.
        #expect(try await s.run("status", env: ["FOCUS_NOW": "2026-11-22 17:00"]).code == 64)
    }

    @Test func aHandEditedConfigIsJudgedWholeWhateverTheOrderOfItsLines() async throws {
        let s = try Sandbox()
        defer { s.remove() }
        let config = s.dir.appendingPathComponent("config/focus")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let file = config.appendingPathComponent("config.toml")
        try "day_start = \"22:30\"\nday_end = \"23:30\"\n".write(to: file, atomically: true, encoding: .utf8)
        let ok = try await s.run("config", "get", "day_start")
        #expect(ok.code == 0 && ok.out == "22:30\n", "\(ok.err)")
        try "day_end = \"22:30\"\nwork = 50m\nday_start = \"23:30\"\n".write(to: file, atomically: true, encoding: .utf8)
        let bad = try await s.run("config", "get", "day_start")
        #expect(bad.code == 65)
        #expect(bad.err == "focus: error: \(file.path):3: invalid working hours '23:30–22:30': expected day_start before day_end.\n")
    }
}
