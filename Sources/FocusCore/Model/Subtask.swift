import FoundationEssentials

/// A part of a task that carries the scheduling constraints.
package struct Subtask: Sendable, Equatable, Hashable {
    package var id: Int64?
    package var taskID: Int64
    package var title: String
    package var notes: String?
    /// Estimated total work, in seconds.
    package var estimateSeconds: Int?
    /// The first local day work may start on.
    package var startDate: LocalDate?
    /// The instant the work is due.
    package var due: Date?
    /// The longest sitting, in seconds (attention span).
    package var spanSeconds: Int?
    /// The earliest local time of day the person is willing to work on it.
    package var earliest: TimeOfDay?
    package var done: Bool
    /// Saved with `--force` although the plan could not fit it before its due date.
    package var atRisk: Bool
    package var createdAt: Date
    /// Orders work due the same day (`--priority`).
    package var priority: Priority = .normal
    /// The most work planned for it on one local day (`--max-per-day`); nil: the config default.
    package var maxPerDaySeconds: Int?
    /// Recurring work (`--every`, README "Planning"): set on a series, the row that holds the
    /// rule and the fields each instance copies. A series is never planned itself.
    package var recurrence: Recurrence?
    /// On an instance of a series: the series' id, and the first day of the instance's period.
    package var seriesID: Int64?
    package var periodStart: LocalDate?

    /// A series of recurring work (it holds the rule; its instances are planned).
    package var isSeries: Bool { recurrence != nil }

    package init(
        id: Int64? = nil, taskID: Int64, title: String, notes: String? = nil,
        estimateSeconds: Int? = nil, startDate: LocalDate? = nil, due: Date? = nil,
        spanSeconds: Int? = nil, earliest: TimeOfDay? = nil, done: Bool = false,
        atRisk: Bool = false, createdAt: Date
    ) {
        self.id = id
        self.taskID = taskID
        self.title = title
        self.notes = notes
        self.estimateSeconds = estimateSeconds
        self.startDate = startDate
        self.due = due
        self.spanSeconds = spanSeconds
        self.earliest = earliest
        self.done = done
        self.atRisk = atRisk
        self.createdAt = createdAt
    }
}

/// How a subtask ranks against other work due the same local day (README, "Planning").
package enum Priority: Int, Sendable, Equatable, Hashable, CaseIterable {
    case low = -1
    case normal = 0
    case high = 1

    /// `high`, `normal`, `low`: the word the CLI takes and shows.
    package var name: String {
        switch self {
        case .low: "low"
        case .normal: "normal"
        case .high: "high"
        }
    }

    package init?(name: String) {
        guard let match = Priority.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = match
    }
}
