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

    /// A daily cap as an RFC 5545 DURATION (section 3.3.6): `PT2H`, `PT1H30M`, `PT1H0M30S`.
    static func duration(seconds: Int) -> String {
        let h = seconds / 3600, m = seconds % 3600 / 60, s = seconds % 60
        var out = "PT"
        if h > 0 { out += "\(h)H" }
        // dur-hour is followed by dur-minute before any dur-second.
        if m > 0 || (h > 0 && s > 0) { out += "\(m)M" }
        if s > 0 || seconds == 0 { out += "\(s)S" }
        return out
    }

    /// `X-FOCUS-MAX-PER-DAY`: a DURATION (`PT2H`, `P1D`; RFC 5545 section 3.3.6) or whole
    /// seconds, from 1m to 24h as `--max-per-day` takes it; anything else is no cap.
    static func dailyCap(_ value: String?) -> Int? {
        guard let text = value?.trimmingSpaces().uppercased(), !text.isEmpty else { return nil }
        let seconds: Int?
        if text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            seconds = text.utf8.count <= 6 ? Int(text) : nil
        } else {
            seconds = durationSeconds(text)
        }
        guard let seconds, (60...86_400).contains(seconds) else { return nil }
        return seconds
    }

    /// A positive DURATION's seconds: `P` then weeks alone, or days and/or a `T` part of hours,
    /// minutes and seconds, each unit once and in that order (each at most six digits). Nil for
    /// a negative one or anything else.
    private static func durationSeconds(_ text: String) -> Int? {
        var rest = Substring(text)
        if rest.hasPrefix("+") { rest = rest.dropFirst() }
        guard rest.hasPrefix("P") else { return nil }
        let order: [Character] = ["W", "D", "H", "M", "S"]
        let size = [7 * 86_400, 86_400, 3600, 60, 1]
        var total = 0, inTime = false
        var ranks: [Int] = []
        var digits = ""
        for c in rest.dropFirst() {
            if c == "T" {
                guard !inTime, digits.isEmpty else { return nil }
                inTime = true
            } else if c.isASCII, c.isNumber {
                digits.append(c)
                guard digits.count <= 6 else { return nil }
            } else {
                guard let n = Int(digits), let rank = order.firstIndex(of: c), inTime == (rank >= 2),
                      ranks.last.map({ $0 < rank }) ?? true else { return nil }
                ranks.append(rank)
                total += n * size[rank]
                digits = ""
            }
        }
        guard !ranks.isEmpty, digits.isEmpty, !inTime || ranks.last.map({ $0 >= 2 }) == true,
              !ranks.contains(0) || (ranks.count == 1 && !inTime) else { return nil }
        return total
    }
}
