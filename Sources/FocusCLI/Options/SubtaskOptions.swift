import ArgumentParser
import FocusCore

/// The scheduling fields of a subtask, shared by `task add` and `task edit`.
/// `none` clears a field on edit.
package struct SubtaskOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Estimated work, e.g. 6h or 90m.", valueName: "duration"))
    package var estimate: String?
    @Option(help: ArgumentHelp("Due ('2026-11-27 17:00', 'fri 5pm', tomorrow); a date alone means the end of that day.", valueName: "datetime"))
    package var due: String?
    @Option(help: ArgumentHelp("First day work may start (2026-11-23, mon, tomorrow).", valueName: "date"))
    package var start: String?
    @Option(help: ArgumentHelp("Attention span: the longest sitting, e.g. 50m.", valueName: "duration"))
    package var span: String?
    @Option(help: ArgumentHelp("Earliest time of day to work on it (09:00, 9am, 9:30pm).", valueName: "HH:MM"))
    package var earliest: String?
    @Option(help: ArgumentHelp("Free-form notes.", valueName: "text"))
    package var notes: String?
    @Option(name: .customLong("max-per-day"), help: ArgumentHelp("Most work planned for it a day, e.g. 2h.", valueName: "duration"))
    package var maxPerDay: String?
    @Option(help: ArgumentHelp("Orders work due the same day: high, normal or low.", valueName: "level"))
    package var priority: String?

    @Option(help: ArgumentHelp("Recurring work: day, weekdays, week or month.", valueName: "period"))
    package var every: String?
    @Option(help: ArgumentHelp("Due day: a weekday for week (fri), a day for month (15).", valueName: "day"))
    package var on: String?

    package init() {}

    /// The forms of recurring work, for the usage errors that name them.
    static let recurringForms = "--every day|weekdays|week|month [--on DAY], e.g. "
        + "`focus task add \"Admin/Weekly review\" --estimate 1h --every week --on fri`"

    /// Whether `--every` or `--on` was given.
    package var hasRule: Bool { every != nil || on != nil }

    package var hasSchedulingFields: Bool {
        estimate != nil || due != nil || start != nil || span != nil || earliest != nil || maxPerDay != nil || priority != nil || hasRule
    }

    /// The rule of recurring work the flags give `s` (README, "Planning"): `--every` sets it,
    /// `--on` alone changes the day of the rule `s` has. A series is never due itself.
    func applyRule(to s: inout Subtask) throws(FocusError) {
        if hasRule {
            guard let kind = every ?? s.recurrence?.every.rawValue else {
                throw .usage("--on goes with --every: \(SubtaskOptions.recurringForms).")
            }
            // A new period kind drops the old day unless --on gives one.
            let day = on ?? (every == nil ? s.recurrence?.onText : nil)
            s.recurrence = try Recurrence.parse(every: kind, on: day)
        }
        if s.recurrence != nil, s.due != nil {
            throw .usage("recurring work has no --due: each period's instance is due at the period's end, or on its --on day: "
                + "\(SubtaskOptions.recurringForms).")
        }
    }

    /// Applies the given flags to a subtask, validating each value.
    package func apply(to s: inout Subtask, today: LocalDate, calendar: LocalCalendar, warn: (String) -> Void) throws(FocusError) {
        func cleared(_ v: String) -> Bool { v.lowercased() == "none" }
        if let v = estimate {
            if cleared(v) { s.estimateSeconds = nil } else {
                let secs = try DurationParser.seconds(v, what: "estimate")
                guard secs > 0 else { throw .invalidValue(what: "estimate", value: v, expected: "a duration above zero") }
                s.estimateSeconds = secs
            }
        }
        if let v = due {
            if cleared(v) { s.due = nil } else {
                let input = try DateParser.dateTime(v, today: today, what: "due date")
                s.due = DateParser.resolve(input, in: calendar, endOfDay: true, warn: warn)
            }
        }
        if let v = start {
            s.startDate = cleared(v) ? nil : try DateParser.date(v, today: today, what: "start date")
        }
        if let v = span {
            if cleared(v) { s.spanSeconds = nil } else {
                let secs = try DurationParser.seconds(v, what: "attention span")
                guard secs >= 60 else { throw .invalidValue(what: "attention span", value: v, expected: "a duration of at least 1m") }
                s.spanSeconds = secs
            }
        }
        if let v = earliest {
            s.earliest = cleared(v) ? nil : try DateParser.timeOfDay(v, what: "earliest time")
        }
        if let v = notes { s.notes = cleared(v) || v.isEmpty ? nil : v }
        if let v = maxPerDay {
            s.maxPerDaySeconds = cleared(v) ? nil : try FocusConfig.dailyCap(v, what: "max per day")
        }
        if let v = priority {
            guard let level = Priority(name: v) else {
                throw .invalidValue(what: "priority", value: v, expected: "high, normal or low")
            }
            s.priority = level
        }
        try applyRule(to: &s)
        if let rule = s.recurrence { try rule.checkStart(s.startDate ?? today) }
        if let start = s.startDate, let due = s.due, calendar.startOfDay(start) >= due {
            throw .invalidValue(what: "start date", value: start.description, expected: "a day before the due date")
        }
    }
}
