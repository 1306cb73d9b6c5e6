import Foundation
import Testing
import FocusCore

/// #41, "A plan that holds still": a simulated day on a test clock. Commands write (and so
/// re-plan) every few minutes and the daemon looks every minute, as `focus daemon` does; the
/// person works on some blocks and ignores others. Each block is reminded of once, and the
/// plan changes a bounded number of times.
/// (Worked blocks: a countdown from the block's start, the session recorded at its end.)
struct SimulatedDayTests {
    static let calendar = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)

    /// What the store holds and what the daemon sent, as the re-plan and the reminders apply them.
    struct Day {
        var rules = SchedulingRules(config: FocusConfig(), calendar: SimulatedDayTests.calendar)
        var blocks: [ScheduledBlock] = []
        var sessions: [TimeLog] = []
        var nextID: Int64 = 1
        var sent: Set<SentReminder> = []
        var reminders: [SentReminder] = []
        var inserted = 0
        var moves = 0
        /// The re-plans that made or moved a block (each one a publication).
        var changes: [Date] = []
        let subtasks: [PlanSubtask]

        init(now: Date) {
            let due = SimulatedDayTests.calendar.startOfDay(SimulatedDayTests.calendar.day(of: now).adding(days: 3))
            subtasks = [(1, "Draft", 3 * 3600), (2, "Review", 2 * 3600)].map { id, title, estimate in
                PlanSubtask(subtask: Subtask(id: id, taskID: 1, title: title, estimateSeconds: estimate, due: due, createdAt: now),
                            label: "Thesis/\(title)", loggedSeconds: 0)
            }
        }

        /// The block the person is working on (a countdown from its start to its end).
        var working: ScheduledBlock?

        /// The countdown while it runs, as the re-plan sees it; at its end, the session it records.
        mutating func running(now: Date) -> RunningWork? {
            guard let block = working else { return nil }
            if now >= block.endedAt {
                let seconds = Int(block.endedAt.timeIntervalSince(block.startedAt))
                sessions.append(TimeLog(id: Int64(sessions.count + 1), taskID: 1, subtaskID: block.subtaskID, startedAt: block.startedAt,
                                        endedAt: block.endedAt, plannedSeconds: seconds, focusedSeconds: seconds,
                                        status: .completed, blockID: block.id))
                working = nil
                return nil
            }
            return RunningWork(subtaskID: block.subtaskID, blockID: block.id, focusedSeconds: Int(now.timeIntervalSince(block.startedAt)),
                               remainingSeconds: Int(block.endedAt.timeIntervalSince(now)),
                               busy: DateInterval(start: block.startedAt, end: block.endedAt.addingTimeInterval(300)))
        }

        /// A command that writes: the re-plan, applied as the store applies it.
        mutating func replan(now: Date) {
            let planned = blocks.filter { $0.status == .planned }
            let run = running(now: now)
            var input = ReplanInput(now: now, rules: rules, planned: planned, sessions: sessions, subtasks: subtasks.map { entry in
                var e = entry
                e.loggedSeconds = sessions.filter { $0.subtaskID == entry.subtask.id }.reduce(0) { $0 + $1.focusedSeconds }
                return e
            }, running: run, events: [])
            input.spent = blocks.filter { ($0.status == .missed || $0.status == .partial) && $0.startedAt <= now && $0.endedAt > now }
                .map { DateInterval(start: $0.startedAt, end: $0.endedAt) }
            let result = Replanner.replan(input)
            for block in result.settled { blocks = blocks.map { $0.id == block.id ? block : $0 } }
            let (fresh, removed, moved) = BlockIdentity.assign(result.schedule.blocks, replacing: result.replaced, calendar: calendar)
            // Replaced rows go (`removed`) or take their new times (`moved`, reminders due again).
            let replacedIDs = Set(result.replaced.compactMap(\.id))
            #expect(Set(removed).isSubset(of: replacedIDs))
            blocks.removeAll { replacedIDs.contains($0.id ?? -1) }
            moves += moved.count
            let before = inserted
            defer { if inserted > before || !moved.isEmpty { changes.append(now) } }
            sent = sent.filter { !moved.contains($0.blockID) }
            for var block in fresh {
                if block.id == nil {
                    block.id = nextID
                    nextID += 1
                    inserted += 1
                }
                blocks.append(block)
            }
        }

        var calendar: LocalCalendar { rules.calendar }

        /// The daemon's look: reminders due now are sent; an ended block makes it re-plan.
        mutating func look(now: Date) {
            let planned = blocks.filter { $0.status == .planned }.map {
                ReminderBlock(id: $0.id ?? 0, path: "Thesis/\($0.subtaskID)", start: $0.startedAt, end: $0.endedAt)
            }
            let decision = ReminderSchedule.decide(blocks: planned, sent: sent, runningBlockID: working?.id, leadSeconds: 300, now: now,
                                                   calendar: calendar)
            for due in decision.due {
                sent.insert(due.reminder)
                reminders.append(due.reminder)
            }
            if !decision.endedBlockIDs.isEmpty { replan(now: now) }
        }
    }

    @Test func aDayOfWritesEveryFewMinutesRemindsOncePerBlockAndMovesLittle() {
        let start = Self.calendar.instant(LocalDate(year: 2026, month: 12, day: 7), TimeOfDay(hour: 8, minute: 30))
        var day = Day(now: start)
        day.replan(now: start)
        var worked = Set<Int64>()
        var turn = 0
        for minute in 0..<(9 * 60) {
            let now = start.addingTimeInterval(Double(minute * 60) + 7)
            // A block reached: the person works every other one, from its start.
            if day.working == nil,
               let block = day.blocks.first(where: { $0.status == .planned && $0.startedAt <= now && now < $0.endedAt.addingTimeInterval(-60) }),
               let id = block.id, !worked.contains(id) {
                worked.insert(id)
                turn += 1
                if turn % 2 == 0 { day.working = block }
            }
            if minute % 3 == 0 { day.replan(now: now) }
            day.look(now: now)
        }
        let starts = day.reminders.filter { $0.kind == .start }
        let befores = day.reminders.filter { $0.kind == .before }
        #expect(Set(starts.map(\.blockID)).count == starts.count, "a block was reminded of twice: \(starts)")
        #expect(Set(befores.map(\.blockID)).count == befores.count, "a block was reminded of twice ahead: \(befores)")
        // One working day holds at most about 14 blocks of 25 minutes; each is reminded once.
        #expect(starts.count >= 6 && starts.count <= 16, "\(starts.count) start reminders")
        // The plan changes only when a block is missed or worked (and at the first plan), not at
        // every write: about 190 re-plans ran.
        let settled = day.blocks.filter { $0.status != .planned }.count
        #expect(day.changes.count <= settled + 1, "\(day.changes.count) changing re-plans for \(settled) settled blocks: \(day.changes)")
        // Missed blocks stay missed where they were; worked ones are done.
        #expect(day.blocks.contains { $0.status == .missed })
    }
}
