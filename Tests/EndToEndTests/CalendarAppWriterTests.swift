import FocusCoreTestSupport
import Foundation
import Testing

/// Issue #40: the calendar app is a writer too. Against Radicale and Xandikos. Tuesday 24
/// November 2026, 23:00 in Berlin: the plan's first free time is Wednesday 08:00.
private let now = "2026-11-24T23:00:00+01:00"
private let direct = ["no_proxy": "*", "NO_PROXY": "*", "FOCUS_HTTP_TIMEOUT_MS": "5000", "FOCUS_NOW": now, "TZ": "Europe/Berlin"]

/// Each calendar object of a collection with its address, as a raw REPORT returns them.
private func objects(_ server: RadicaleServer, _ path: String, _ component: String = "VEVENT") throws -> [(href: String, text: String)] {
    let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
          <D:prop><D:getetag/><C:calendar-data/></D:prop>
          <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="\(component)"/></C:comp-filter></C:filter>
        </C:calendar-query>
        """
    let response = try server.request("REPORT", path, body: body, headers: ["Depth": "1", "Content-Type": "application/xml; charset=utf-8"])
    return response.body.components(separatedBy: "response>").compactMap { part -> (String, String)? in
        guard let hrefStart = part.range(of: "href>"), let hrefEnd = part.range(of: "</", range: hrefStart.upperBound..<part.endIndex),
              let begin = part.range(of: "BEGIN:VCALENDAR"), let end = part.range(of: "END:VCALENDAR") else { return nil }
        let text = String(part[begin.lowerBound..<end.upperBound]).replacingOccurrences(of: "&#13;", with: "")
            .replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n ", with: "")
        return (String(part[hrefStart.upperBound..<hrefEnd.lowerBound]), text)
    }
}

@Suite("the calendar app is a writer too (Radicale and Xandikos)", .serialized,
       .enabled(if: RadicaleServer.bothAvailable, Comment(rawValue: RadicaleServer.missing)))
struct CalendarAppWriterTests {
    @Test("a published block whose description was edited in another app is left as it is, with one warning, however the plan changes",
          arguments: RadicaleServer.Kind.allCases)
    func anEditedBlockIsNeverWrittenOver(kind: RadicaleServer.Kind) async throws {
        let server = try RadicaleServer(kind)
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        #expect(try await sandbox.run(["task", "add", "Thesis/Draft", "--estimate", "50m", "--due", "2026-11-27", "--notes", "Outline first"], env: direct).code == 0)
        let command = "printf '%s\\n' '\(server.password)'"
        #expect(try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-command", command], env: direct).code == 0)
        #expect(try await sandbox.run(["calendar", "publish", "Focus plan"], env: direct).code == 0)
        let published = try objects(server, "focus-plan/")
        try #require(published.count == 2, "\(published)")
        let first = try #require(published.min { $0.text.components(separatedBy: "DTSTART").last! < $1.text.components(separatedBy: "DTSTART").last! })

        // The phone's calendar app changes its description (and writes it back whole).
        let edited = first.text.split(separator: "\n").map { line in
            line.hasPrefix("DESCRIPTION:") ? "DESCRIPTION:Bring the printed draft" : String(line)
        }.joined(separator: "\r\n") + "\r\n"
        let path = first.href.hasPrefix("/") ? first.href : "/" + first.href
        #expect(try server.request("PUT", path, body: edited, headers: ["Content-Type": "text/calendar; charset=utf-8"]).status < 300)

        // Two changes of the plan that rewrite every block: the edited one is left, said once.
        let change = try await sandbox.run(["task", "edit", "Thesis/Draft", "--notes", "Outline, then write"], env: direct)
        #expect(change.code == 0)
        #expect(change.err.components(separatedBy: "was changed in the calendar").count == 2, "one warning: \(change.err)")
        #expect(change.err.contains("'Thesis/Draft' was changed in the calendar: left as it is"), "\(change.err)")
        let again = try await sandbox.run(["task", "edit", "Thesis/Draft", "--notes", "Write"], env: direct)
        #expect(again.code == 0 && !again.err.contains("changed in the calendar"), "said once: \(again.err)")

        let after = try objects(server, "focus-plan/")
        #expect(after.count == 2)
        #expect(after.filter { $0.text.contains("DESCRIPTION:Bring the printed draft") }.count == 1, "\(after.map(\.text))")
        #expect(after.filter { $0.text.contains("DESCRIPTION:Write") }.count == 1, "the other block follows the plan: \(after.map(\.text))")
    }

    @Test("a to-do deleted on the phone keeps its sessions on both laptops: archived, 'deleted elsewhere', still counted")
    func aTodoDeletedOnThePhoneKeepsItsTime() async throws {
        let server = try RadicaleServer()
        let laptop = try Sandbox(), desktop = try Sandbox()
        defer { laptop.remove(); desktop.remove() }
        let command = "printf '%s\\n' '\(server.password)'"
        #expect(try await laptop.run(["task", "add", "Thesis/Literature review"], env: direct).code == 0)
        #expect(try await laptop.run(["log", "add", "Thesis/Literature review", "--start", "2026-11-24 09:00", "--duration", "1h"], env: direct).code == 0)
        for sandbox in [laptop, desktop] {
            #expect(try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-command", command], env: direct).code == 0)
            #expect(try await sandbox.run(["sync", "setup", "Focus"], env: direct).code == 0)
        }
        let todo = try #require(try objects(server, "focus/", "VTODO").first { $0.text.contains("SUMMARY:Literature review") })
        #expect(try server.request("DELETE", todo.href.hasPrefix("/") ? todo.href : "/" + todo.href).status < 300)

        for sandbox in [laptop, desktop] {
            let sync = try await sandbox.run(["sync"], env: direct)
            #expect(sync.code == 0 && sync.out.contains("'Thesis/Literature review' was deleted in another app: archived here with its sessions"),
                    "\(sync.out) \(sync.err)")
            #expect(!sync.out.contains("deleted here"), "\(sync.out)")
            let list = try await sandbox.run(["task", "list", "--all"], env: direct).out
            #expect(list.split(separator: "\n").contains { $0.contains("Literature review") && $0.contains("(deleted elsewhere)") }, "\(list)")
            let log = try await sandbox.run(["log", "--json", "--last", "30"], env: direct).out
            #expect(log.components(separatedBy: "\"focused_seconds\"").count == 2 && log.contains("3600"), "\(log)")
            let status = try await sandbox.run(["sync", "status"], env: direct).out
            #expect(status.contains("deleted in another app: archived here"), "\(status)")
        }
        #expect(try objects(server, "focus/").filter { $0.text.contains("X-FOCUS-SESSION") }.count == 1, "the session stays there")
        let quiet = try await laptop.run(["sync"], env: direct)
        #expect(!quiet.out.contains("deleted in another app"), "said once: \(quiet.out)")
    }

    @Test("a block ahead deleted in the calendar app is planned elsewhere, said once; the slot stays free of it until the day ends",
          arguments: RadicaleServer.Kind.allCases)
    func aDeletedBlockMeansNotInThisSlot(kind: RadicaleServer.Kind) async throws {
        let server = try RadicaleServer(kind)
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try await sandbox.roundTheWeek()
        #expect(try await sandbox.run(["task", "add", "Thesis/Draft", "--estimate", "25m", "--due", "2026-11-27"], env: direct).code == 0)
        let command = "printf '%s\\n' '\(server.password)'"
        #expect(try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-command", command], env: direct).code == 0)
        #expect(try await sandbox.run(["calendar", "publish", "Focus plan"], env: direct).code == 0)
        let published = try objects(server, "focus-plan/")
        try #require(published.count == 1 && published[0].text.contains("DTSTART:20261125T070000Z"), "\(published.map(\.text))")
        #expect(try server.request("DELETE", published[0].href.hasPrefix("/") ? published[0].href : "/" + published[0].href).status < 300)

        let plan = try await sandbox.run(["plan"], env: direct)
        #expect(plan.code == 0)
        #expect(plan.err.contains("Thesis/Draft: not at Wed 25 Nov 08:00 (deleted in the calendar); planned Wed 25 Nov"), "\(plan.err)")
        #expect(!plan.out.contains("written again") && !plan.err.contains("written again"), "\(plan.out)")
        let after = try objects(server, "focus-plan/")
        #expect(after.count == 1 && !after[0].text.contains("DTSTART:20261125T070000Z"), "\(after.map(\.text))")
        let json = try await sandbox.run(["plan", "--json"], env: direct)
        #expect(!json.out.contains("2026-11-25T07:00:00Z"), "\(json.out)")
        #expect(!json.err.contains("deleted in the calendar"), "said once: \(json.err)")
        let again = try await sandbox.run(["task", "edit", "Thesis/Draft", "--notes", "Outline"], env: direct)
        #expect(again.code == 0 && !again.err.contains("deleted in the calendar"), "\(again.err)")
        #expect(try objects(server, "focus-plan/").allSatisfy { !$0.text.contains("DTSTART:20261125T070000Z") })
    }

    @Test("commands of one database that publish at once write one after the other: no false 'changed in the calendar' warnings")
    func twoProcessesPublishingAtOnceSayNothingFalse() async throws {
        let server = try RadicaleServer()
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try await sandbox.roundTheWeek()
        for n in 1...4 {
            #expect(try await sandbox.run(["task", "add", "Thesis/Part \(n)", "--estimate", "50m", "--due", "2026-11-27"], env: direct).code == 0)
        }
        let command = "printf '%s\\n' '\(server.password)'"
        #expect(try await sandbox.run(["calendar", "connect", server.rootURL, "--user", server.user, "--password-command", command], env: direct).code == 0)
        #expect(try await sandbox.run(["calendar", "publish", "Focus plan"], env: direct).code == 0)
        for round in 1...3 {
            // Each command changes the plan (the notes of every block of its part) and publishes it.
            let results = try await withThrowingTaskGroup(of: Sandbox.Result.self) { group in
                for n in 1...4 {
                    group.addTask { try await sandbox.run(["task", "edit", "Thesis/Part \(n)", "--notes", "round \(round)"], env: direct) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for r in results {
                #expect(r.code == 0 && !r.err.contains("changed in the calendar") && !r.err.contains("warning"), "round \(round): \(r.err)")
            }
        }
        let texts = try objects(server, "focus-plan/").map(\.text)
        #expect(texts.count == 8 && texts.allSatisfy { $0.contains("DESCRIPTION:round 3") }, "\(texts)")
    }
}
