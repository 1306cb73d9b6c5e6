import FocusCore
import Foundation
import Testing

/// How an arriving item is applied here, decided over what its names refer to here (issue #43:
/// Storage stores, Core decides): what is skipped and why, insert or update, the stand-in
/// subtask of another app's to-do, a to-do whose kind changed, the instance of a period made
/// here under another name. No database.
@Suite struct SyncArrivalTests {
    private let due = Date(timeIntervalSince1970: 1_795_800_000)

    private func task(_ uid: String = "T", title: String = "Book", archived: Bool = false, due: Date? = nil,
                      estimate: Int? = nil) -> SyncedTask {
        SyncedTask(uid: uid, title: title, notes: nil, archived: archived, modified: 42, due: due, estimateSeconds: estimate)
    }

    private func subtask(_ uid: String = "S", series: String? = nil, period: String? = nil) -> SyncedSubtask {
        var s = SyncedSubtask(uid: uid, taskUID: "T", title: "Intro", notes: nil, estimateSeconds: 0, startDate: nil, due: nil,
                              spanSeconds: nil, earliestMinutes: nil, done: false, modified: 42)
        s.seriesUID = series
        s.periodStart = period
        return s
    }

    private func session(subtask: String? = "S") -> SyncedSession {
        SyncedSession(uid: "L", taskUID: "T", subtaskUID: subtask, label: "Book/Intro", start: Date(timeIntervalSince1970: 1_795_000_000),
                      end: Date(timeIntervalSince1970: 1_795_001_500), plannedSeconds: 1500, focusedSeconds: 1500, status: "completed",
                      note: nil, modified: 42)
    }

    // MARK: skipped, and why

