import Foundation
import FocusCore

/// The scheduling rules restated independently of the scheduler, as checks on a finished plan.
/// Returns one sentence per broken rule (empty when the plan is valid).
enum ScheduleChecker {
    /// `buffer`: free time every block keeps from every busy interval (config `buffer`).
    static func violations(
        _ schedule: Schedule, items: [WorkItem], busy: [DateInterval], now: Date, rules: SchedulingRules, buffer: Int = 0
    ) -> [String] {
        var problems: [String] = []
        let byID = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let events = busy.filter { $0.duration > 0 }
        let calendar = rules.calendar
        let blocks = schedule.blocks

        for (a, b) in zip(blocks, blocks.dropFirst()) where b.start < a.start {
            problems.append("blocks not sorted by start: \(a) before \(b)")
        }

        for block in blocks {
            guard let item = byID[block.itemID] else {
                problems.append("block for unknown item \(block.itemID)")
                continue
            }
            let name = "block \(block.start)–\(block.end) of item \(item.id)"
            let start = block.start.timeIntervalSince1970
            if block.end <= block.start { problems.append("\(name) is empty") }
            if start.truncatingRemainder(dividingBy: 60) != 0 { problems.append("\(name) does not start on a whole minute") }
            if block.start < now { problems.append("\(name) starts before now") }
            if let notBefore = item.notBefore, block.start < notBefore { problems.append("\(name) starts before its start date") }
            if block.end > item.due { problems.append("\(name) ends after its due date") }

            let day = calendar.day(of: block.start)
            if let window = rules.hours.hours(on: day) {
                let opens = calendar.instant(day, window.start)
                let closes = window.end.minutes >= 1440
                    ? calendar.startOfDay(day.adding(days: 1)) : calendar.instant(day, window.end)
                if block.start < opens || block.end > closes { problems.append("\(name) lies outside that day's working hours") }
            } else {
                problems.append("\(name) lies on a day off")
            }
            if let earliest = item.earliest, block.start < calendar.instant(day, earliest) {
                problems.append("\(name) starts before the item's earliest time \(earliest)")
            }
            for event in events where event.start < block.end && block.start < event.end {
                problems.append("\(name) overlaps busy \(event.start)–\(event.end)")
            }
            let pad = Double(buffer)
            for event in events where buffer > 0 && event.start.addingTimeInterval(-pad) < block.end && block.start < event.end.addingTimeInterval(pad) {
                problems.append("\(name) is closer than the buffer \(buffer) s to busy \(event.start)–\(event.end)")
            }

            let seconds = Int(block.end.timeIntervalSince(block.start))
            let span = (item.spanSeconds.flatMap { $0 > 0 ? $0 : nil } ?? rules.defaultSpanSeconds)
            if seconds > span { problems.append("\(name) is \(seconds) s, longer than the span \(span) s") }
            let smallest = smallestBlock(for: item, rules: rules)
            if seconds < smallest { problems.append("\(name) is \(seconds) s, shorter than the smallest allowed \(smallest) s") }
        }

        for (index, first) in blocks.enumerated() {
            for second in blocks[(index + 1)...] {
                let (a, b) = first.start <= second.start ? (first, second) : (second, first)
                if b.start < a.end {
                    problems.append("blocks \(a.start) (item \(a.itemID)) and \(b.start) (item \(b.itemID)) overlap")
                    continue
                }
                let gap = Int(b.start.timeIntervalSince(a.end))
                let eventBetween = events.contains { $0.start < b.start && $0.end > a.end }
                if gap < rules.breakSeconds, !eventBetween {
                    problems.append("blocks ending \(a.end) and starting \(b.start) are only \(gap) s apart")
                }
            }
        }

        // The daily cap: a day's blocks and the work already done or promised that day.
        for item in items {
            guard let cap = item.maxPerDaySeconds else { continue }
            var perDay: [LocalDate: Int] = [:]
            for block in blocks where block.itemID == item.id {
                perDay[calendar.day(of: block.start), default: 0] += Int(block.end.timeIntervalSince(block.start))
                if calendar.day(of: block.start) != calendar.day(of: block.end.addingTimeInterval(-1)) {
                    problems.append("block \(block.start)–\(block.end) of capped item \(item.id) crosses midnight")
                }
            }
            for (day, planned) in perDay where planned + (item.usedPerDay[day] ?? 0) > cap {
                problems.append("item \(item.id) has \(planned) s planned on \(day) with \(item.usedPerDay[day] ?? 0) s used, over its cap \(cap) s")
            }
        }

        let atRisk = Dictionary(schedule.atRisk.map { ($0.itemID, $0) }, uniquingKeysWith: { first, _ in first })
        for item in items {
            let planned = blocks.filter { $0.itemID == item.id }.reduce(0) { $0 + Int($1.end.timeIntervalSince($1.start)) }
            if item.remainingSeconds <= 0 {
                if planned > 0 { problems.append("item \(item.id) with nothing remaining got blocks") }
                if atRisk[item.id] != nil { problems.append("item \(item.id) with nothing remaining is at risk") }
                continue
            }
            if let risk = atRisk[item.id] {
                if planned >= item.remainingSeconds { problems.append("item \(item.id) is at risk but got all \(planned) s") }
                if risk.neededSeconds != item.remainingSeconds { problems.append("item \(item.id) needs \(item.remainingSeconds) s, reported \(risk.neededSeconds)") }
                if risk.freeSeconds < planned { problems.append("item \(item.id) reports \(risk.freeSeconds) s free but got \(planned) s") }
                if item.due <= now, risk.freeSeconds != 0 { problems.append("item \(item.id) is overdue but reports free time") }
                if risk.label != item.label || risk.due != item.due { problems.append("item \(item.id) at risk with wrong label or due") }
            } else if planned != item.remainingSeconds {
                problems.append("item \(item.id) needs \(item.remainingSeconds) s, planned \(planned) s, not at risk")
            }
        }
        return problems
    }

    /// The shortest block an item may get: the minimum block, except one block of exactly the
    /// remaining when that is below the minimum, or equal shares when no count of blocks within
    /// minimum…span adds up to the remaining; 59 s less when the remaining is not whole minutes.
    static func smallestBlock(for item: WorkItem, rules: SchedulingRules) -> Int {
        let remaining = (item.remainingSeconds + 59) / 60
        let span = max(1, (item.spanSeconds.flatMap { $0 > 0 ? $0 : nil } ?? rules.defaultSpanSeconds) / 60)
        let minimum = min((rules.minimumBlockSeconds + 59) / 60, span)
        let blocks = (remaining + span - 1) / span
        let smallest = blocks * minimum > remaining ? remaining / blocks : minimum
        return smallest * 60 - (item.remainingSeconds % 60 == 0 ? 0 : 59)
    }
}
