import FocusCore
import FocusText
import FoundationEssentials

extension AgendaRenderer {
    /// `calendar busy --json`: the busy times listed.
    package static func busyJSON(list events: [BusyEvent]) -> JSON { .array(events.map(busyJSON)) }

    /// A busy time, `{"start", "end", "summary", "calendar"}`: the contract's shape
    /// (`calendar busy --json`, the agenda's `events`).
    package static func busyJSON(_ e: BusyEvent) -> JSON {
        .object([
            ("start", .string(Timestamp.utc(e.start))), ("end", .string(Timestamp.utc(e.end))),
            ("summary", .string(e.summary)), ("calendar", .string(e.calendar)),
        ])
    }

    /// One day's keys: the contract's agenda shape (`events`, `sessions`, `date`, `free_seconds`,
    /// `due`), its blocks, and its working hours (`null` on a day off).
    /// Meetings the person declined (`declined_events`) only on a day that has some.
    package static func dayJSON(_ a: AgendaDay) -> [(String, JSON)] {
        [
            ("blocks", .array(a.blocks.map(PlanRenderer.blockJSON))),
            ("events", .array(a.events.map(busyJSON))),
        ] + (a.declined.isEmpty ? [] : [("declined_events", .array(a.declined.map(busyJSON)))]) + [
            ("sessions", .array(a.sessions.map(SessionRenderer.json))),
            ("date", .string(a.day.description)),
            ("free_seconds", .int(a.freeSeconds)),
            ("due", .array(a.due.map { d in
                .object([("task", .string(d.task)), ("subtask", .string(d.subtask)), ("due", .string(Timestamp.utc(d.due))),
                         ("estimate_seconds", .optional(d.estimateSeconds)), ("logged_seconds", .int(d.loggedSeconds)),
                         ("done", .bool(d.done))])
            })),
            ("working_hours", a.hours.map { .string($0.description) } ?? .null),
        ]
    }

    /// `agenda --json`: one day as the contract's object (the plan's keys, then the day's), or
    /// with `range` (`--week`, `--days`) `{"from", "to", "days": [...], "at_risk", "overdue"}`;
    /// both name the live calendars whose copy is stale.
    package static func json(_ agendas: [AgendaDay], from first: LocalDate, range: Bool, atRisk: [RiskView], overdue: [OverdueView],
                             stale: [CalendarSummary]) -> JSON {
        guard !range, let a = agendas.first else {
            return JSON.object([
                ("from", .string(first.description)), ("to", .string(first.adding(days: agendas.count - 1).description)),
                ("days", .array(agendas.map { .object(dayJSON($0)) })),
                ("at_risk", .array(atRisk.map(PlanRenderer.riskJSON))), ("overdue", .array(overdue.map(PlanRenderer.overdueJSON))),
                ("stale_calendars", CalendarRenderer.staleJSON(stale)),
            ])
        }
        var pairs = PlanRenderer.json(blocks: a.blocks, atRisk: atRisk, overdue: overdue)
        pairs += dayJSON(a).filter { $0.0 != "blocks" }
        pairs.append(("stale_calendars", CalendarRenderer.staleJSON(stale)))
        return JSON.object(pairs)
    }
}
