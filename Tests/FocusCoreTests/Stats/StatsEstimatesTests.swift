import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

@Suite struct StatsEstimatesTests {
    typealias F = StatsFixtures

    static let inWindow = F.local(F.berlin, 2026, 11, 18, 10, 0)
    static let beforeWindow = F.local(F.berlin, 2026, 11, 2, 10, 0)

    static func done(_ name: String, estimate: Int, logged: Int, at: Date = inWindow) -> SubtaskProgress {
        SubtaskProgress(task: "Thesis", subtask: name, estimateSeconds: estimate, loggedSeconds: logged, done: true, lastWorkedAt: at)
    }

    @Test func openSubtasksShowLoggedAgainstEstimate() {
        let r = F.week([], progress: [
            SubtaskProgress(task: "Thesis", subtask: "Intro", estimateSeconds: 14_400, loggedSeconds: 4800, done: false, lastWorkedAt: nil),
            SubtaskProgress(task: "Thesis", subtask: "No estimate", estimateSeconds: nil, loggedSeconds: 600, done: false, lastWorkedAt: nil),
            Self.done("Old", estimate: 3600, logged: 3600, at: Self.beforeWindow),
        ])
        #expect(r.estimates.subtasks == [
            EstimateLine(task: "Thesis", subtask: "Intro", estimateSeconds: 14_400, loggedSeconds: 4800, progressPercent: 33, done: false, actualRatio: nil),
        ])
        #expect(r.estimates.medianRatio == nil)
        #expect(r.estimates.sentence == nil)
    }

    @Test func finishedSubtasksGiveTheTypicalRatio() {
        let r = F.week([], progress: [
            Self.done("C", estimate: 3600, logged: 5760),  // 1.6
            Self.done("A", estimate: 3600, logged: 4320),  // 1.2
            Self.done("B", estimate: 3600, logged: 5040),  // 1.4
        ])
        #expect(r.estimates.subtasks.map(\.subtask) == ["A", "B", "C"])
        #expect(r.estimates.subtasks.map(\.actualRatio) == [1.2, 1.4, 1.6])
        #expect(r.estimates.subtasks.map(\.progressPercent) == [120, 140, 160])
        #expect(r.estimates.medianRatio == 1.4)
        #expect(r.estimates.ratioSample == 3)
        #expect(r.estimates.sentence == "your estimates run 1.4× short")
    }

    @Test(arguments: [
        (1.4, "your estimates run 1.4× short"),
        (0.8, "your estimates run 1.3× long"),
        (0.85, "your estimates run 1.2× long"),
        (1.04, "your estimates are on target"),
        (0.96, "your estimates are on target"),
        (2.0, "your estimates run 2.0× short"),
    ])
    func ratioSentence(ratio: Double, sentence: String) {
        #expect(EstimateFigures.sentence(forRatio: ratio) == sentence)
    }

    @Test func medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        #expect(EstimateFigures.median([0.5, 1.0]) == 0.75)
        #expect(EstimateFigures.median([3, 1, 2, 10]) == 2.5)
        #expect(EstimateFigures.median([]) == nil)
    }
}
