import FoundationEssentials

/// The person's rules for placing work: their zone, working hours, and block shape.
package struct SchedulingRules: Sendable, Equatable {
    /// The person's zone: working hours are local wall-clock times in it (DST days included).
    package var calendar: LocalCalendar
    /// No block starts before this local time.
    package var workdayStart: TimeOfDay
    /// Blocks end by this local time (`24:00`, 1440 minutes, means midnight at the end of the day).
    package var workdayEnd: TimeOfDay
    /// The shortest block worth planning, and the shortest free gap that is used at all.
    package var minimumBlockSeconds: Int
    /// The gap required between two work blocks that face each other across free time.
    package var breakSeconds: Int
    /// The longest block when an item has no attention span of its own (the work length).
    package var defaultSpanSeconds: Int
    /// Weekdays with their own window, and dated days off (the default window is
    /// `workdayStart`–`workdayEnd`).
    package var weekdayHours: [DayHours??] = Array(repeating: nil, count: 7)
    package var daysOff: Set<LocalDate> = []
    /// Free time kept before and after every calendar event (config `buffer`; README,
    /// "Planning"). The re-plan widens events by it; the scheduler sees busy time only.
    package var bufferSeconds = 0
    /// The daily cap of a subtask without one of its own (config `max_per_day`); nil: none.
    package var maxPerDaySeconds: Int?
    /// A gap kept free every working day (config `lunch`, README "Planning"); nil: none.
    package var lunch: DayHours?
    /// Blocks begin and end on multiples of this many minutes of the hour (5 from the config:
    /// `09:05`, never `09:04` nor seconds); the work planned is rounded up to it.
    package var grainMinutes = 1
    /// The Pomodoro rhythm (config `cycles`, `long_break`): after this many blocks in a row
    /// (each a short break from the next), the next block waits `longBreakSeconds`; nil: never.
    package var cycles: Int?
    package var longBreakSeconds = 0

    /// Every day's working window, as the planner and the agenda use it.
    package var hours: WorkingHours {
        WorkingHours(standard: DayHours(start: workdayStart, end: workdayEnd), weekdays: weekdayHours, daysOff: daysOff)
    }

    package init(
        calendar: LocalCalendar,
        workdayStart: TimeOfDay = TimeOfDay(hour: 8, minute: 0),
        workdayEnd: TimeOfDay = TimeOfDay(hour: 22, minute: 0),
        minimumBlockSeconds: Int = 900,
        breakSeconds: Int = 300,
        defaultSpanSeconds: Int = 1500
    ) {
        self.calendar = calendar
        self.workdayStart = workdayStart
        self.workdayEnd = workdayEnd
        self.minimumBlockSeconds = minimumBlockSeconds
        self.breakSeconds = breakSeconds
        self.defaultSpanSeconds = defaultSpanSeconds
    }

    package static func == (a: SchedulingRules, b: SchedulingRules) -> Bool {
        a.calendar.identifier == b.calendar.identifier
            && a.workdayStart == b.workdayStart && a.workdayEnd == b.workdayEnd
            && a.minimumBlockSeconds == b.minimumBlockSeconds && a.breakSeconds == b.breakSeconds
            && a.defaultSpanSeconds == b.defaultSpanSeconds && a.weekdayHours == b.weekdayHours && a.daysOff == b.daysOff
            && a.bufferSeconds == b.bufferSeconds && a.maxPerDaySeconds == b.maxPerDaySeconds
            && a.lunch == b.lunch && a.grainMinutes == b.grainMinutes && a.cycles == b.cycles
            && a.longBreakSeconds == b.longBreakSeconds
    }
}

/// One piece of work to place: a subtask's remaining work and its constraints.
package struct WorkItem: Sendable, Equatable {
    /// Subtask id: local to this machine, so it never orders work (README, "Two machines").
    package var id: Int64
    /// `Thesis/Chapter 2`, for messages; the same on every synced machine, so ties between
    /// equal due dates are broken by it.
    package var label: String
    /// The subtask's sync name (its UID, README "Two machines"), when it has one: the next
    /// tie-break after the label.
    package var syncName: String?
    /// Estimate minus already logged focus (the caller computes it); ≤ 0 means nothing to plan.
    package var remainingSeconds: Int
    /// The start date's local midnight (the caller converts); nil means no constraint.
    package var notBefore: Date?
    /// The due instant: every block ends by then.
    package var due: Date
    /// Attention span: the longest single block; nil means the rules' default span.
    package var spanSeconds: Int?
    /// Not before this local time of day, every day; nil means the working day's start.
    package var earliest: TimeOfDay?
    /// Orders work due the same local day: higher first (`Priority.rawValue`).
    package var priority: Int = 0
    /// The most work planned on one local day, counting `usedPerDay`; nil means no cap.
    package var maxPerDaySeconds: Int?
    /// Work already done or promised per local day (sessions logged today, kept blocks),
    /// which counts against the daily cap.
    package var usedPerDay: [LocalDate: Int] = [:]

    package init(
        id: Int64, label: String, remainingSeconds: Int, notBefore: Date? = nil, due: Date,
        spanSeconds: Int? = nil, earliest: TimeOfDay? = nil, priority: Int = 0, maxPerDaySeconds: Int? = nil,
        usedPerDay: [LocalDate: Int] = [:]
    ) {
        self.priority = priority
        self.maxPerDaySeconds = maxPerDaySeconds
        self.usedPerDay = usedPerDay
        self.id = id
        self.label = label
        self.remainingSeconds = remainingSeconds
        self.notBefore = notBefore
        self.due = due
        self.spanSeconds = spanSeconds
        self.earliest = earliest
    }
}

/// A work block the scheduler placed: [start, end) for one item.
package struct PlannedBlock: Sendable, Equatable, Hashable {
    package var itemID: Int64
    package var start: Date
    package var end: Date

    package init(itemID: Int64, start: Date, end: Date) {
        self.itemID = itemID
        self.start = start
        self.end = end
    }

    package var seconds: Int { Int(end.timeIntervalSince(start).rounded()) }
}

/// An item whose remaining work does not fit before its due date.
package struct AtRiskItem: Sendable, Equatable {
    package var itemID: Int64
    package var label: String
    package var due: Date
    /// Remaining work, in seconds.
    package var neededSeconds: Int
    /// The most work the rules could place for it before its due date in the time left after
    /// higher-priority items (its span, the minimum block and breaks taken into account).
    package var freeSeconds: Int
    /// Labels of the other items whose blocks took time in its window, most time first.
    package var competitors: [String]
    /// The item's daily cap when the cap is what keeps it from fitting (without it, the
    /// free time would hold the work); nil otherwise.
    package var capSeconds: Int?

    package init(itemID: Int64, label: String, due: Date, neededSeconds: Int, freeSeconds: Int, competitors: [String],
                 capSeconds: Int? = nil) {
        self.capSeconds = capSeconds
        self.itemID = itemID
        self.label = label
        self.due = due
        self.neededSeconds = neededSeconds
        self.freeSeconds = freeSeconds
        self.competitors = competitors
    }
}

/// The scheduler's answer: blocks sorted by start, and what could not fit (in priority order).
package struct Schedule: Sendable, Equatable {
    package var blocks: [PlannedBlock]
    package var atRisk: [AtRiskItem]

    package init(blocks: [PlannedBlock], atRisk: [AtRiskItem]) {
        self.blocks = blocks
        self.atRisk = atRisk
    }
}
