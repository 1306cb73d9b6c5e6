import FocusCoreTestSupport
import FocusRendering
import Foundation
import Testing
import FocusCore

@Suite struct StatsOutputTests {
    typealias F = StatsFixtures

    static let small = StatsCalculator.report(StatsInput(
        window: StatsWindow(from: F.day(2026, 11, 16), to: F.day(2026, 11, 17)), calendar: F.berlin,
        now: F.local(F.berlin, 2026, 11, 17, 12, 0),
        sessions: [
            F.nov(16, 9, 0, minutes: 25, "Thesis", "Chapter 2"),
            F.nov(17, 10, 0, minutes: 10, "Thesis", nil, status: .interrupted),
        ]))

    @Test func jsonHasTheContractKeysInOrderThenTheExtras() {
        let expected = #"""
        {"from": "2026-11-16", "to": "2026-11-17", "timezone": "Europe/Berlin", \#
        "days": [{"date": "2026-11-16", "focused_seconds": 1500, "completed": 1, "interrupted": 0}, \#
        {"date": "2026-11-17", "focused_seconds": 600, "completed": 0, "interrupted": 1}], \#
        "tasks": [{"task": "Thesis", "focused_seconds": 2100, "completed": 1, "interrupted": 1, \#
        "subtasks": [{"subtask": "Chapter 2", "focused_seconds": 1500, "completed": 1, "interrupted": 0}]}], \#
        "totals": {"focused_seconds": 2100, "completed": 1, "interrupted": 1}, \#
        "summary": {"focused_seconds": 2100, "daily_average_seconds": 1050, "days_with_focus": 2, \#
        "best_day": {"date": "2026-11-16", "focused_seconds": 1500}, "streak_days": 2, "streak_end": "2026-11-17", \#
        "completion_percent": 50, "previous_from": "2026-11-14", "previous_to": "2026-11-15", \#
        "previous_focused_seconds": 0, "change_percent": null}, \#
        "estimates": {"subtasks": [], "median_ratio": null, "ratio_sample": 0, "sentence": null}, \#
        "insights": {"by_hour": [{"hour": 9, "sessions": 1, "completed": 1, "interrupted": 0, "completion_percent": 100}, \#
        {"hour": 10, "sessions": 1, "completed": 0, "interrupted": 1, "completion_percent": 0}], \#
        "by_planned_length": [{"bucket": "16_25m", "min_seconds": 901, "max_seconds": 1500, "sessions": 2, \#
        "completed": 1, "interrupted": 1, "completion_percent": 50}], "best_hour": 9, "worst_hour": 10, \#
        "suggested_span_seconds": null}, "task_filter": null, "tags": [], "tag_filter": null}
        """#
        #expect(Self.small.json().rendered() == expected)
    }

    @Test func jsonWritesChangeAndRatiosAsNumbers() {
        let r = F.week([F.nov(10, 9, 0, minutes: 90), F.nov(16, 9, 0, minutes: 60)], progress: [
            SubtaskProgress(task: "T", subtask: "S", estimateSeconds: 3600, loggedSeconds: 5040, done: true, lastWorkedAt: F.local(F.berlin, 2026, 11, 16, 9, 0)),
        ])
        let text = r.json().rendered()
        #expect(text.contains(#""previous_focused_seconds": 5400, "change_percent": -33.3}"#))
        #expect(text.contains(#""actual_ratio": 1.4}], "median_ratio": 1.4, "ratio_sample": 1, "sentence": "your estimates run 1.4× short"}"#))
    }

    @Test func csvHasAHeaderAndOneRowPerDay() {
        #expect(Self.small.csv() == """
        date,weekday,focused_seconds,completed,interrupted
        2026-11-16,Mon,1500,1,0
        2026-11-17,Tue,600,0,1

        """)
        #expect(F.week([]).csv().split(separator: "\n").count == 8)
    }

    @Test(arguments: [("plain", "plain"), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("two\nlines", "\"two\nlines\""), (" pad", "\" pad\"")])
    func csvFieldsAreQuotedPerRFC4180(field: String, quoted: String) {
        #expect(StatsReport.csvField(field) == quoted)
    }
}
