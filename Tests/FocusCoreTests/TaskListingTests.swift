import FocusCore
import Foundation
import Testing

/// `focus task list`'s order and filters, as a pure function over the rows it reads.
@Suite struct TaskListingTests {
    let now = Date(timeIntervalSince1970: 1_796_000_000)
    let epoch = Date(timeIntervalSince1970: 0)

    func task(_ id: Int64, _ title: String, notes: String? = nil, _ subs: [SubtaskOverview]) -> TaskOverview {
        TaskOverview(task: FocusTask(id: id, title: title, notes: notes, createdAt: epoch), loggedSeconds: subs.reduce(0) { $0 + $1.loggedSeconds },
                     sessionCount: 0, subtasks: subs)
    }

    func sub(_ title: String, dueIn hours: Double? = nil, estimate: Int? = nil, logged: Int = 0, done: Bool = false,
             atRisk: Bool = false, notes: String? = nil) -> SubtaskOverview {
        SubtaskOverview(subtask: Subtask(taskID: 0, title: title, notes: notes, estimateSeconds: estimate,
                                         due: hours.map { now.addingTimeInterval($0 * 3600) }, done: done, atRisk: atRisk, createdAt: epoch),
                        loggedSeconds: logged)
    }

    func titles(_ tasks: [TaskOverview]) -> [String] { tasks.map { ([$0.task.title] + $0.subtasks.map(\.subtask.title)).joined(separator: "/") } }

    /// In title order, as storage reads them.
    var tasks: [TaskOverview] {
        [task(1, "Alpha", [sub("A1", dueIn: 48, estimate: 3600, logged: 3000)]),
         task(2, "Beta", notes: "for the café", [sub("B1", dueIn: 100, estimate: 7200), sub("B2", dueIn: 5, estimate: 3600, done: true)]),
         task(3, "Gamma", [sub("G1")]),
         task(4, "Omega", [sub("O1", dueIn: -2, estimate: 3600, logged: 600), sub("O2", dueIn: 24, estimate: 600, atRisk: true)])]
    }

    @Test func dueOrderTakesTheNearestOpenDueDateAndTiesGoByTitle() {
        #expect(titles(TaskListing.apply(tasks, filter: TaskFilter(), sort: .due, now: now)) == ["Omega/O1/O2", "Alpha/A1", "Beta/B1/B2", "Gamma/G1"])
        #expect(titles(TaskListing.apply(tasks, filter: TaskFilter(), sort: .title, now: now)) == ["Alpha/A1", "Beta/B1/B2", "Gamma/G1", "Omega/O1/O2"])
        let tie = [task(1, "Same due B", [sub("x", dueIn: 3)]), task(2, "Same due A", [sub("y", dueIn: 3)])]
        #expect(titles(TaskListing.apply(tie, filter: TaskFilter(), sort: .due, now: now)) == ["Same due B/x", "Same due A/y"])
    }

    @Test func progressCountsOpenEstimatedWorkEachUpToItsEstimate() {
        // Beta 0 of 2h; Omega 600 + 0 of 4200; Alpha 3000 of 3600; Gamma has no estimate.
        #expect(titles(TaskListing.apply(tasks, filter: TaskFilter(), sort: .progress, now: now)).map { String($0.prefix(1)) } == ["B", "O", "A", "G"])
        let over = task(9, "Over", [sub("o", estimate: 600, logged: 6000), sub("p", estimate: 600)])
        #expect(TaskListing.progress(over) == 0.5)
        #expect(TaskListing.progress(task(8, "None", [sub("n")])) == nil)
    }

    @Test func filtersKeepMatchingOpenSubtasksAndCombine() {
        let atRisk = TaskListing.apply(tasks, filter: TaskFilter(atRisk: true), sort: .due, now: now)
        #expect(titles(atRisk) == ["Omega/O1/O2"])  // overdue O1, marked O2
        let soon = TaskListing.apply(tasks, filter: TaskFilter(dueBy: now.addingTimeInterval(48 * 3600)), sort: .due, now: now)
        #expect(titles(soon) == ["Omega/O1/O2", "Alpha/A1"])  // B2 is done
        let cafe = TaskListing.apply(tasks, filter: TaskFilter(search: "CAFE\u{301}"), sort: .due, now: now)
        #expect(titles(cafe) == ["Beta/B1/B2"])
        let both = TaskListing.apply(tasks, filter: TaskFilter(search: "o2", dueBy: now.addingTimeInterval(48 * 3600)), sort: .title, now: now)
        #expect(titles(both) == ["Omega/O2"])
        #expect(TaskListing.apply(tasks, filter: TaskFilter(search: "zzz"), sort: .due, now: now).isEmpty)
    }
}
