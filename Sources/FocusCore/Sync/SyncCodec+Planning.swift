import FocusCalendar
import FocusText
import FoundationEssentials

/// A subtask's priority and daily cap in its to-do (README, "Two machines").
extension SyncCodec {
    /// A `PRIORITY` value as focus's priority (RFC 5545 section 3.8.1.9: 1 is the highest, 9 the
    /// lowest, 0 undefined; in the three-level scheme it describes, 1–4 are high, 5 medium, 6–9
    /// low): 1 high, 0 normal, -1 low. Anything that is no such number is normal.
    static func priority(_ value: String?) -> Int {
        guard let value, let n = Int(value.trimmingSpaces()) else { return 0 }
        switch n {
        case 1...4: return 1
        case 6...9: return -1
        default: return 0
        }
    }

    /// The `PRIORITY` line focus writes: high 1, low 9, normal none (RFC 5545 section 3.8.1.9).
    static func priorityLine(_ priority: Int) -> String? {
        priority > 0 ? "PRIORITY:1" : priority < 0 ? "PRIORITY:9" : nil
    }

    /// The properties of a subtask's to-do that stay as another app wrote them because they mean
    /// what the subtask holds (`PRIORITY:2` for high, `PRIORITY:0` for normal,
    /// `X-FOCUS-MAX-PER-DAY:PT60M` for 1h): left out of what focus writes, and kept.
    static func keptAsWritten(_ item: inout SyncItem, _ original: [ContentLine]) -> Set<String> {
        guard case var .subtask(s) = item else { return [] }
        var keeping: Set<String> = []
        if let line = original.first(where: { $0.name == "PRIORITY" }), priority(line.value) == s.priority {
            keeping.insert("PRIORITY")
            s.priority = 0
        }
        if let cap = s.maxPerDaySeconds, let line = original.first(where: { $0.name == "X-FOCUS-MAX-PER-DAY" }), dailyCap(line.value) == cap {
            keeping.insert("X-FOCUS-MAX-PER-DAY")
            s.maxPerDaySeconds = nil
        }
        item = .subtask(s)
        return keeping
    }

    /// `X-FOCUS-MAX-PER-DAY`: a DURATION as FocusCalendar reads one (`PT2H`, `P1D`; RFC 5545
    /// section 3.3.6) or whole seconds, from 1m to 24h as `--max-per-day` takes it; anything
    /// else is no cap.
    static func dailyCap(_ value: String?) -> Int? {
        guard let text = value?.trimmingSpaces(), !text.isEmpty, text.utf8.count <= 40 else { return nil }
        let seconds: Int?
        if text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            seconds = text.utf8.count <= 6 ? Int(text) : nil
        } else if let d = ICSDuration(parsing: text), !d.negative {
            seconds = d.nominalDays * 86_400 + d.exactSeconds
        } else {
            seconds = nil
        }
        guard let seconds, (60...86_400).contains(seconds) else { return nil }
        return seconds
    }
}
