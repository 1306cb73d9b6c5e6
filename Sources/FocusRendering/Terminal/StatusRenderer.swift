import FocusText
import FocusCore
import FoundationEssentials

/// What `focus status` knows at one moment, gathered with as few reads as the output needs.
package struct StatusFacts: Sendable, Equatable {
    package struct Session: Sendable, Equatable {
        package var task: String
        package var subtask: String?
        package var phase: Phase
        package var isPaused: Bool
        package var remainingSeconds: Int
        package var plannedSeconds: Int
        package var cycle: Int
        package var cycles: Int
        /// An open session's focus so far (it counts up; nil for a countdown).
        package var openElapsed: Int?

        package init(task: String, subtask: String?, phase: Phase, isPaused: Bool, remainingSeconds: Int, plannedSeconds: Int,
                     cycle: Int, cycles: Int, openElapsed: Int? = nil) {
            self.task = task
            self.subtask = subtask
            self.phase = phase
            self.isPaused = isPaused
            self.remainingSeconds = remainingSeconds
            self.plannedSeconds = plannedSeconds
            self.cycle = cycle
            self.cycles = cycles
            self.openElapsed = openElapsed
        }

        package var path: String { subtask.map { "\(task)/\($0)" } ?? task }
        package var elapsedSeconds: Int { openElapsed ?? max(0, plannedSeconds - remainingSeconds) }
        /// The clock a bar shows: the time left, or an open session's time so far.
        package var clock: String { DurationParser.clock(openElapsed ?? remainingSeconds) }
        /// `25:00 left`, or `12:03 so far` for an open session.
        package var clockText: String { clock + (openElapsed == nil ? " left" : " so far") }
        package var state: String { isPaused ? "paused" : "running" }
    }

    /// The next planned block: when (`14:00`, `Tue 14:00`) and what.
    package struct Next: Sendable, Equatable {
        package var when: String
        package var path: String
        /// `14:00 Thesis/Chapter 2`.
        package var text: String { "\(when) \(path)" }
    }

    /// The running session; nil when idle.
    package var session: Session?
    /// The next planned block; nil when none (or not asked for).
    package var next: Next?
    /// Focus today, the running work session included; nil when not asked for.
    package var todaySeconds: Int?

    package init() {}
}

/// The texts of `focus status`: a template, and what waybar and i3blocks read. Pure.
package enum StatusRenderer {
    /// `14:00 Thesis/Chapter 2` today, `Tue 14:00 …` within the week ahead, `1 Dec 14:00 …` later.
    package static func next(start: Date, path: String, now: Date, calendar: LocalCalendar) -> StatusFacts.Next {
        let day = calendar.day(of: start)
        let today = calendar.day(of: now)
        let time = calendar.timeOfDay(of: start).description
        let when: String
        if day.dayNumber <= today.dayNumber {
            when = time
        } else if day.dayNumber - today.dayNumber < 7 {
            when = "\(StatsDateText.weekdayShort(day)) \(time)"
        } else {
            when = "\(day.day) \(StatsDateText.monthShort(day)) \(time)"
        }
        return StatusFacts.Next(when: when, path: path)
    }

    /// `1h35m`, `25m`, `0m`.
    package static func compact(_ seconds: Int) -> String {
        DurationParser.format(seconds).replacing(" ", with: "")
    }

    /// The `--format` placeholders and their values.
    package static func values(_ facts: StatusFacts) -> [String: String] {
        var v: [String: String] = ["next": facts.next?.text ?? "", "today": facts.todaySeconds.map(compact) ?? ""]
        if let s = facts.session {
            v["state"] = s.state
            v["task"] = s.task
            v["subtask"] = s.subtask ?? ""
            v["path"] = s.path
            v["phase"] = s.phase.rawValue
            v["remaining"] = s.openElapsed == nil ? DurationParser.clock(s.remainingSeconds) : ""
            v["elapsed"] = DurationParser.clock(s.elapsedSeconds)
            v["cycle"] = String(s.cycle)
            v["cycles"] = String(s.cycles)
        } else {
            v["state"] = "idle"
            for key in ["task", "subtask", "path", "phase", "remaining", "elapsed", "cycle", "cycles"] { v[key] = "" }
        }
        return v
    }

    /// Replaces `{name}` placeholders; unknown ones are left as written. A placeholder with
    /// nothing to show (the path when idle, no next block) takes a space beside it along, and
    /// a separator left dangling at either end goes too: `{state} {path} {remaining} | {next}`
    /// reads `idle`, not `idle   |`.
    package static func fill(_ template: String, _ values: [String: String]) -> String {
        var out = ""
        var emptied = false
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let key = String(rest[rest.index(after: open)..<close])
            let value = values[key] ?? "{\(key)}"
            out += value
            rest = rest[rest.index(after: close)...]
            if value.isEmpty {
                emptied = true
                if (out.isEmpty || out.last == " "), rest.first == " " { rest = rest.dropFirst() }
            }
        }
        out += rest
        guard emptied else { return out }
        let dangling: Set<Character> = [" ", "|", "·", "•", "-", "–", "—", ":", "/", ",", ";"]
        var trimmed = Substring(out)
        while let last = trimmed.last, dangling.contains(last) { trimmed = trimmed.dropLast() }
        while let first = trimmed.first, dangling.contains(first) { trimmed = trimmed.dropFirst() }
        return String(trimmed)
    }

    /// The one line a bar shows: the session and its time left, or when idle the next block
    /// (else today's focus, else `idle`).
    package static func barText(_ facts: StatusFacts) -> String {
        if let s = facts.session {
            let what = s.phase == .work ? s.path : s.phase.label
            return "\(what) \(s.clock)" + (s.isPaused ? " paused" : "")
        }
        if let next = facts.next { return "next \(next.text)" }
        if let today = facts.todaySeconds, today > 0 { return "\(compact(today)) today" }
        return "idle"
    }

    /// The short form (i3blocks' short_text): the time left, or the next block's start.
    package static func shortText(_ facts: StatusFacts) -> String {
        if let s = facts.session { return s.clock + (s.isPaused ? " paused" : "") }
        if let next = facts.next { return "next \(next.when)" }
        if let today = facts.todaySeconds, today > 0 { return compact(today) }
        return "idle"
    }

    /// Every line of detail, for a tooltip.
    package static func detail(_ facts: StatusFacts) -> [String] {
        var lines: [String] = []
        if let s = facts.session {
            lines.append(s.path)
            var state = "\(s.phase.label) · \(s.clockText)"
            if s.isPaused { state += " · paused" }
            if s.openElapsed == nil { state += " · cycle \(s.cycle) of \(s.cycles)" }
            lines.append(state)
        } else {
            lines.append("idle")
        }
        if let today = facts.todaySeconds { lines.append("\(DurationParser.format(today)) focused today") }
        if let next = facts.next { lines.append("next: \(next.text)") }
        return lines
    }

    /// Whole percent of the phase gone by (0 when idle).
    package static func percentage(_ facts: StatusFacts) -> Int {
        guard let s = facts.session, s.plannedSeconds > 0 else { return 0 }
        return min(100, s.elapsedSeconds * 100 / s.plannedSeconds)
    }

    /// Waybar's custom module with `"return-type": "json"`: one object per run. Waybar reads
    /// text and tooltip as Pango markup, so `&`, `<` and `>` are escaped.
    package static func waybar(_ facts: StatusFacts) -> DisplayText {
        var classes: [JSON] = [.string(facts.session?.state ?? "idle")]
        if let s = facts.session { classes.append(.string(s.phase.rawValue)) }
        return DisplayText(JSON.object([
            ("text", .string(markup(barText(facts)))),
            ("tooltip", .string(markup(detail(facts).joined(separator: "\n")))),
            ("class", .array(classes)),
            ("percentage", .int(percentage(facts))),
        ]))
    }

    /// i3blocks' protocol: full_text, short_text and color, one line each.
    package static func i3blocks(_ facts: StatusFacts) -> DisplayText {
        "\(shown: barText(facts))\n\(shown: shortText(facts))\n\(color(facts))"
    }

    /// The same as one JSON object a line, for i3blocks' `interval=persist` with `format=json`
    /// (`focus status --follow --i3blocks`): in that mode each plain line would be a new full_text.
    package static func i3blocksJSON(_ facts: StatusFacts) -> DisplayText {
        DisplayText(JSON.object([
            ("full_text", .string(oneLine(barText(facts)))),
            ("short_text", .string(oneLine(shortText(facts)))),
            ("color", .string(color(facts))),
        ]))
    }

    /// Red at work, green on a break, amber when paused, grey when idle.
    package static func color(_ facts: StatusFacts) -> String {
        guard let s = facts.session else { return "#768390" }
        if s.isPaused { return "#C69026" }
        return s.phase == .work ? "#E5534B" : "#57AB5A"
    }

    private static func oneLine(_ s: String) -> String { DisplayText(shown: s).string }

    private static func markup(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }
}

