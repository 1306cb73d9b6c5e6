import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

@Suite struct StatsTasksTests {
    typealias F = StatsFixtures

    @Test func tasksAreSortedByFocusedTimeThenTitle() {
        let r = F.week([
            F.nov(16, 9, 0, minutes: 25, "beta"),
            F.nov(16, 10, 0, minutes: 25, "Alpha"),
            F.nov(17, 9, 0, minutes: 50, "Zed"),
            F.nov(17, 11, 0, minutes: 10, "alpha two"),
        ])
        #expect(r.tasks.map(\.task) == ["Zed", "Alpha", "beta", "alpha two"])
        #expect(r.tasks.map(\.focusedSeconds) == [3000, 1500, 1500, 600])
    }

    @Test func subtasksAreSortedLikeTasksAndTaskLevelSessionsCountInTheTaskOnly() {
        let r = F.week([
            F.nov(16, 9, 0, minutes: 10, "Thesis", "b"),
            F.nov(16, 10, 0, minutes: 10, "Thesis", "A", status: .interrupted),
            F.nov(17, 9, 0, minutes: 15, "Thesis", "c"),
            F.nov(18, 9, 0, minutes: 30, "Thesis", nil),
        ])
        #expect(r.tasks == [TaskStats(task: "Thesis", focusedSeconds: 3900, completed: 3, interrupted: 1, subtasks: [
            SubtaskStats(subtask: "c", focusedSeconds: 900, completed: 1, interrupted: 0),
            SubtaskStats(subtask: "A", focusedSeconds: 600, completed: 0, interrupted: 1),
            SubtaskStats(subtask: "b", focusedSeconds: 600, completed: 1, interrupted: 0),
        ])])
    }

    @Test func taskCountsFollowTheDayTheSessionStarted() {
        let r = F.week([
            F.nov(15, 23, 30, minutes: 60, "Thesis", "Intro"),
            F.nov(22, 23, 30, minutes: 60, "Thesis", "Intro", status: .interrupted),
        ])
        #expect(r.tasks == [TaskStats(task: "Thesis", focusedSeconds: 3600, completed: 0, interrupted: 1, subtasks: [
            SubtaskStats(subtask: "Intro", focusedSeconds: 3600, completed: 0, interrupted: 1),
        ])])
    }

    @Test func dayBreakdownByTaskFollowsTheTaskOrder() {
        let r = F.week([
            F.nov(16, 9, 0, minutes: 25, "Small"),
            F.nov(16, 10, 0, minutes: 25, "Big"),
            F.nov(17, 10, 0, minutes: 50, "Big"),
        ])
        #expect(r.days[0].taskSeconds == [TaskSlice(task: "Big", focusedSeconds: 1500), TaskSlice(task: "Small", focusedSeconds: 1500)])
        #expect(r.days[1].taskSeconds == [TaskSlice(task: "Big", focusedSeconds: 3000)])
        #expect(r.days[2].taskSeconds.isEmpty)
    }

    @Test func taskFilterIsCarriedForHeadings() {
        let r = F.week([F.nov(16, 9, 0, minutes: 25, "Thesis", "Chapter 2")], taskFilter: "Thesis/Chapter 2")
        #expect(r.taskFilter == "Thesis/Chapter 2")
    }
}
