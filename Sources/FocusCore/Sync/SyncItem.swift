import FoundationEssentials

/// What the sync calendar holds (README, "Two machines").
package enum SyncKind: String, Sendable, CaseIterable {
    case task, subtask, session
}

/// A task as every machine knows it.
package struct SyncedTask: Sendable, Equatable {
    package var uid: String
    package var title: String
    package var notes: String?
    package var archived: Bool
    /// Wall-clock time of the last local edit, in milliseconds since 1970.
    package var modified: Int64
    /// A due date and estimate another app gave the to-do (README, "Two machines": a to-do
    /// with a due date is planned). Here they live on the task's stand-in subtask, of the same
    /// title (`SyncIdentity.standInUID`).
    package var due: Date?
    package var estimateSeconds: Int?
    /// The rest of the stand-in's planning, set with `focus task edit`: it travels in the to-do
    /// too, so every machine plans the work alike (README, "Two machines").
    package var planning = StandInPlanning()

    package init(uid: String, title: String, notes: String?, archived: Bool, modified: Int64, due: Date? = nil, estimateSeconds: Int? = nil,
                 planning: StandInPlanning = StandInPlanning()) {
        self.uid = uid
        self.title = title
        self.notes = notes
        self.archived = archived
        self.modified = modified
        self.due = due
        self.estimateSeconds = estimateSeconds
        self.planning = planning
    }
}

/// A stand-in subtask's start date, attention span, earliest time of day, priority and daily
/// cap, as its task's to-do carries them (`X-FOCUS-START`, `X-FOCUS-SPAN`, `X-FOCUS-EARLIEST`,
/// `X-FOCUS-PRIORITY`, `X-FOCUS-MAX-PER-DAY`), with the same meaning as a subtask's.
package struct StandInPlanning: Sendable, Equatable {
    /// `YYYY-MM-DD`.
    package var startDate: String?
    package var spanSeconds: Int?
    /// Minutes after local midnight.
    package var earliestMinutes: Int?
    /// 1 high, 0 normal, -1 low.
    package var priority = 0
    package var maxPerDaySeconds: Int?

    package init(startDate: String? = nil, spanSeconds: Int? = nil, earliestMinutes: Int? = nil, priority: Int = 0, maxPerDaySeconds: Int? = nil) {
        self.startDate = startDate
        self.spanSeconds = spanSeconds
        self.earliestMinutes = earliestMinutes
        self.priority = priority
        self.maxPerDaySeconds = maxPerDaySeconds
    }

    /// None set: the task's fields (and digest) are those it had before these travelled.
    package var isEmpty: Bool { self == StandInPlanning() }
}

/// A subtask and its scheduling constraints as every machine knows them.
package struct SyncedSubtask: Sendable, Equatable {
    package var uid: String
    package var taskUID: String
    package var title: String
    package var notes: String?
    package var estimateSeconds: Int?
    /// `YYYY-MM-DD`.
    package var startDate: String?
    package var due: Date?
    package var spanSeconds: Int?
    /// Minutes after local midnight.
    package var earliestMinutes: Int?
    package var done: Bool
    package var modified: Int64
    /// `Priority`'s raw value: 1 high, 0 normal, -1 low (`PRIORITY` in the to-do).
    package var priority: Int
    /// The daily cap (`--max-per-day`, `X-FOCUS-MAX-PER-DAY`); nil: none of its own.
    package var maxPerDaySeconds: Int?
    /// Recurring work (README, "Planning"): a series' rule (`day`, `weekdays`, `week`, `month`,
    /// and its `on` day as stored), or an instance's series and the first day of its period
    /// (`YYYY-MM-DD`).
    package var every: String?
    package var onDay: Int?
    package var seriesUID: String?
    package var periodStart: String?

    package init(uid: String, taskUID: String, title: String, notes: String?, estimateSeconds: Int?, startDate: String?, due: Date?,
                 spanSeconds: Int?, earliestMinutes: Int?, done: Bool, modified: Int64, priority: Int = 0, maxPerDaySeconds: Int? = nil) {
        self.uid = uid
        self.taskUID = taskUID
        self.title = title
        self.notes = notes
        self.estimateSeconds = estimateSeconds
        self.startDate = startDate
        self.due = due
        self.spanSeconds = spanSeconds
        self.earliestMinutes = earliestMinutes
        self.done = done
        self.modified = modified
        self.priority = priority
        self.maxPerDaySeconds = maxPerDaySeconds
    }
}

