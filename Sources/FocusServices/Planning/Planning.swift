import FocusCalendar
import FocusCore
import FocusStorage
import FocusText
import FoundationEssentials

/// The one re-plan every command uses (`plan`, `task add/edit/done`, `calendar import/rm`,
/// after a session): the rules from the config, and calendar expansion through FocusCalendar.
package enum Planning {
    /// The scheduling rules of the config, in the command's zone.
    package static func rules(_ env: ServiceContext) -> SchedulingRules {
        SchedulingRules(config: env.config, calendar: env.calendar)
    }

    /// `db` gives the addresses of connected accounts, for meetings the person declined.
    package static func context(_ env: ServiceContext, _ db: AppDatabase?, now: Date) -> PlanContext {
        PlanContext(now: now, rules: rules(env), expand: expansion(env, db))
    }

    /// How busy time past a calendar's stored window is read: its stored file expanded, leaving
    /// out the meetings the person declined (their addresses: config `email` and those of the
    /// accounts in `db`), as the stored occurrences do.
    package static func expansion(_ env: ServiceContext, _ db: AppDatabase?) -> CalendarExpansion {
        let attendance = AttendancePolicy.current(env, db)
        return { content, name, from, to, zone in try expand(content, name, from, to, zone, attendance: attendance) }
    }

    /// Expands a stored calendar's raw text (where its stored occurrences do not answer), leaving
    /// out meetings the person declined by the same rule as the stored occurrences.
    package static func expand(_ content: String, _ name: String, _ from: Date, _ to: Date, _ zone: LocalCalendar,
                       attendance: AttendancePolicy) throws -> [BusyEvent] {
        // A feed subscribed on another machine and not fetched here yet has no copy: no busy
        // time until it is (README, "Two machines").
        guard !content.isEmpty else { return [] }
        let document: ICSDocument
        do {
            document = try ICSReader.parse(content, detail: .busyTime)
        } catch {
            throw FocusError.badInput(file: "calendar '\(name)'", line: error.line,
                                      reason: "\(error.reason) (the stored copy no longer reads; import the file again)")
        }
        return document.busyTimes(from: from, to: to, local: zone, isFree: attendance.isFree).map {
            BusyEvent(start: $0.start, end: $0.end, summary: $0.summary, allDay: $0.allDay, calendar: name)
        }
    }

    /// Blocks shown from the start of the local day of `now`.
    package static func showFrom(_ env: ServiceContext, now: Date) -> Date {
        env.calendar.startOfDay(env.calendar.day(of: now))
    }

    /// Re-plans and saves (or, with `save: false`, only computes).
    package static func replan(_ env: ServiceContext, _ db: AppDatabase, save: Bool = true) throws(FocusError) -> PlanOutcome {
        let now = env.now()
        return try db.replan(context(env, db, now: now), save: save, showFrom: showFrom(env, now: now))
    }

    /// The re-plan after a change that already succeeded (a session): a failure is a warning,
    /// never a failed command.
    package static func replanQuietly(_ env: ServiceContext, _ db: AppDatabase) {
        do {
            _ = try replan(env, db)
        } catch {
            env.console.note("warning: the plan was not updated (\(error.description)). Run `focus plan` to try again.")
        }
    }

    /// The one path by which every change re-plans: when the data the planner reads changed since
    /// the last re-plan (the database marks it, whoever changed it), plan again and save. A failure
    /// is a warning: the change itself stands, and the next command tries again.
    @discardableResult
    package static func replanIfStale(_ env: ServiceContext, _ db: AppDatabase) -> PlanOutcome? {
        do {
            let now = env.now()
            return try db.replanIfStale(context(env, db, now: now), showFrom: showFrom(env, now: now))
        } catch {
            env.console.note("warning: the plan was not updated (\(error.description)). Run `focus plan` to try again.")
            return nil
        }
    }
}
