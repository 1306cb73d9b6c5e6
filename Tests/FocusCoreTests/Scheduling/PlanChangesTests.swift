import FocusCore
import Foundation
import Testing

@Suite struct PlanChangesTests {
    let berlin = LocalCalendar(zone: ZoneRules.named("Europe/Berlin")!)
    /// Monday 30 November 2026, 08:00 in Berlin.
    let now = Date(timeIntervalSince1970: 1_796_022_000)

    func at(_ hours: Double) -> Date { now.addingTimeInterval(hours * 3600) }
    func block(_ id: Int64, _ path: String, _ start: Double, _ length: Double = 0.5) -> PlanChanges.Block {
        PlanChanges.Block(subtaskID: id, path: path, start: at(start), end: at(start + length))
    }
    func event(_ summary: String, _ start: Double, _ end: Double, allDay: Bool = false) -> BusyEvent {
        BusyEvent(start: at(start), end: at(end), summary: summary, allDay: allDay, calendar: "Work")
    }

    @Test func aBlockPushedByANewEventSaysFromWhereToWhereAndWhy() {
        let notices = PlanChanges.notices(
            before: [block(1, "Thesis/Chapter 2", 6)], after: [block(1, "Thesis/Chapter 2", 8)], riskBefore: [], riskAfter: [],
            newEvents: [event("Supervisor meeting", 5.5, 7)], now: now, calendar: berlin)
        #expect(notices.map(\.summary) == ["Thesis/Chapter 2 moved 14:00 → 16:00: new event 'Supervisor meeting'"])
        #expect(notices.first?.kind == .planChanged)
    }

    @Test func aChangedEventIsCalledChangedAndAMoveToAnotherDayNamesTheDays() {
        let notices = PlanChanges.notices(
            before: [block(1, "Thesis/Chapter 2", 6)], after: [block(1, "Thesis/Chapter 2", 25)], riskBefore: [], riskAfter: [],
            newEvents: [event("Seminar", 5, 14)], previousSummaries: ["Seminar"], now: now, calendar: berlin)
        #expect(notices.map(\.summary) == ["Thesis/Chapter 2 moved Mon 14:00 → Tue 09:00: changed event 'Seminar'"])
    }

    @Test func aMoveWithoutAnEventOverItSaysBusyTimeChanged() {
        let notices = PlanChanges.notices(before: [block(1, "A/x", 2)], after: [block(1, "A/x", 1)], riskBefore: [], riskAfter: [],
                                          newEvents: [event("Elsewhere", 9, 10)], now: now, calendar: berlin)
        #expect(notices.map(\.summary) == ["A/x moved 10:00 → 09:00: busy time changed"])
    }

    @Test func blocksThatStayedAndLaterBlocksThatMovedSayNothing() {
        let before = [block(1, "A/x", 2), block(1, "A/x", 5)]
        let after = [block(1, "A/x", 2), block(1, "A/x", 7)]
        #expect(PlanChanges.notices(before: before, after: after, riskBefore: [], riskAfter: [], newEvents: [], now: now, calendar: berlin).isEmpty)
    }

    @Test func workThatBecameAtRiskIsSaidOnceWithWhatItLacks() {
        let risk = PlanChanges.Risk(path: "Report/Draft", due: at(28), neededSeconds: 7200, freeSeconds: 3600)
        let notices = PlanChanges.notices(before: [], after: [], riskBefore: [], riskAfter: [risk], newEvents: [], now: now, calendar: berlin)
        #expect(notices.map(\.summary) == ["Report/Draft is now at risk: needs 2h, 1h free before Tue 1 Dec 12:00"])
        #expect(PlanChanges.notices(before: [], after: [], riskBefore: [risk], riskAfter: [risk], newEvents: [], now: now, calendar: berlin).isEmpty)
    }

    @Test func manyChangesAreCappedWithACount() {
        let before = (1...5).map { block(Int64($0), "T/s\($0)", Double($0)) }
        let after = (1...5).map { block(Int64($0), "T/s\($0)", Double($0) + 6) }
        let notices = PlanChanges.notices(before: before, after: after, riskBefore: [], riskAfter: [], newEvents: [], now: now, calendar: berlin)
        #expect(notices.count == 4)
        #expect(notices.last?.summary == "and 2 more changes to the plan")
        #expect(notices.first?.summary.hasPrefix("T/s1 moved") == true)
    }
}
