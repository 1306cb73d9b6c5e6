import FocusCore
import FoundationEssentials

extension StatsReport {
    /// `focus stats --json`: the contract's keys in the contract's order (`from`, `to`,
    /// `timezone`, `days`, `tasks`, `totals`), then the extra keys `summary`, `estimates`,
    /// `insights`, `task_filter`, `tags` and `tag_filter`.
    package func json() -> JSON {
        .object([
            ("from", .string(window.from.description)),
            ("to", .string(window.to.description)),
            ("timezone", .string(timeZone.identifier)),
            ("days", .array(days.map { day in
                .object([
                    ("date", .string(day.date.description)),
                    ("focused_seconds", .int(day.focusedSeconds)),
                    ("completed", .int(day.completed)),
                    ("interrupted", .int(day.interrupted)),
                ])
            })),
            ("tasks", .array(tasks.map { task in
                .object([
                    ("task", .string(task.task)),
                    ("focused_seconds", .int(task.focusedSeconds)),
                    ("completed", .int(task.completed)),
                    ("interrupted", .int(task.interrupted)),
                    ("subtasks", .array(task.subtasks.map { sub in
                        .object([
                            ("subtask", .string(sub.subtask)),
                            ("focused_seconds", .int(sub.focusedSeconds)),
                            ("completed", .int(sub.completed)),
                            ("interrupted", .int(sub.interrupted)),
                        ])
                    })),
                ])
            })),
            ("totals", .object([
                ("focused_seconds", .int(totals.focusedSeconds)),
                ("completed", .int(totals.completed)),
                ("interrupted", .int(totals.interrupted)),
            ])),
            ("summary", summary.json()),
            ("estimates", estimates.json()),
            ("insights", insights.json()),
            ("task_filter", .optional(taskFilter)),
            ("tags", .array(tags.map { tag in
                .object([
                    ("tag", .string(tag.tag)),
                    ("focused_seconds", .int(tag.focusedSeconds)),
                    ("completed", .int(tag.completed)),
                    ("interrupted", .int(tag.interrupted)),
                ])
            })),
            ("tag_filter", .optional(tagFilter)),
        ])
    }
}

extension StatsSummary {
    package func json() -> JSON {
        .object([
            ("focused_seconds", .int(focusedSeconds)),
            ("daily_average_seconds", .int(dailyAverageSeconds)),
            ("days_with_focus", .int(daysWithFocus)),
            ("best_day", bestDay.map { .object([("date", .string($0.date.description)), ("focused_seconds", .int($0.focusedSeconds))]) } ?? .null),
            ("streak_days", .int(streakDays)),
            ("streak_end", .optional(streakEnd?.description)),
            ("completion_percent", .optional(completionPercent)),
            ("previous_from", .string(previous.from.description)),
            ("previous_to", .string(previous.to.description)),
            ("previous_focused_seconds", .int(previousFocusedSeconds)),
            ("change_percent", changePercent.map(JSON.double) ?? .null),
        ])
    }
}

extension EstimateReport {
    package func json() -> JSON {
        .object([
            ("subtasks", .array(subtasks.map { line in
                .object([
                    ("task", .string(line.task)),
                    ("subtask", .string(line.subtask)),
                    ("estimate_seconds", .int(line.estimateSeconds)),
                    ("logged_seconds", .int(line.loggedSeconds)),
                    ("progress_percent", .optional(line.progressPercent)),
                    ("done", .bool(line.done)),
                    ("actual_ratio", line.actualRatio.map(JSON.double) ?? .null),
                ])
            })),
            ("median_ratio", medianRatio.map(JSON.double) ?? .null),
            ("ratio_sample", .int(ratioSample)),
            ("sentence", .optional(sentence)),
        ])
    }
}

extension StatsInsights {
    package func json() -> JSON {
        .object([
            ("by_hour", .array(byHour.map { h in
                .object([
                    ("hour", .int(h.hour)),
                    ("sessions", .int(h.sessions)),
                    ("completed", .int(h.completed)),
                    ("interrupted", .int(h.interrupted)),
                    ("completion_percent", .int(h.completionPercent)),
                ])
            })),
            ("by_planned_length", .array(byPlannedLength.map { b in
                .object([
                    ("bucket", .string(b.bucket.key)),
                    ("min_seconds", .int(b.bucket.minSeconds)),
                    ("max_seconds", .optional(b.bucket.maxSeconds)),
                    ("sessions", .int(b.sessions)),
                    ("completed", .int(b.completed)),
                    ("interrupted", .int(b.interrupted)),
                    ("completion_percent", .int(b.completionPercent)),
                ])
            })),
            ("best_hour", .optional(bestHour)),
            ("worst_hour", .optional(worstHour)),
            ("suggested_span_seconds", .optional(suggestedSpanSeconds)),
        ])
    }
}
