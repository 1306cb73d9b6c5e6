import FocusCoreTestSupport
import Foundation
import Testing
import FocusCore

/// Recurring work's periods and due dates (README, "Planning"), across month ends and DST.
struct RecurrenceTests {
    func day(_ y: Int, _ m: Int, _ d: Int) -> LocalDate { LocalDate(year: y, month: m, day: d) }

    @Test func aWeekRunsMondayToSundayAndIsDueOnItsOnDay() {
        let weekly = Recurrence(every: .week, on: 5)
        // Wed 25 Nov 2026.
        #expect(weekly.period(containing: day(2026, 11, 25)) == .init(start: day(2026, 11, 23), dueDay: day(2026, 11, 27)))
        #expect(Recurrence(every: .week).period(containing: day(2026, 11, 29)) == .init(start: day(2026, 11, 23), dueDay: day(2026, 11, 29)))
        // A week crossing a month and a year end.
        #expect(weekly.period(after: weekly.period(containing: day(2026, 12, 30))) == .init(start: day(2027, 1, 4), dueDay: day(2027, 1, 8)))
        // Due on Sunday, the week's last day.
        #expect(Recurrence(every: .week, on: 0).period(containing: day(2026, 11, 23)).dueDay == day(2026, 11, 29))
    }

    @Test func aMonthIsDueOnItsLastDayOrItsOnDayHeldToTheMonthsLength() {
        let monthly = Recurrence(every: .month)
        #expect(monthly.period(containing: day(2026, 2, 10)) == .init(start: day(2026, 2, 1), dueDay: day(2026, 2, 28)))
        #expect(monthly.period(containing: day(2028, 2, 10)).dueDay == day(2028, 2, 29))
        let on31 = Recurrence(every: .month, on: 31)
        #expect(on31.period(containing: day(2026, 4, 2)).dueDay == day(2026, 4, 30))
        // Jan 31 → Feb (28) → Mar 31: each month its own length.
        let january = on31.period(containing: day(2026, 1, 15))
        let february = on31.period(after: january)
        #expect(january.dueDay == day(2026, 1, 31))
        #expect(february == .init(start: day(2026, 2, 1), dueDay: day(2026, 2, 28)))
        #expect(on31.period(after: february).dueDay == day(2026, 3, 31))
        #expect(monthly.period(after: monthly.period(containing: day(2026, 12, 5))).start == day(2027, 1, 1))
    }

    @Test func weekdaysSkipTheWeekend() {
        let weekdays = Recurrence(every: .weekdays)
        let friday = weekdays.period(containing: day(2026, 11, 27))
        #expect(friday.dueDay == day(2026, 11, 27))
        #expect(weekdays.period(after: friday).dueDay == day(2026, 11, 30))
        #expect(weekdays.period(containing: day(2026, 11, 28)).dueDay == day(2026, 11, 30))
        #expect(Recurrence(every: .day).period(after: friday).dueDay == day(2026, 11, 28))
    }

    @Test func dueIsTheEndOfTheDueDayOnDSTDaysToo() {
        let berlin = SchedulerFixtures.berlin
        // Spring forward in Berlin: 29 Mar 2026 has 23 hours; fall back: 25 Oct 2026 has 25.
        let spring = Recurrence(every: .day).period(containing: day(2026, 3, 29))
        #expect(spring.due(in: berlin) == SchedulerFixtures.utc("2026-03-29T22:00:00Z"))
        let fall = Recurrence(every: .day).period(containing: day(2026, 10, 25))
        #expect(fall.due(in: berlin) == SchedulerFixtures.utc("2026-10-25T23:00:00Z"))
        let ny = Recurrence(every: .week, on: 0).period(containing: day(2026, 3, 5))
        #expect(ny.due(in: SchedulerFixtures.newYork) == SchedulerFixtures.utc("2026-03-09T04:00:00Z"))
    }

    @Test func theCurrentAndNextInstancesAreKeptAndAPassedOneIsNot() {
        let weekly = Recurrence(every: .week, on: 5)
        // Wednesday: this week's Friday and next week's.
        #expect(weekly.instances(today: day(2026, 11, 25), since: day(2026, 11, 20)).map(\.dueDay) == [day(2026, 11, 27), day(2026, 12, 4)])
        // Saturday: this week's is over.
        #expect(weekly.instances(today: day(2026, 11, 28), since: day(2026, 11, 20)).map(\.dueDay) == [day(2026, 12, 4)])
    }

    @Test(arguments: [
        ("fortnight", nil, "invalid --every 'fortnight'"),
        ("week", "someday", "invalid --on 'someday'"),
        ("month", "32", "invalid --on '32'"),
        ("day", "fri", "--on goes with"),
    ] as [(String, String?, String)])
    func badFormsAreRefused(every: String, on: String?, fragment: String) {
        #expect(throws: FocusError.self) { try Recurrence.parse(every: every, on: on) }
        do {
            _ = try Recurrence.parse(every: every, on: on)
        } catch {
            let text = error.description
            #expect(text.contains(fragment), "\(text)")
        }
    }

    @Test func goodFormsRead() throws {
        #expect(try Recurrence.parse(every: "week", on: "Fri") == Recurrence(every: .week, on: 5))
        #expect(try Recurrence.parse(every: "MONTH", on: "15") == Recurrence(every: .month, on: 15))
        #expect(try Recurrence.parse(every: "weekdays", on: nil).description == "every weekday")
        #expect(Recurrence(every: .week, on: 5).description == "every week on Fri")
    }
}