/// A recorded session as every machine knows it.
package struct SyncedSession: Sendable, Equatable {
    package var uid: String
    package var taskUID: String
    package var subtaskUID: String?
    /// "Thesis/Chapter 2": the event's summary, never merged (the names come from the task).
    package var label: String
    package var start: Date
    package var end: Date
    package var plannedSeconds: Int
    package var focusedSeconds: Int
    /// `completed` or `interrupted`.
    package var status: String
    package var note: String?
    package var modified: Int64
    /// Its tags, sorted (`SessionTags`): `CATEGORIES` on the event (README, "Tags").
    package var tags: [String]

    package init(uid: String, taskUID: String, subtaskUID: String?, label: String, start: Date, end: Date, plannedSeconds: Int,
                 focusedSeconds: Int, status: String, note: String?, modified: Int64, tags: [String] = []) {
        self.uid = uid
        self.taskUID = taskUID
        self.subtaskUID = subtaskUID
        self.label = label
        self.start = start
        self.end = end
        self.plannedSeconds = plannedSeconds
        self.focusedSeconds = focusedSeconds
        self.status = status
        self.note = note
        self.modified = modified
        self.tags = tags
    }
}

/// One field of an item, as text: how fields are compared, merged and shown.
package struct SyncField: Sendable, Equatable {
    package var name: String
    package var value: String
}

