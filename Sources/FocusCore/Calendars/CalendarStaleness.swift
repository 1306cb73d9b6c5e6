import FocusText
import FoundationEssentials

/// When a live calendar's copy is too old to trust, for `agenda` and `doctor` (README, "Your
/// real calendar"): its last refresh failed, or it was last fetched more than twice the
/// daemon's `calendar_refresh` ago (a day when refreshing is off).
package enum CalendarStaleness {
    /// One line about a stale copy, nil when it is fresh.
    package static func note(name: String, state: FeedState, importedAt: Date, refreshSeconds: Int?, now: Date) -> String? {
        let fetched = state.fetchedAt ?? importedAt
        let age = now.timeIntervalSince(fetched)
        let failed = state.lastError != nil && (state.lastErrorAt ?? .distantPast) >= fetched
        let limit = Double(refreshSeconds.map { 2 * $0 } ?? 86_400)
        guard failed || age > limit else { return nil }
        var line = "calendar '\(name)' was last refreshed \(ageText(age)) ago"
        if failed, let error = state.lastError {
            // The note is a clause its reader ends ("Note: ….", doctor's line): the error's own
            // full stop would make two ("…kept and used..").
            var reason = Substring(error.trimmingSpaces())
            while reason.last == "." { reason = reason.dropLast() }
            line += "; its last refresh failed: \(reason)"
        } else {
            line += " (`focus calendar refresh` fetches it now)"
        }
        return line
    }

    /// `45 s`, `12 min`, `3 h`, `4 days`.
    package static func ageText(_ seconds: Double) -> String {
        let s = max(0, Int(seconds))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 2 * 86_400 { return "\(s / 3600) h" }
        return "\(s / 86_400) days"
    }
}