extension StatusRenderer {
    /// `focus status --json`: `{"state": "idle"}`, or the running session: its phase began at
    /// `startedAt`, `pid` is its process. An open session has no end and no time left (README,
    /// "Open sessions"); a paused one has no end.
    package static func json(_ session: StatusFacts.Session?, startedAt: Date, pid: Int, now: Date) -> DisplayText {
        guard let s = session else { return DisplayText(JSON.object([("state", .string("idle"))])) }
        let countdown: [(String, JSON)] = s.openElapsed != nil ? [("open", .bool(true))] : [
            ("ends_at", s.isPaused ? .null : .string(Timestamp.utc(now.addingTimeInterval(Double(s.remainingSeconds))))),
            ("remaining_seconds", .int(s.remainingSeconds)),
        ]
        return DisplayText(JSON.object([
            ("state", .string(s.state)),
            ("task", .string(s.task)),
            ("subtask", .optional(s.subtask)),
            ("phase", .string(s.phase.rawValue)),
            ("started_at", .string(Timestamp.utc(startedAt))),
        ] + countdown + [
            ("cycle", .int(s.cycle)),
            ("cycles", .int(s.cycles)),
            ("paused", .bool(s.isPaused)),
            ("elapsed_seconds", .int(s.elapsedSeconds)),
            ("pid", .int(pid)),
        ]))
    }

    /// Plain `focus status`: `Thesis/Intro · work · 10:00 left`; idle, what another machine runs
    /// (`idle here · …`, README "Two machines") or `idle`.
    package static func line(_ facts: StatusFacts, elsewhere: String?) -> DisplayText {
        if let s = facts.session {
            let pausedText = s.isPaused ? " · paused" : ""
            return "\(s.path) · \(s.phase.label)\(pausedText) · \(s.clockText)"
        }
        if let elsewhere { return "idle here · \(elsewhere)" }
        return "idle"
    }

    /// `focus status --format`: the template filled. Idle, an empty line, unless `idleShown`
    /// (the template shows the next block or today's focus): then the template with the
    /// session's placeholders empty.
    package static func template(_ format: String, _ facts: StatusFacts, idleShown: Bool) -> DisplayText {
        guard facts.session == nil else { return DisplayText(fill(format, values(facts))) }
        return DisplayText((idleShown ? fill(format, values(facts)) : "").trimmingSpaces())
    }
}
