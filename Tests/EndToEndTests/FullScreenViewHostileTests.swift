import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `focus ui` when the ground moves (issue #42, "Bad input gets a clear line and no broken
/// screen"): the POSIX locale with UTF-8 and wide titles, NO_COLOR, and the database deleted
/// underneath and made again.
extension FullScreenViewTests {
    @Test func underThePOSIXLocaleAndNOCOLORWideTitlesShowWholeAndNoColourIsWritten() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Café ☕/Résumé 漢字", "--estimate", "1h")
        try await t.start("LC_ALL=C LANG=C NO_COLOR=1 \(Sandbox.binary) ui; echo EXIT=$?")
        _ = try await t.waitFor("[1 Today]")
        try await t.keys("3")
        let screen = try await t.waitFor("Résumé 漢字")
        #expect(screen.contains("Café ☕"), "\(screen)")
        try await t.keys("q")
        _ = try await t.waitFor("EXIT=0")
        let bytes = (try? String(contentsOf: t.transcript, encoding: .utf8)) ?? ""
        // No colour (no-color.org): no SGR 30–37, 90–97, 38;5 or 38;2 foreground, nor their backgrounds.
        let colour = try Regex("\u{1B}\\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")
        #expect(bytes.firstMatch(of: colour) == nil, "a colour was written under NO_COLOR")
    }

    /// Stats over a range typed as `stats --from/--to` take it, read by that option's parser.
    @Test func rOnStatsShowsARangeReadAsStatsFromToReadItAndSaysWhyOneCannotBe() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Thesis")
        try await t.openView()
        try await t.keys("5")
        _ = try await t.waitFor("Last 7 days")
        try await t.keys("r")
        _ = try await t.waitFor("From To:")
        try await t.keys("2026-11-01 2026-11-15", "Enter")
        _ = try await t.waitFor("15 days · Sun 1 Nov – Sun 15 Nov")
        try await t.keys("r", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try await t.keys("nope", "Enter")
        _ = try await t.waitFor("nope")
        _ = try await t.waitFor("Last 7 days")
        try await t.quitView()
    }

    @Test func aDatabaseDeletedUnderneathIsSaidInPlaceAndOneMadeAgainIsShown() async throws {
        let s = try Sandbox()
        let t = Terminal(sandbox: s)
        defer { t.kill(); s.remove() }
        try await s.run("task", "add", "Before")
        try await t.openView()
        try await t.keys("3")
        _ = try await t.waitFor("Before")
        for suffix in ["", "-wal", "-shm"] { unlink(s.db + suffix) }
        let gone = try await t.waitFor("is gone")
        #expect(gone.contains("[1 Today]") || gone.contains("3 Tasks"), "the view stays whole: \(gone)")
        try await s.run("task", "add", "After")
        _ = try await t.waitFor("After")
        try await t.quitView()
    }
}
