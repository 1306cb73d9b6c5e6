import FocusCore
import FocusStorage
import FocusCoreTestSupport
import Foundation
import FocusSQLite
import Testing

/// The batched writes (README, "Fast paths") against the plain path beside each, one row per
/// INSERT, on seeded random input: the same rows stored, the same summary.
@Suite struct FastPathOracleTests {
    let now = TestDates.instant("2026-11-23T00:00:00Z")

    /// 1,000 sessions (not a multiple of a batch: the last one is partial), with names in
    /// several spellings of one task, repeats already present, notes and tags.
    static func records(seed: UInt64) -> [SessionRecord] {
        var rng = SeededRandom(seed: seed)
        let end: Int64 = 1_795_392_000  // 2026-11-23T00:00:00Z
        var records: [SessionRecord] = []
        for _ in 0..<1000 {
            if !records.isEmpty, rng.chance(5) {
                records.append(rng.pick(records))  // already present: skipped, its tags merged
                continue
            }
            let start = end - Int64(rng.int(0...(200 * 86_400)))
            let length = Int64(rng.int(0...7200))
            records.append(SessionRecord(
                task: rng.pick(["Thesis", "thesis", "THESIS", "Gym", "Ünï", "unï"]), subtask: rng.chance(30) ? nil : rng.pick(["Ch 1", "ch 1", "Ch 2"]),
                start: start, end: start + length, status: rng.pick([.completed, .interrupted, .open]),
                focusedSeconds: Int(length) - rng.int(0...Int(length)), plannedSeconds: rng.pick([0, 900, 1500, 3000]),
                note: rng.chance(20) ? "note \(rng.int(0...9))" : nil, tags: rng.chance(15) ? [rng.pick(["deep", "admin"])] : []))
        }
        return records
    }

    /// Every session as stored, with its names and tags, in one order.
    static func stored(_ db: AppDatabase) throws -> [SessionRecord] {
        var all: [SessionRecord] = []
        try db.exportSessions(from: nil, to: nil) { all.append($0) }
        return all
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func sessionsImportedInBatchesAreThoseImportedOneByOne(seed: UInt64) throws {
        let records = Self.records(seed: seed)
        let batched = try AppDatabase.inMemory(), plain = try AppDatabase.inMemory()
        let a = try batched.importSessions(now: now) { insert in for r in records { try insert(r) } }
        let b = try plain.importSessions(now: now, batchSize: 1) { insert in for r in records { try insert(r) } }
        #expect(a == b)
        #expect(a.alreadyPresent > 0 && a.imported > 900)
        #expect(try Self.stored(batched) == Self.stored(plain))
        #expect(try batched.overview(all: true).map(\.loggedSeconds) == plain.overview(all: true).map(\.loggedSeconds))
    }

    @Test(arguments: [4, 5] as [UInt64])
    func busyTimesStoredInBatchesAreThoseStoredOneByOne(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let occurrences: [(Date, Date, String, Bool, String)] = (0..<1234).map { k in
            let start = now.addingTimeInterval(Double(rng.int(0...(90 * 86_400))))
            return (start, start.addingTimeInterval(Double(rng.int(0...14_400)) + 0.5), "Event \(rng.int(0...50))", rng.chance(10), "uid-\(k)")
        }
        let horizon = DateInterval(start: now, end: now.addingTimeInterval(91 * 86_400))
        var tables: [[[String]]] = []
        for size in [nil, 1] as [Int?] {
            let db = try AppDatabase.inMemory()
            try db.importCalendar(
                CalendarImport(name: "Work", source: "/tmp/work.ics", content: "RAW", timeZone: "Europe/Berlin", horizon: horizon,
                               eventCount: occurrences.count, importedAt: now),
                occurrences: occurrences, batchSize: size, occurrence: { $0 })
            tables.append(try db.read { db in
                try Row.fetchAll(db, sql: "SELECT startedAt, endedAt, summary, allDay, uid FROM busyEvent ORDER BY id").map { row in
                    (0..<5).map { String(describing: row[$0] as DatabaseValue?) }
                }
            } + db.read { db in
                try Row.fetchAll(db, sql: "SELECT longestSeconds, occurrenceCount FROM calendar").map { row in
                    (0..<2).map { String(describing: row[$0] as DatabaseValue?) }
                }
            })
        }
        #expect(tables[0].count == occurrences.count + 1)
        #expect(tables[0] == tables[1])
    }
}
