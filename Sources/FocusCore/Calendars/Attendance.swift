import FocusText
import FoundationEssentials

/// Whether a meeting takes the person's time (README, "A CalDAV account"): an event where the
/// person is an attendee who declined (`PARTSTAT=DECLINED`, RFC 5545 section 3.2.12) is free
/// time; one they have not answered (`NEEDS-ACTION`) or accepted tentatively (`TENTATIVE`) is
/// busy unless `tentative_busy = false`. The person's addresses are config `email` and the
/// principal's `calendar-user-address-set` (RFC 6638 section 2.4.1).
package enum Attendance {
    /// `mailto:Alice@Example.org` → `alice@example.org`: how addresses are compared.
    package static func address(_ text: String) -> String {
        var value = Substring(text.trimmingSpaces())
        if value.lowercased().hasPrefix("mailto:") { value = value.dropFirst(7) }
        return value.trimmingSpaces().lowercased()
    }

    /// Whether an event whose attendees are `attendees` (address, PARTSTAT) is free time for the
    /// person with `addresses` (compared as `address` gives them). Events the person does not
    /// attend keep their busy time.
    package static func isFree(attendees: [(address: String, partstat: String)], addresses: Set<String>, tentativeBusy: Bool) -> Bool {
        guard !addresses.isEmpty else { return false }
        let mine = attendees.filter { addresses.contains(address($0.address)) }.map { $0.partstat.uppercased() }
        guard !mine.isEmpty else { return false }
        // Of several entries for the person (two of their addresses invited), any answer but
        // a decline keeps the time.
        if mine.allSatisfy({ $0 == "DECLINED" }) { return true }
        if !tentativeBusy, mine.allSatisfy({ ["DECLINED", "NEEDS-ACTION", "TENTATIVE"].contains($0) }) { return true }
        return false
    }
}
