import FocusCore
import Foundation
import Testing

/// What a sync decides before Storage applies it (issue #43: Storage stores, Core decides):
/// the order changes apply in, the values an arriving item is kept with, and the tasks and
/// subtasks made for sessions whose to-do another app deleted (issue #40). No database.
@Suite struct SyncApplyDecisionsTests {
    private func subtask(_ uid: String, series: String? = nil) -> SyncedSubtask {
        var s = SyncedSubtask(uid: uid, taskUID: "T", title: "Intro", notes: nil, estimateSeconds: nil, startDate: nil, due: nil,
                              spanSeconds: nil, earliestMinutes: nil, done: false, modified: 0)
        s.seriesUID = series
        return s
    }

    private func session(_ uid: String, task: String = "T", subtask: String? = "S", label: String = "Book/Intro") -> SyncedSession {
        SyncedSession(uid: uid, taskUID: task, subtaskUID: subtask, label: label, start: Date(timeIntervalSince1970: 1_795_000_000),
                      end: Date(timeIntervalSince1970: 1_795_003_600), plannedSeconds: 1500, focusedSeconds: 1500, status: "completed",
                      note: nil, modified: 0)
    }

    private func name(_ change: LocalSyncChange) -> String {
        switch change {
        case let .upsert(item): "upsert \(item.uid)"
        case let .delete(uid, _): "delete \(uid)"
        case let .archive(uid, _): "archive \(uid)"
        case let .completeInstance(uid): "complete \(uid)"
        case let .keepGone(item, _): "keep \(item.uid)"
        }
    }

