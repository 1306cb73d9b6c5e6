import FocusCore
import Foundation
import Testing

/// The add form's "which blocks would move": each other subtask's next block, before and after.
extension PlanChangesTests {
    @Test func movesNameEachOtherSubtaskWhoseNextBlockStartsElsewhereEarliestFirst() {
        let before = [block(1, "Thesis/Chapter 2", 1), block(1, "Thesis/Chapter 2", 3), block(2, "Course/Essay", 2), block(3, "Garden/Weeding", 4)]
        let after = [block(9, "Thesis/New", 1), block(1, "Thesis/Chapter 2", 1.5), block(2, "Course/Essay", 2), block(3, "Garden/Weeding", 5)]
        let moves = PlanChanges.moves(before: before, after: after, except: 9, now: now)
        #expect(moves == [PlanChanges.Move(path: "Thesis/Chapter 2", from: at(1), to: at(1.5)),
                          PlanChanges.Move(path: "Garden/Weeding", from: at(4), to: at(5))])
        // Blocks already over are not moves; the added work itself never is.
        #expect(PlanChanges.moves(before: [block(1, "Thesis/Chapter 2", -2)], after: [block(1, "Thesis/Chapter 2", 1)], except: nil, now: now).isEmpty)
    }
}