    @Test func whatCannotBeAppliedHereIsSkippedWithItsReason() {
        #expect(SyncArrival.steps(.subtask(subtask()), here: SyncArrivalHere()) == [.skip("'Intro' belongs to a task this machine does not have")])
        #expect(SyncArrival.steps(.subtask(subtask("I", series: "R", period: "2026-11-30")), here: SyncArrivalHere(task: 1))
                == [.skip("'Intro' is an instance of recurring work this machine does not have")])
        #expect(SyncArrival.steps(.session(session()), here: SyncArrivalHere(subtask: 2))
                == [.skip("a session of 'Book/Intro' belongs to a task this machine does not have")])
        #expect(SyncArrival.steps(.session(session()), here: SyncArrivalHere(task: 1))
                == [.skip("a session of 'Book/Intro' belongs to a subtask this machine does not have")])
    }

    // MARK: insert or update

    @Test func aRowOfItsNameHereIsUpdatedElseOneIsMade() {
        let s = subtask().stored
        #expect(SyncArrival.steps(.subtask(subtask()), here: SyncArrivalHere(task: 1)) == [.writeSubtask(s, task: 1, series: nil, over: nil)])
        #expect(SyncArrival.steps(.subtask(subtask()), here: SyncArrivalHere(row: 7, task: 1)) == [.writeSubtask(s, task: 1, series: nil, over: 7)])
        #expect(SyncArrival.steps(.task(task()), here: SyncArrivalHere(row: 3)) == [.writeTask(task(), over: 3)])
        #expect(SyncArrival.steps(.session(session(subtask: nil)), here: SyncArrivalHere(row: 9, task: 1))
                == [.writeSession(session(subtask: nil), task: 1, subtask: nil, over: 9)])
        #expect(SyncArrival.steps(.session(session()), here: SyncArrivalHere(task: 1, subtask: 2))
                == [.writeSession(session(), task: 1, subtask: .here(2), over: nil)])
    }

    @Test func theRowIsWrittenWithTheValuesAsKept() {
        // A title in NFC, an estimate of at least a second, a rule's day within its kind, no
        // period without a series here.
        var s = subtask()
        s.title = "Cafe\u{301}"
        s.every = "week"
        s.onDay = 9
        s.periodStart = "2026-11-30"
        guard case let .writeSubtask(row, _, _, _)? = SyncArrival.steps(.subtask(s), here: SyncArrivalHere(task: 1)).first else {
            Issue.record("no write")
            return
        }
        #expect(row.title == "Caf\u{E9}" && row.estimateSeconds == 1 && row.every == "week" && row.onDay == nil && row.periodStart == nil)
        var t = task(title: "Cafe\u{301}", estimate: -5)
        guard case let .writeTask(written, _)? = SyncArrival.steps(.task(t), here: SyncArrivalHere()).first else {
            Issue.record("no write")
            return
        }
        t.title = "Caf\u{E9}"
        t.estimateSeconds = 1
        #expect(written == t)
    }

    @Test func aNewSessionRecordedHereUnderNoSharedNameTakesTheArrivingName() {
        #expect(SyncArrival.steps(.session(session()), here: SyncArrivalHere(task: 1, subtask: 2, sameSession: 5)) == [.nameSession(session(), id: 5)])
        // Its own row here already: updated, whatever else shares its start.
        #expect(SyncArrival.steps(.session(session()), here: SyncArrivalHere(row: 9, task: 1, subtask: 2, sameSession: 5))
                == [.writeSession(session(), task: 1, subtask: .here(2), over: 9)])
    }

    // MARK: the stand-in subtask of another app's to-do

    @Test func aToDoWithADueDateOrEstimateGetsAStandInThatCarriesThem() {
        #expect(SyncArrival.steps(.task(task(due: due)), here: SyncArrivalHere()) == [
            .writeTask(task(due: due), over: nil), .makeStandIn(uid: "T#due", task: .written),
            .setStandIn(uid: "T#due", due: due, estimateSeconds: nil, done: false, modified: 42),
        ])
        #expect(SyncArrival.steps(.task(task(estimate: 1800)), here: SyncArrivalHere(row: 3)) == [
            .writeTask(task(estimate: 1800), over: 3), .makeStandIn(uid: "T#due", task: .written),
            .setStandIn(uid: "T#due", due: nil, estimateSeconds: 1800, done: false, modified: 42),
        ])
        // Without either, and none here: no stand-in.
        #expect(SyncArrival.steps(.task(task()), here: SyncArrivalHere()) == [.writeTask(task(), over: nil)])
    }

    @Test func theStandInHereIsUpdatedDoneWithTheToDoAndKeptWithoutItsDueDate() {
        #expect(SyncArrival.steps(.task(task(archived: true, due: due)), here: SyncArrivalHere(row: 3, subtask: 4)) == [
            .writeTask(task(archived: true, due: due), over: 3),
            .setStandIn(uid: "T#due", due: due, estimateSeconds: nil, done: true, modified: 42),
        ])
        // The due date and estimate gone: the stand-in stays, with its work, without them.
        #expect(SyncArrival.steps(.task(task()), here: SyncArrivalHere(row: 3, subtask: 4)) == [
            .writeTask(task(), over: 3), .setStandIn(uid: "T#due", due: nil, estimateSeconds: nil, done: false, modified: 42),
        ])
    }

    @Test func workOnAStandInWhoseDueDateWentMakesItAgain() {
        #expect(SyncArrival.steps(.session(session(subtask: "T#due")), here: SyncArrivalHere(task: 1)) == [
            .makeStandIn(uid: "T#due", task: .here(1)), .writeSession(session(subtask: "T#due"), task: 1, subtask: .standIn, over: nil),
        ])
        // Another task's stand-in is not this one's to make.
        #expect(SyncArrival.steps(.session(session(subtask: "U#due")), here: SyncArrivalHere(task: 1))
                == [.skip("a session of 'Book/Intro' belongs to a subtask this machine does not have")])
    }

    // MARK: a to-do whose kind changed in another app

    @Test func aSubtaskThatBecameATaskGivesItsSessionsToTheTaskAndGoes() {
        #expect(SyncArrival.steps(.task(task()), here: SyncArrivalHere(otherKind: 6)) == [
            .writeTask(task(), over: nil), .takeSessionsOfSubtask(old: 6),
        ])
        // The task here already under the name: nothing moves.
        #expect(SyncArrival.steps(.task(task()), here: SyncArrivalHere(row: 3, otherKind: 6)) == [.writeTask(task(), over: 3)])
    }

    @Test func aTaskThatBecameASubtaskGivesItsWorkToTheSubtasksTask() {
        let s = subtask().stored
        // The old task's stand-in was this work itself: its sessions come along first.
        #expect(SyncArrival.steps(.subtask(subtask()), here: SyncArrivalHere(otherKind: 8, task: 1)) == [
            .writeSubtask(s, task: 1, series: nil, over: nil), .takeStandInWork(uid: "S#due", parent: 1), .takeWorkOfTask(old: 8, parent: 1),
        ])
        #expect(SyncArrival.steps(.subtask(subtask()), here: SyncArrivalHere(row: 7, otherKind: 8, task: 1))
                == [.writeSubtask(s, task: 1, series: nil, over: 7)])
        // The old task goes once all its subtasks moved; one whose title is taken there keeps
        // it, without the name.
        #expect(SyncArrival.afterTakingWork(of: 8, subtasksLeft: false) == .deleteTask(id: 8))
        #expect(SyncArrival.afterTakingWork(of: 8, subtasksLeft: true) == .unnameTask(id: 8))
    }

    // MARK: recurring work

    @Test func theInstanceMadeHereForThePeriodTakesTheArrivingName() {
        let arriving = subtask("I2", series: "R", period: "2026-11-30")
        #expect(SyncArrival.steps(.subtask(arriving), here: SyncArrivalHere(task: 1, series: 10, samePeriod: 11)) == [
            .adoptInstance(id: 11), .writeSubtask(arriving.stored, task: 1, series: 10, over: 11),
        ])
        // Adopted, it is no kind move, even when a task had the name.
        #expect(SyncArrival.steps(.subtask(arriving), here: SyncArrivalHere(otherKind: 8, task: 1, series: 10, samePeriod: 11)) == [
            .adoptInstance(id: 11), .writeSubtask(arriving.stored, task: 1, series: 10, over: 11),
        ])
        #expect(SyncArrival.steps(.subtask(arriving), here: SyncArrivalHere(task: 1, series: 10))
                == [.writeSubtask(arriving.stored, task: 1, series: 10, over: nil)])
    }

    // MARK: kept for sessions after another app deleted it

    @Test func aToDoDeletedElsewhereIsMadeForItsSessionsUnlessItsNameIsHere() {
        #expect(SyncArrival.keptGone(.task(task()), here: SyncArrivalHere()) == [.keepGoneTask(title: "Book")])
        #expect(SyncArrival.keptGone(.task(task()), here: SyncArrivalHere(row: 3)) == [])
        #expect(SyncArrival.keptGone(.subtask(subtask()), here: SyncArrivalHere(task: 1)) == [.keepGoneSubtask(title: "Intro", task: 1)])
        #expect(SyncArrival.keptGone(.subtask(subtask()), here: SyncArrivalHere()) == [])
    }

    // MARK: what is read for an item

    /// Names as a fake store holds them; records each session lookup by identity.
    private final class Names: SyncRowNames {
        var tasks: [String: Int64] = [:], subtasks: [String: Int64] = [:], sessions: [String: Int64] = [:]
        var instances: [String: Int64] = [:], twins: [String: Int64] = [:]
        func task(_ uid: String) -> Int64? { tasks[uid] }
        func subtask(_ uid: String) -> Int64? { subtasks[uid] }
        func session(_ uid: String) -> Int64? { sessions[uid] }
        func instance(series: Int64, period: String) -> Int64? { instances["\(series) \(period)"] }
        func session(task: Int64, subtask: Int64?, start: Int64) -> Int64? { twins["\(task) \(subtask ?? 0) \(start)"] }
    }

    @Test func whatIsHereIsReadByTheNamesTheItemGives() throws {
        let names = Names()
        names.tasks = ["T": 1, "S": 8]
        names.subtasks = ["T#due": 4, "T": 6, "R": 10, "S": 2]
        names.instances = ["10 2026-11-30": 11]
        names.twins = ["1 2 1795000000": 5]
        #expect(try SyncArrivalHere.read(for: .task(task()), from: names) == SyncArrivalHere(row: 1, otherKind: 6, subtask: 4))
        #expect(try SyncArrivalHere.read(for: .subtask(subtask()), from: names) == SyncArrivalHere(row: 2, otherKind: 8, task: 1))
        // A period as kept (a date), looked up only for an instance not here by its name.
        #expect(try SyncArrivalHere.read(for: .subtask(subtask("I", series: "R", period: "2026-11-30")), from: names)
                == SyncArrivalHere(task: 1, series: 10, samePeriod: 11))
        names.subtasks["I"] = 12
        #expect(try SyncArrivalHere.read(for: .subtask(subtask("I", series: "R", period: "2026-11-30")), from: names)
                == SyncArrivalHere(row: 12, task: 1, series: 10))
        // A twin only for a session new here.
        #expect(try SyncArrivalHere.read(for: .session(session()), from: names) == SyncArrivalHere(task: 1, subtask: 2, sameSession: 5))
        names.sessions["L"] = 9
        #expect(try SyncArrivalHere.read(for: .session(session()), from: names) == SyncArrivalHere(row: 9, task: 1, subtask: 2))
    }
}
