import FocusCalendar
import FocusCore
import FocusStorage
import FoundationEssentials

/// Whose meetings are read and how (README, "A CalDAV account"): the person's addresses (config
/// `email` and the connected accounts' own) and `tentative_busy`.
package struct AttendancePolicy {
    package var addresses: Set<String>
    package var tentativeBusy: Bool

    package static func current(_ env: ServiceContext, _ db: AppDatabase?) -> AttendancePolicy {
        var addresses = Set(env.config.emails.map(Attendance.address))
        for account in (try? db?.accounts()) ?? [] { addresses.formUnion(account.addresses.map(Attendance.address)) }
        return AttendancePolicy(addresses: addresses, tentativeBusy: env.config.tentativeBusy)
    }

    /// The one rule, for every reader of calendar files (import, subscribe, connected calendars
    /// and the planner's expansion past the stored window): whether an event is free time.
    package var isFree: @Sendable (ICSEvent) -> Bool {
        let addresses = addresses, tentativeBusy = tentativeBusy
        return { event in
            Attendance.isFree(attendees: event.attendees.map { ($0.address, $0.partstat) }, addresses: addresses, tentativeBusy: tentativeBusy)
        }
    }
}