    @Test func changesApplyParentsFirstAndDeletionsChildrenFirst() {
        let changes: [LocalSyncChange] = [
            .delete(uid: "task", kind: .task), .upsert(.session(session("l1"))), .delete(uid: "session", kind: .session),
            .keepGone(.subtask(subtask("gone sub")), label: "Book/gone"), .upsert(.subtask(subtask("instance", series: "series"))),
            .upsert(.subtask(subtask("series"))), .archive(uid: "archived", kind: .subtask), .delete(uid: "sub", kind: .subtask),
            .keepGone(.task(SyncedTask(uid: "gone task", title: "Book", notes: nil, archived: true, modified: 0)), label: "Book"),
            .upsert(.task(SyncedTask(uid: "task 1", title: "A", notes: nil, archived: false, modified: 0))),
            .upsert(.task(SyncedTask(uid: "task 2", title: "B", notes: nil, archived: false, modified: 0))),
        ]
        #expect(LocalSyncChange.inApplyOrder(changes).map(name) == [
            "upsert task 1", "upsert task 2", "keep gone task", "upsert series", "upsert instance", "keep gone sub", "upsert l1",
            "archive archived", "delete session", "delete sub", "delete task",
        ])
    }

    @Test(arguments: [
        // estimate, span, earliest, priority, cap, start date → kept as
        ((0, 0, -5, 7, 10, "2026-13-01"), (1, 1, 0, 1, 60, nil as String?)),
        ((-3, 5, 2000, -9, 200_000, "2026-11-30"), (1, 5, 1439, -1, 86_400, "2026-11-30")),
        ((3600, 60, 540, 0, 3600, "soon"), (3600, 60, 540, 0, 3600, nil)),
    ] as [((Int, Int, Int, Int, Int, String), (Int, Int, Int, Int, Int, String?))])
    func anArrivingSubtaskIsKeptWithinItsColumnsRanges(given: (Int, Int, Int, Int, Int, String), kept: (Int, Int, Int, Int, Int, String?)) {
        var s = subtask("S")
        s.estimateSeconds = given.0
        s.spanSeconds = given.1
        s.earliestMinutes = given.2
        s.priority = given.3
        s.maxPerDaySeconds = given.4
        s.startDate = given.5
        let stored = s.stored
        #expect(stored.estimateSeconds == kept.0 && stored.spanSeconds == kept.1 && stored.earliestMinutes == kept.2)
        #expect(stored.priority == kept.3 && stored.maxPerDaySeconds == kept.4 && stored.startDate == kept.5)
    }

    @Test func anArrivingSessionEndsNoEarlierThanItStartsAndFocusesWithinItsLength() {
        var s = session("l")
        s.end = s.start.addingTimeInterval(-60)
        s.focusedSeconds = 900
        s.plannedSeconds = -1
        s.status = "COMPLETED"
        let stored = s.stored
        #expect(stored.end == stored.start && stored.focusedSeconds == 0 && stored.plannedSeconds == 0 && stored.status == "completed")
        s.end = s.start.addingTimeInterval(600.7)
        s.status = "odd"
        #expect(s.stored.focusedSeconds == 600 && s.stored.status == "interrupted")
    }

    @Test func theStandInRuleReadsTheSameInSQL() {
        #expect(SyncIdentity.standInUID(taskUID: "focus-task-1@focus") == "focus-task-1@focus#due")
        #expect(SyncIdentity.standInUID(sqlColumn: "t.syncUid") == "t.syncUid || '#due'")
    }

    private func input(local: [SyncItem] = [], there: [SyncItem] = [], gone: [String] = [], agreed: [String] = []) -> RoundInput {
        var entries: [String: RemoteRead.Entry] = [:]
        for item in there { entries[item.uid] = RemoteRead.Entry(item: item, url: item.uid) }
        for uid in gone { entries[uid] = RemoteRead.Entry(item: nil, url: uid) }
        var states: [String: SyncState] = [:]
        for uid in agreed { states[uid] = SyncState(uid: uid, kind: .task, url: uid, etag: nil, base: Data(), digest: "") }
        return RoundInput(calendarURL: "c/", entries: entries, states: states, local: Dictionary(uniqueKeysWithValues: local.map { ($0.uid, $0) }),
                          touched: [], bases: [:], now: Date(timeIntervalSince1970: 1_795_100_000))
    }

    private func kept(_ changes: [LocalSyncChange]) -> [String] {
        changes.compactMap {
            guard case let .keepGone(item, label) = $0 else { return nil }
            switch item {
            case let .task(t): return "task \(t.uid) '\(t.title)' archived:\(t.archived) as \(label)"
            case let .subtask(s): return "subtask \(s.uid) of \(s.taskUID) '\(s.title)' done:\(s.done) as \(label)"
            case .session: return "session"
            }
        }
    }

    @Test func aSessionWhoseToDoIsNowhereMakesItFromItsLabelArchived() {
        let arriving: [LocalSyncChange] = [.upsert(.session(session("l1"))), .upsert(.session(session("l2", label: "Book/Intro/part")))]
        // Neither the task nor the subtask here or there: both made, once each.
        #expect(kept(SyncPlan.goneParents(of: arriving, in: input(gone: ["S"]))) == [
            "task T 'Book' archived:true as Book", "subtask S of T 'Intro' done:true as Book/Intro",
        ])
        // The task here (its title as here): only the subtask, named under it.
        let here = SyncItem.task(SyncedTask(uid: "T", title: "Novel", notes: nil, archived: false, modified: 0))
        #expect(kept(SyncPlan.goneParents(of: arriving, in: input(local: [here]))) == ["subtask S of T 'Intro' done:true as Novel/Intro"])
        // The subtask there, arriving in this round, or agreed before: nothing made.
        #expect(kept(SyncPlan.goneParents(of: arriving, in: input(local: [here], there: [.subtask(subtask("S"))]))).isEmpty)
        #expect(kept(SyncPlan.goneParents(of: arriving + [.upsert(.subtask(subtask("S")))], in: input(local: [here]))).isEmpty)
        #expect(kept(SyncPlan.goneParents(of: arriving, in: input(local: [here], agreed: ["S"]))).isEmpty)
        // Agreed before, deleted here (`focus task rm`) and deleted there by another app in
        // this read: made, as on the machines that had it.
        #expect(kept(SyncPlan.goneParents(of: arriving, in: input(local: [here], gone: ["S"], agreed: ["S"]))) == [
            "subtask S of T 'Intro' done:true as Novel/Intro",
        ])
        #expect(kept(SyncPlan.goneParents(of: arriving, in: input(gone: ["T", "S"], agreed: ["T", "S"]))) == [
            "task T 'Book' archived:true as Book", "subtask S of T 'Intro' done:true as Book/Intro",
        ])
        // A session of the task itself, and of its stand-in: the task only.
        let own: [LocalSyncChange] = [.upsert(.session(session("l3", subtask: nil, label: "Book"))),
                                      .upsert(.session(session("l4", subtask: "T#due", label: "Book/Book")))]
        #expect(kept(SyncPlan.goneParents(of: own, in: input())) == ["task T 'Book' archived:true as Book"])
        // A label that names nothing usable still makes names a path can take.
        #expect(kept(SyncPlan.goneParents(of: [.upsert(.session(session("l5", label: "")))], in: input())) == [
            "task T 'Untitled' archived:true as Untitled", "subtask S of T 'Untitled' done:true as Untitled/Untitled",
        ])
    }
}
