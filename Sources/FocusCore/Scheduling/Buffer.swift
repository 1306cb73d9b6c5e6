import FoundationEssentials

/// Config `buffer` (README, "Planning"): free time kept before and after every timed calendar
/// event, so no work block starts the minute a meeting ends. focus's own blocks and the
/// running session keep their break instead; all-day events get none (they fill their days).
package enum Buffer {
    /// Each interval widened by `seconds` on both sides (unchanged when `seconds` ≤ 0).
    /// Zero-length events are markers, not busy time, and stay so.
    package static func widen(_ events: [DateInterval], by seconds: Int) -> [DateInterval] {
        guard seconds > 0 else { return events }
        let pad = Double(seconds)
        return events.map { event in
            guard event.duration > 0 else { return event }
            return DateInterval(start: event.start.addingTimeInterval(-pad), end: event.end.addingTimeInterval(pad))
        }
    }
}
