import FocusCore
import Foundation
import Testing

/// Tasks, subtasks and sessions as calendar objects, and to-dos other programs write.
private let berlin = LocalCalendar(zone: ZoneRules.fromTZ("Europe/Berlin") ?? .utc)
private func date(_ s: Int64) -> Date { Date(timeIntervalSince1970: Double(s)) }
private func decode(_ text: String) throws -> SyncItem? { try SyncCodec.decode(Data(text.utf8), zone: berlin) }

@Suite struct SyncCodecTests {
    static let awkward = ["Methods; results, then discussion", "a\\b", "line one\nline two", "émoji 🍅 and 中文", String(repeating: "é🍅", count: 150), ""]

    @Test func everyItemReadsBackAsWritten() throws {
        var items: [SyncItem] = []
        for (n, text) in Self.awkward.enumerated() {
            items.append(.task(SyncedTask(uid: "focus-task-\(n)@focus", title: text.isEmpty ? "T" : text.replacingOccurrences(of: "\n", with: " "),
                                          notes: text.isEmpty ? nil : text, archived: n % 2 == 0, modified: Int64(n) * 1_000_123)))
            items.append(.subtask(SyncedSubtask(uid: "focus-subtask-\(n)@focus", taskUID: "focus-task-\(n)@focus", title: "Chapter \(n)",
                                                notes: text.isEmpty ? nil : text, estimateSeconds: n == 0 ? nil : n * 1800,
                                                startDate: n % 3 == 0 ? nil : "2026-12-0\(n)", due: n == 1 ? nil : date(1_795_000_000 + Int64(n) * 3600),
                                                spanSeconds: n == 2 ? 1500 : nil, earliestMinutes: n == 3 ? 9 * 60 + 30 : nil, done: n == 4,
                                                modified: 1_795_529_642_839, priority: n % 3 - 1,
                                                maxPerDaySeconds: [nil, 60, 5400, 3630, 86_400, 7200][n])))
            items.append(.session(SyncedSession(uid: SyncIdentity.sessionUID(taskUID: "t\(n)", subtaskUID: n % 2 == 0 ? nil : "s\(n)", start: date(1_795_300_200)),
                                                taskUID: "t\(n)", subtaskUID: n % 2 == 0 ? nil : "s\(n)", label: "Thesis/Chapter 2",
                                                start: date(1_795_300_200), end: date(1_795_301_700), plannedSeconds: 1500,
                                                focusedSeconds: 1400 - n, status: n % 2 == 0 ? "completed" : "interrupted",
                                                note: text.isEmpty ? nil : text, modified: 0)))
        }
        for item in items {
            let text = SyncCodec.encode(item, stamp: date(1_795_546_800))
            // Lines fold at 75 octets, between characters, and end in CRLF.
            for line in text.components(separatedBy: "\r\n").dropLast() {
                #expect(line.utf8.count <= 75, "\(line)")
            }
            #expect(text.hasSuffix("END:VCALENDAR\r\n"))
            let back = try decode(text)
            #expect(back == item, "\(text)")
        }
    }

    @Test func aToDoFromAnotherAppIsATaskOrASubtaskOfTheTaskItNames() throws {
        let thunderbird = """
            BEGIN:VCALENDAR\r
            PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN\r
            VERSION:2.0\r
            BEGIN:VTIMEZONE\r
            TZID:Europe/Berlin\r
            END:VTIMEZONE\r
            BEGIN:VTODO\r
            CREATED:20261120T100000Z\r
            LAST-MODIFIED:20261121T083000Z\r
            DTSTAMP:20261121T083000Z\r
            UID:3f2a-4b1c@example.org\r
            SUMMARY:Renew passport / ID\r
            DESCRIPTION:Photos first\\, then the form\r
            CATEGORIES:Errands\r
            DUE;TZID=Europe/Berlin:20261130T170000\r
            STATUS:NEEDS-ACTION\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:Reminder\r
            TRIGGER:-PT15M\r
            END:VALARM\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        let task = try #require(try decode(thunderbird))
        guard case let .task(t) = task else { Issue.record("\(task)"); return }
        #expect(t.uid == "3f2a-4b1c@example.org" && t.title == "Renew passport - ID" && t.notes == "Photos first, then the form")
        #expect(!t.archived && t.modified == 1_795_249_800_000)

        let child = """
            BEGIN:VCALENDAR\r
            BEGIN:VTODO\r
            UID:child@example.org\r
            SUMMARY:Book the photo booth\r
            RELATED-TO:3f2a-4b1c@example.org\r
            DUE;VALUE=DATE:20261127\r
            DTSTART;VALUE=DATE:20261123\r
            STATUS:COMPLETED\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        guard case let .subtask(s)? = try decode(child) else { Issue.record("not a subtask"); return }
        #expect(s.taskUID == "3f2a-4b1c@example.org" && s.done && s.startDate == "2026-11-23")
        // A due date alone means the end of that day, as everywhere in focus (Berlin: 23:00Z).
        #expect(s.due == date(1_795_820_400), "\(String(describing: s.due))")

        // A floating due time reads in the person's zone; an unknown zone as UTC.
        let floating = child.replacingOccurrences(of: "DUE;VALUE=DATE:20261127", with: "DUE:20261127T090000")
        guard case let .subtask(f)? = try decode(floating) else { Issue.record("not a subtask"); return }
        #expect(f.due == date(1_795_766_400))
        let unknown = child.replacingOccurrences(of: "DUE;VALUE=DATE:20261127", with: "DUE;TZID=Mars/Olympus:20261127T090000")
        guard case let .subtask(u)? = try decode(unknown) else { Issue.record("not a subtask"); return }
        #expect(u.due == date(1_795_770_000))
    }

