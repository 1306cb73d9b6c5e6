import FocusText
import FoundationEssentials

/// Incoming items meet the rules `task add`, `log add` and `import` apply (README, "Two
/// machines"): a title is clamped to one a path can name (no control characters, at most
/// `Titles.maximumLength` characters, never an id such as `#3`), with a warning naming the
/// item; a session that ends before it starts, lasts more than 31 days, starts before 2000 or
/// ends in the future (beyond a day of clock difference between machines) is refused, with a
/// warning, and never applied.
package enum SyncAdmission {
    package enum Verdict: Sendable, Equatable {
        case admitted(SyncItem, warning: String?)
        case refused(String)
    }

    /// The earliest start a session may have: 2000-01-01T00:00:00Z.
    static let earliest = Date(timeIntervalSince1970: 946_684_800)
    /// How far ahead another machine's clock may be.
    static let skew: TimeInterval = 86_400

    package static func admit(_ item: SyncItem, now: Date) -> Verdict {
        switch item {
        case var .task(t):
            let (title, why) = clamp(t.title, kind: "task")
            t.title = title
            return .admitted(.task(t), warning: why.map { "task '\(title)': \($0)" })
        case var .subtask(s):
            let (title, why) = clamp(s.title, kind: "subtask")
            s.title = title
            return .admitted(.subtask(s), warning: why.map { "subtask '\(title)': \($0)" })
        case let .session(s):
            let name = "a session of '\(DisplayText(s.label).string)' at \(Timestamp.utc(s.start))"
            if s.end < s.start { return .refused("\(name) ends before it starts: not applied") }
            if s.end.timeIntervalSince(s.start) > Double(SessionRecord.maximumLengthSeconds) { return .refused("\(name) lasts more than 31 days: not applied") }
            if s.start < earliest { return .refused("\(name) starts before 2000: not applied") }
            if s.end > now.addingTimeInterval(skew) { return .refused("\(name) ends in the future (\(Timestamp.utc(s.end))): not applied") }
            if s.tags.count > SessionTags.maximumPerSession {
                var kept = s
                kept.tags = Array(s.tags.prefix(SessionTags.maximumPerSession))
                return .admitted(.session(kept), warning: "\(name) has \(s.tags.count) tags: the first \(SessionTags.maximumPerSession) are kept")
            }
            return .admitted(item, warning: nil)
        }
    }

    /// A title as a path can name it, and why it changed.
    static func clamp(_ raw: String, kind: String) -> (String, String?) {
        var reasons: [String] = []
        var title = raw
        if title.unicodeScalars.contains(where: DisplayText.isUnsafe) {
            title = String(String.UnicodeScalarView(title.unicodeScalars.map { DisplayText.isUnsafe($0) ? " " : $0 }))
            reasons.append("control characters replaced")
        }
        title = Titles.normalized(title.trimmingSpaces())
        if title.isEmpty { title = "Untitled" }
        if title.count > Titles.maximumLength {
            title = String(title.prefix(Titles.maximumLength)).trimmingSpaces()
            reasons.append("cut to \(Titles.maximumLength) characters")
        }
        if TaskCatalog.hashID(title) != nil {
            title = "\(kind) \(title)"
            reasons.append("a title that looks like an id is named '\(title)' here")
        }
        return (title, reasons.isEmpty ? nil : reasons.joined(separator: ", "))
    }
}
