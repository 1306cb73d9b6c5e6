import FocusCore
import Foundation
import Testing

/// The merging rules of the README's "Two machines", one item at a time.
private func sub(_ title: String = "Chapter 2", estimate: Int? = 7200, notes: String? = nil, done: Bool = false, at modified: Int64 = 0) -> SyncItem {
    .subtask(SyncedSubtask(uid: "s", taskUID: "t", title: title, notes: notes, estimateSeconds: estimate, startDate: nil, due: nil,
                           spanSeconds: nil, earliestMinutes: nil, done: done, modified: modified))
}

@Suite struct SyncMergeTests {
    @Test func aRenameHereAndANewEstimateThereBothSurvive() {
        let base = sub(at: 1)
        let outcome = SyncMerge.merge(base: base, local: sub("Methods", at: 10), remote: sub(estimate: 10_800, at: 20))
        #expect(outcome.result?.sameContent(as: sub("Methods", estimate: 10_800)) == true)
        #expect(outcome.writeLocal && outcome.writeRemote && outcome.conflicts.isEmpty)
        #expect(outcome.result?.modified == 20)
    }

    @Test func theSameFieldChangedOnBothKeepsTheLaterEditAndBothMachinesAgree() {
        let base = sub(at: 1)
        let laptop = sub(notes: "from the laptop", at: 100), desktop = sub(notes: "from the desktop", at: 200)
        let onLaptop = SyncMerge.merge(base: base, local: laptop, remote: desktop)
        let onDesktop = SyncMerge.merge(base: base, local: desktop, remote: laptop)
        #expect(onLaptop.result?.sameContent(as: desktop) == true)
        #expect(onDesktop.result?.sameContent(as: desktop) == true)
        #expect(onLaptop.conflicts == [SyncConflict(uid: "s", field: "notes", local: "from the laptop", remote: "from the desktop", chosen: .remote)])
        #expect(onDesktop.conflicts.first?.chosen == .local && !onDesktop.writeLocal && onDesktop.writeRemote)
        // Edited at the same millisecond: the larger value, on both machines.
        let tieA = SyncMerge.merge(base: base, local: sub(notes: "apple", at: 5), remote: sub(notes: "banana", at: 5))
        let tieB = SyncMerge.merge(base: base, local: sub(notes: "banana", at: 5), remote: sub(notes: "apple", at: 5))
        #expect(tieA.result?.sameContent(as: sub(notes: "banana")) == true)
        #expect(tieB.result?.sameContent(as: sub(notes: "banana")) == true)
    }

    @Test func aDeletionTravelsAndAnEditMeanwhileDoesNotBringItBack() {
        let base = sub(at: 1)
        let deletedHere = SyncMerge.merge(base: base, local: nil, remote: sub(notes: "edited there", at: 9))
        #expect(deletedHere.result == nil && deletedHere.writeRemote && !deletedHere.writeLocal)
        let deletedThere = SyncMerge.merge(base: base, local: sub(notes: "edited here", at: 9), remote: nil)
        #expect(deletedThere.result == nil && deletedThere.writeLocal && !deletedThere.writeRemote)
        let gone = SyncMerge.merge(base: base, local: nil, remote: nil)
        #expect(gone == MergeOutcome(result: nil, writeLocal: false, writeRemote: false))
    }

    @Test func newItemsGoWhereTheyAreMissingAndAMergeOfAgreedCopiesWritesNothing() {
        let here = SyncMerge.merge(base: nil, local: sub(), remote: nil)
        #expect(here.result == sub() && here.writeRemote && !here.writeLocal)
        let there = SyncMerge.merge(base: nil, local: nil, remote: sub())
        #expect(there.result == sub() && there.writeLocal && !there.writeRemote)
        let same = SyncMerge.merge(base: sub(at: 3), local: sub(at: 3), remote: sub(at: 3))
        #expect(!same.writeLocal && !same.writeRemote && same.conflicts.isEmpty)
        // Never agreed (both machines had it before their first sync): each differing field is
        // decided as a conflict.
        let first = SyncMerge.merge(base: nil, local: sub(estimate: 3600, at: 0), remote: sub(done: true, at: 50))
        #expect(first.result?.sameContent(as: sub(done: true)) == true, "the later edit's values")
        #expect(first.conflicts.map(\.field).sorted() == ["done", "estimate"])
    }

    @Test func sessionsMergeByTheirNameAndFieldsLikeTasks() {
        func session(note: String?, focused: Int, at modified: Int64) -> SyncItem {
            .session(SyncedSession(uid: "session-1@focus", taskUID: "t", subtaskUID: nil, label: "Thesis", start: Date(timeIntervalSince1970: 100),
                                   end: Date(timeIntervalSince1970: 1600), plannedSeconds: 1500, focusedSeconds: focused, status: "completed",
                                   note: note, modified: modified))
        }
        let base = session(note: nil, focused: 1500, at: 0)
        let outcome = SyncMerge.merge(base: base, local: session(note: "phone call", focused: 1500, at: 7),
                                      remote: session(note: nil, focused: 1200, at: 9))
        #expect(outcome.result?.sameContent(as: session(note: "phone call", focused: 1200, at: 0)) == true)
    }
}