    /// Written back over another app's to-do, an item keeps what focus does not write: the
    /// calendar's time zone, CATEGORIES, PRIORITY, a sibling link and the alarm; what focus
    /// writes replaces that app's lines (one SUMMARY, one STATUS, the due time in UTC).
    @Test func anItemWrittenOverAnotherAppsToDoKeepsWhatFocusDoesNotWrite() throws {
        let original = """
            BEGIN:VCALENDAR\r
            PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN\r
            VERSION:2.0\r
            BEGIN:VTIMEZONE\r
            TZID:Europe/Berlin\r
            END:VTIMEZONE\r
            BEGIN:VTODO\r
            UID:3f2a-4b1c@example.org\r
            SUMMARY:Renew passport\r
            PRIORITY:1\r
            CATEGORIES:Errands\r
            RELATED-TO;RELTYPE=SIBLING:other@example.org\r
            DUE;TZID=Europe/Berlin:20261130T170000\r
            STATUS:IN-PROCESS\r
            PERCENT-COMPLETE:40\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            DESCRIPTION:Reminder\r
            TRIGGER:-PT15M\r
            END:VALARM\r
            END:VTODO\r
            END:VCALENDAR\r

            """
        guard case var .task(t) = try #require(try decode(original)) else { Issue.record("not a task"); return }
        t.title = "Renew passport and ID"
        let open = SyncCodec.encode(.task(t), stamp: date(1_795_000_000), over: Data(original.utf8))
        for kept in ["BEGIN:VTIMEZONE", "PRIORITY:1", "CATEGORIES:Errands", "RELATED-TO;RELTYPE=SIBLING:other@example.org",
                     "TRIGGER:-PT15M", "STATUS:IN-PROCESS", "PERCENT-COMPLETE:40", "SUMMARY:Renew passport and ID",
                     "DUE;TZID=Europe/Berlin:20261130T170000"] {
            #expect(open.contains(kept + "\r\n"), "\(kept)")
        }
        #expect(open.components(separatedBy: "SUMMARY:").count == 2 && open.components(separatedBy: "STATUS:").count == 2)
        #expect(try decode(open) == .task(t))
        // Done here: the figure of how far it was goes with the old status.
        t.archived = true
        let done = SyncCodec.encode(.task(t), stamp: date(1_795_000_000), over: Data(open.utf8))
        #expect(done.contains("STATUS:COMPLETED\r\n") && !done.contains("PERCENT-COMPLETE") && done.contains("PRIORITY:1\r\n"))
        #expect(try decode(done) == .task(t))
        // Another item's object, or none, is not written over.
        #expect(SyncCodec.encode(.task(t), stamp: date(1), over: Data(original.replacingOccurrences(of: "UID:3f2a", with: "UID:9f2a").utf8))
                == SyncCodec.encode(.task(t), stamp: date(1)))
        #expect(SyncCodec.encode(.task(t), stamp: date(1), over: nil) == SyncCodec.encode(.task(t), stamp: date(1)))
    }

    /// RFC 5545 section 3.8.1.9: 1–4 high, 0 (undefined) and 5 normal, 6–9 low; what focus
    /// writes is 1, nothing, 9.
    @Test(arguments: [("1", "high"), ("2", "high"), ("4", "high"), ("0", ""), ("5", ""), ("6", "low"), ("9", "low"),
                      ("10", ""), ("-1", ""), ("high", ""), (" 3 ", "high")])
    func anotherAppsPriorityReadsAsHighNormalOrLow(value: String, expected: String) throws {
        let todo = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a@b\r\nSUMMARY:Call\r\nRELATED-TO:t@b\r\nPRIORITY:\(value)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let item = try #require(try decode(todo))
        #expect(item.fields.first { $0.name == "priority" }?.value == expected)
    }

    @Test(arguments: [("PT2H", 7200), ("PT90M", 5400), ("PT1H30M", 5400), ("P1D", 86_400), ("PT1H0M30S", 3630), ("+PT15M", 900),
                      ("3600", 3600), ("pt45m", 2700), ("PT24H", 86_400)] as [(String, Int?)]
              + [("P1W", nil), ("-PT1H", nil), ("PT30S", nil), ("PT25H", nil), ("PT", nil), ("P", nil), ("2h", nil), ("PT1X", nil),
                 ("", nil), ("PT9999999H", nil), ("1234567", nil)])
    func aDailyCapIsADuration(value: String, seconds: Int?) throws {
        let todo = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a@b\r\nSUMMARY:Call\r\nRELATED-TO:t@b\r\nX-FOCUS-MAX-PER-DAY:\(value)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let item = try #require(try decode(todo))
        #expect(item.fields.first { $0.name == "max_per_day" }?.value == seconds.map(String.init) ?? "")
    }

    /// An agreed version stored before priorities travelled may hold another app's PRIORITY
    /// this machine never read: a subtask unchanged here since takes it instead of writing it over.
    @Test func aSubtaskUnchangedSinceTheAgreedVersionTakesItsPriorityAndCap() {
        let base = SyncItem.subtask(SyncedSubtask(uid: "s@b", taskUID: "t@b", title: "Call", notes: nil, estimateSeconds: nil, startDate: nil,
                                                  due: nil, spanSeconds: nil, earliestMinutes: nil, done: false, modified: 5,
                                                  priority: 1, maxPerDaySeconds: 3600))
        guard case var .subtask(plain) = base else { return }
        plain.priority = 0
        plain.maxPerDaySeconds = nil
        let mine = SyncItem.subtask(plain)
        // Agreed by a build that did not read them: the digest then was that of `mine`.
        let old = SyncState(uid: "s@b", kind: .subtask, url: "u", etag: nil, base: Data(), digest: mine.digest)
        #expect(SyncPlan.learned(mine, from: base, state: old) == base)
        let merged = SyncMerge.merge(base: base, local: SyncPlan.learned(mine, from: base, state: old), remote: base)
        #expect(!merged.writeRemote, "nothing to write over there")
        // Agreed with them (this build): set back to normal here is a change made here.
        let agreed = SyncState(uid: "s@b", kind: .subtask, url: "u", etag: nil, base: Data(), digest: base.digest)
        #expect(SyncPlan.learned(mine, from: base, state: agreed) == mine)
        #expect(SyncMerge.merge(base: base, local: mine, remote: base).writeRemote)
    }

    @Test func whatIsNotAnItemIsLeftAloneAndNothingCrashes() throws {
        let lunch = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:lunch@example.org\r\nDTSTART:20261125T110000Z\r\nSUMMARY:Lunch\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(try decode(lunch) == nil)
        #expect(try decode("BEGIN:VCALENDAR\r\nBEGIN:VJOURNAL\r\nUID:j\r\nEND:VJOURNAL\r\nEND:VCALENDAR\r\n") == nil)
        #expect(try decode("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:No UID\r\nEND:VTODO\r\nEND:VCALENDAR\r\n") == nil)
        #expect(try decode("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:cut\r\nSUMMARY:Cut off") == nil, "a component never closed")
        #expect(throws: FocusError.self) { try decode("<html>Login</html>") }
        // Out-of-range numbers are dropped or clamped, never trapped on.
        let huge = """
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            UID:session-x@focus\r
            DTSTART:20261124T080000Z\r
            DTEND:20261124T075000Z\r
            X-FOCUS-SESSION:completed\r
            X-FOCUS-TASK:t\r
            X-FOCUS-FOCUSED:99999999999999999999\r
            X-FOCUS-PLANNED:1e300\r
            X-FOCUS-MODIFIED:-5\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        guard case let .session(s)? = try decode(huge) else { Issue.record("not a session"); return }
        // Read as written (ending before it starts), and refused as `log add` would refuse it.
        #expect(s.end < s.start && s.focusedSeconds == 0 && s.plannedSeconds == 0)
        #expect(SyncAdmission.admit(.session(s), now: s.start) != .admitted(.session(s), warning: nil))
        // Random bytes: an error or nothing, never a crash.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\n".utf8)
            bytes += (0..<Int.random(in: 0...200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? SyncCodec.decode(Data(bytes), zone: berlin)
        }
    }

    @Test func aSessionsNameIsTheSameOnEveryMachineAndNeverBusyTime() {
        let a = SyncIdentity.sessionUID(taskUID: "focus-task-1@focus", subtaskUID: nil, start: date(1_795_300_200))
        #expect(a == SyncIdentity.sessionUID(taskUID: "focus-task-1@focus", subtaskUID: nil, start: date(1_795_300_200)))
        #expect(a != SyncIdentity.sessionUID(taskUID: "focus-task-1@focus", subtaskUID: "s", start: date(1_795_300_200)))
        #expect(a.hasPrefix("session-") && a.hasSuffix("-20261121T223000Z@focus"), "\(a)")
        var n: UInt64 = 0
        let uid = SyncIdentity.newUID(.task) { n += 1; return n }
        #expect(uid == "focus-task-00000000000000010000000000000002@focus")
    }
    /// The text sync writes, byte for byte: the calendar module's writer folds and escapes it
    /// exactly as the codec's own writer did before there was one writer.
    @Test func aSessionIsWrittenByteForByteAsBefore() {
        let session = SyncedSession(uid: "session-1@focus", taskUID: "focus-task-1@focus", subtaskUID: nil, label: "Thesis, chapter 2; draft",
                                    start: date(1_795_300_200), end: date(1_795_301_700), plannedSeconds: 1500, focusedSeconds: 1400,
                                    status: "completed", note: "Read the sources again: Smith 2019, Jones 2021; then rewrite the opening section\\ending",
                                    modified: 1_795_529_642_839, tags: ["deep", "review"])
        let expected = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//focus//sync//EN", "BEGIN:VEVENT", "UID:session-1@focus",
            "DTSTAMP:20261124T190000Z", "LAST-MODIFIED:20261124T141402Z", "DTSTART:20261121T223000Z", "DTEND:20261121T225500Z",
            "SUMMARY:Thesis\\, chapter 2\\; draft",
            "DESCRIPTION:Read the sources again: Smith 2019\\, Jones 2021\\; then rewrite ",
            " the opening section\\\\ending",
            "TRANSP:TRANSPARENT", "CATEGORIES:focus", "CATEGORIES:deep,review", "X-FOCUS-SESSION:completed",
            "X-FOCUS-TASK:focus-task-1@focus", "X-FOCUS-PLANNED:1500", "X-FOCUS-FOCUSED:1400", "X-FOCUS-MODIFIED:1795529642839",
            "END:VEVENT", "END:VCALENDAR",
        ].map { $0 + "\r\n" }.joined()
        #expect(SyncCodec.encode(.session(session), stamp: date(1_795_546_800)) == expected)
    }

    /// RFC 5545 section 3.1: lines fold at 75 octets and never inside a UTF-8 sequence; sync's
    /// folds also fall between characters, so an emoji and its skin tone stay on one line.
    @Test func aLongNonASCIISummaryFoldsOnACharacterBoundary() throws {
        // "SUMMARY:Plan" and seven thumbs fill 68 octets: the eighth (8 octets, two scalars)
        // would straddle the 75th octet.
        let title = "Plan" + String(repeating: "👍🏽", count: 30)
        let task = SyncItem.task(SyncedTask(uid: "focus-task-9@focus", title: title, notes: nil, archived: false, modified: 0))
        let text = SyncCodec.encode(task, stamp: date(1_795_546_800))
        let lines = text.components(separatedBy: "\r\n").dropLast()
        let summary = lines.drop { !$0.hasPrefix("SUMMARY:") }.prefix { $0.hasPrefix("SUMMARY:") || $0.hasPrefix(" ") }
        #expect(summary.count == 4, "\(summary)")
        #expect(summary.first == "SUMMARY:Plan" + String(repeating: "👍🏽", count: 7))
        #expect(summary.allSatisfy { $0.utf8.count <= 75 })
        for line in summary.dropFirst() {
            #expect(line.dropFirst().allSatisfy { $0 == "👍🏽" }, "a continuation starts inside a character: \(line.unicodeScalars.map(\.value))")
        }
        #expect(try decode(text) == task)
    }

    /// Another program may fold by octets alone, between a letter and its combining accent: the
    /// continuation's space and the accent are then one character, and still unfold.
    @Test func aLineFoldedInsideACharacterUnfoldsWhole() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:cafe@example.org\r\nSUMMARY:Cafe\r\n \u{301} au lait\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        guard case let .task(t)? = try decode(text) else { Issue.record("not a task"); return }
        #expect(t.title == "Cafe\u{301} au lait")
    }
}