/// A task, subtask or session.
package enum SyncItem: Sendable, Equatable {
    case task(SyncedTask)
    case subtask(SyncedSubtask)
    case session(SyncedSession)

    package var uid: String {
        switch self {
        case let .task(t): t.uid
        case let .subtask(s): s.uid
        case let .session(s): s.uid
        }
    }

    package var kind: SyncKind {
        switch self {
        case .task: .task
        case .subtask: .subtask
        case .session: .session
        }
    }

    package var modified: Int64 {
        switch self {
        case let .task(t): t.modified
        case let .subtask(s): s.modified
        case let .session(s): s.modified
        }
    }

    /// The same item edited at another time.
    package func modified(_ ms: Int64) -> SyncItem {
        switch self {
        case var .task(t): t.modified = ms; return .task(t)
        case var .subtask(s): s.modified = ms; return .subtask(s)
        case var .session(s): s.modified = ms; return .session(s)
        }
    }

    /// The fields the merge compares one by one, in a fixed order. Absent values are empty
    /// text; instants are Unix seconds.
    package var fields: [SyncField] {
        func f(_ name: String, _ value: String?) -> SyncField { SyncField(name: name, value: value ?? "") }
        func n(_ value: Int?) -> String? { value.map(String.init) }
        func t(_ date: Date?) -> String? { date.map { String(Int64($0.timeIntervalSince1970.rounded(.down))) } }
        switch self {
        case let .task(x):
            let p = x.planning
            return [f("title", x.title), f("notes", x.notes), f("archived", x.archived ? "true" : "false"), f("due", t(x.due)),
                    f("estimate", n(x.estimateSeconds))]
                + (p.isEmpty ? [] : [f("start_date", p.startDate), f("span", n(p.spanSeconds)), f("earliest", n(p.earliestMinutes)),
                                     f("priority", SyncItem.word(priority: p.priority)), f("max_per_day", n(p.maxPerDaySeconds))])
        case let .subtask(x):
            return [f("task", x.taskUID), f("title", x.title), f("notes", x.notes), f("estimate", n(x.estimateSeconds)),
                    f("start_date", x.startDate), f("due", t(x.due)), f("span", n(x.spanSeconds)),
                    f("earliest", n(x.earliestMinutes)), f("done", x.done ? "true" : "false"),
                    f("priority", SyncItem.word(priority: x.priority)), f("max_per_day", n(x.maxPerDaySeconds))]
                // Only on recurring work: other subtasks' fields (and digests) stay as they were.
                + (x.every == nil ? [] : [f("every", x.every), f("on", n(x.onDay))])
                + (x.seriesUID == nil ? [] : [f("series", x.seriesUID), f("period", x.periodStart)])
        case let .session(x):
            return [f("task", x.taskUID), f("subtask", x.subtaskUID), f("start", t(x.start)), f("end", t(x.end)),
                    f("planned", n(x.plannedSeconds)), f("focused", n(x.focusedSeconds)), f("status", x.status), f("note", x.note)]
                // Only when there are some: an untagged session's fields (and digest) are those
                // it had before sessions had tags, so no stored base looks changed.
                + (x.tags.isEmpty ? [] : [f("tags", x.tags.joined(separator: "\n"))])
        }
    }

    /// The item with some fields replaced (names as in `fields`; a value that does not read
    /// as the field's type leaves it as it was).
    package func with(_ values: [String: String]) -> SyncItem {
        func text(_ name: String, _ old: String?) -> String? {
            guard let v = values[name] else { return old }
            return v.isEmpty ? nil : v
        }
        func number(_ name: String, _ old: Int?) -> Int? {
            guard let v = values[name] else { return old }
            return v.isEmpty ? nil : (Int(v) ?? old)
        }
        func instant(_ name: String, _ old: Date?) -> Date? {
            guard let v = values[name] else { return old }
            return v.isEmpty ? nil : (Int64(v).map { Date(timeIntervalSince1970: Double($0)) } ?? old)
        }
        func flag(_ name: String, _ old: Bool) -> Bool { values[name].map { $0 == "true" } ?? old }
        switch self {
        case var .task(x):
            x.title = text("title", x.title) ?? x.title
            x.notes = text("notes", x.notes)
            x.archived = flag("archived", x.archived)
            x.due = instant("due", x.due)
            x.estimateSeconds = number("estimate", x.estimateSeconds)
            x.planning.startDate = text("start_date", x.planning.startDate)
            x.planning.spanSeconds = number("span", x.planning.spanSeconds)
            x.planning.earliestMinutes = number("earliest", x.planning.earliestMinutes)
            if let v = values["priority"] { x.planning.priority = SyncItem.priority(word: v, else: x.planning.priority) }
            x.planning.maxPerDaySeconds = number("max_per_day", x.planning.maxPerDaySeconds)
            return .task(x)
        case var .subtask(x):
            x.taskUID = text("task", x.taskUID) ?? x.taskUID
            x.title = text("title", x.title) ?? x.title
            x.notes = text("notes", x.notes)
            x.estimateSeconds = number("estimate", x.estimateSeconds)
            x.startDate = text("start_date", x.startDate)
            x.due = instant("due", x.due)
            x.spanSeconds = number("span", x.spanSeconds)
            x.earliestMinutes = number("earliest", x.earliestMinutes)
            x.done = flag("done", x.done)
            if let v = values["priority"] { x.priority = SyncItem.priority(word: v, else: x.priority) }
            x.maxPerDaySeconds = number("max_per_day", x.maxPerDaySeconds)
            x.every = text("every", x.every)
            x.onDay = x.every == nil ? nil : number("on", x.onDay)
            x.seriesUID = text("series", x.seriesUID)
            x.periodStart = x.seriesUID == nil ? nil : text("period", x.periodStart)
            return .subtask(x)
        case var .session(x):
            x.taskUID = text("task", x.taskUID) ?? x.taskUID
            x.subtaskUID = text("subtask", x.subtaskUID)
            x.start = instant("start", x.start) ?? x.start
            x.end = instant("end", x.end) ?? x.end
            x.plannedSeconds = number("planned", x.plannedSeconds) ?? x.plannedSeconds
            x.focusedSeconds = number("focused", x.focusedSeconds) ?? x.focusedSeconds
            x.status = text("status", x.status) ?? x.status
            x.note = text("note", x.note)
            if let v = values["tags"] { x.tags = SessionTags.sorted(v.split(separator: "\n").map(String.init)) }
            return .session(x)
        }
    }

    /// A priority as items carry it (`fields`, `X-FOCUS-PRIORITY`): `high`, `low`, none for normal.
    package static func word(priority: Int) -> String? {
        priority > 0 ? Priority.high.name : priority < 0 ? Priority.low.name : nil
    }

    /// `word(priority:)` read back; a word it does not know leaves `old`.
    package static func priority(word: String, else old: Int) -> Int {
        word == Priority.high.name ? 1 : word == Priority.low.name ? -1 : word.isEmpty ? 0 : old
    }

    /// A digest of the kind, name and fields (not when they were edited): two copies with the
    /// same digest hold the same content, so a sync compares digests before it reads texts.
    package var digest: String {
        var hash = FNV1a()
        hash.add("\(kind.rawValue)\u{1F}\(uid)".utf8)
        for field in fields {
            // A task's due date and estimate, a subtask's priority and daily cap came later:
            // without them its digest is the one agreed before, so an upgrade sends nothing again.
            if kind == .task, field.value.isEmpty, field.name == "due" || field.name == "estimate" { continue }
            if kind == .subtask, field.value.isEmpty, field.name == "priority" || field.name == "max_per_day" { continue }
            hash.add("\u{1E}\(field.name)\u{1F}\(field.value)".utf8)
        }
        return String(hash.value, radix: 16)
    }

    /// Same kind, name and fields, whenever each was edited.
    package func sameContent(as other: SyncItem) -> Bool {
        kind == other.kind && uid == other.uid && fields == other.fields
    }
}
