import FocusCalendar
import FocusTime
import FoundationEssentials

/// A session running on one machine, as that machine last wrote it into the sync calendar
/// (README, "Two machines"): the other machines' `focus status` shows it.
package struct RunningCheckpoint: Sendable, Equatable {
    /// The machine's name in the calendar (random, made at setup).
    package var machineID: String
    /// Its host name, as people know it.
    package var machine: String
    /// "Thesis/Chapter 2".
    package var label: String
    /// `work`, `short_break` or `long_break`.
    package var phase: String
    package var paused: Bool
    /// Time left when the checkpoint was written.
    package var remainingSeconds: Int
    /// When the phase ends, while it runs.
    package var endsAt: Date?
    package var checkpointAt: Date

    package init(machineID: String, machine: String, label: String, phase: String, paused: Bool, remainingSeconds: Int,
                 endsAt: Date?, checkpointAt: Date) {
        self.machineID = machineID
        self.machine = machine
        self.label = label
        self.phase = phase
        self.paused = paused
        self.remainingSeconds = remainingSeconds
        self.endsAt = endsAt
        self.checkpointAt = checkpointAt
    }

    /// The UID of a machine's checkpoint event.
    package static func uid(machineID: String) -> String { "focus-running-\(machineID)@focus" }

    /// Time left at `now`; nil when the session has surely ended (its phase's end passed more
    /// than a minute ago, or a paused checkpoint older than a day) or when the checkpoint was
    /// written more than a minute in the future (the other machine's clock is ahead: nothing it
    /// says about time can be trusted). Never more than the checkpoint said was left.
    package func remaining(at now: Date) -> Int? {
        if checkpointAt.timeIntervalSince(now) > 60 { return nil }
        if paused { return now.timeIntervalSince(checkpointAt) < 86_400 ? remainingSeconds : nil }
        guard let endsAt else { return nil }
        let left = endsAt.timeIntervalSince(now)
        return left > -60 ? min(remainingSeconds, max(0, Int(left.rounded(.up)))) : nil
    }

    /// "running on laptop: Thesis/Chapter 2 (work), 12:40 left".
    package func line(at now: Date) -> String? {
        guard let left = remaining(at: now) else { return nil }
        let clock = "\(left / 60):" + Digits.two(left % 60)
        let phaseName = phase.replacing("_", with: " ")
        return "\(paused ? "paused" : "running") on \(machine): \(label) (\(phaseName)), \(clock) left"
    }
}

extension RunningCheckpoint {
    /// The checkpoint as a transparent event in the sync calendar: `X-FOCUS-RUNNING` names the
    /// machine; focus never reads it as busy time or as a session.
    package func encode(stamp: Date) -> String {
        var out: [UInt8] = []
        func line(_ text: String) { ICSWriter.appendLine(text, to: &out) }
        line("BEGIN:VCALENDAR")
        line("VERSION:2.0")
        line("PRODID:-//focus//sync//EN")
        line("BEGIN:VEVENT")
        line("UID:" + RunningCheckpoint.uid(machineID: machineID))
        line("DTSTAMP:" + SyncCodec.utc(stamp))
        line("DTSTART:" + SyncCodec.utc(checkpointAt))
        line("DTEND:" + SyncCodec.utc(endsAt ?? checkpointAt.addingTimeInterval(Double(remainingSeconds))))
        line("SUMMARY:" + ICSWriter.escapeText("\(label) (running on \(machine))"))
        line("TRANSP:TRANSPARENT")
        line("X-FOCUS-RUNNING:" + ICSWriter.escapeText(machine))
        line("X-FOCUS-MACHINE:" + machineID)
        line("X-FOCUS-LABEL:" + ICSWriter.escapeText(label))
        line("X-FOCUS-PHASE:" + phase)
        line("X-FOCUS-STATE:" + (paused ? "paused" : "running"))
        line("X-FOCUS-REMAINING:\(remainingSeconds)")
        if let endsAt { line("X-FOCUS-ENDS:" + SyncCodec.utc(endsAt)) }
        line("END:VEVENT")
        line("END:VCALENDAR")
        return String(decoding: out, as: UTF8.self)
    }

    /// A digest of what the checkpoint says (not when it was written): a new one is written
    /// only when this changes.
    package var digest: String {
        var hash = FNV1a()
        hash.add("\(machine)|\(label)|\(phase)|\(paused)|\(paused ? remainingSeconds : 0)|\(endsAt.map { Int64($0.timeIntervalSince1970) } ?? 0)".utf8)
        return String(hash.value, radix: 16)
    }

    /// The checkpoint a calendar object resource holds, if it is one.
    package static func decode(_ data: Data) -> RunningCheckpoint? {
        guard let props = ICSText.firstComponent(ICSText.lines(data), named: ["VEVENT"]), let machine = props.text("X-FOCUS-RUNNING"),
              let id = props.value("X-FOCUS-MACHINE"), !id.isEmpty else { return nil }
        let utc = LocalCalendar(zone: .utc)
        let checkpointAt = SyncCodec.instant(props.first("DTSTART"), zone: utc) ?? Date(timeIntervalSince1970: 0)
        let remaining = props.value("X-FOCUS-REMAINING").flatMap { Int($0) }.map { min(max(0, $0), 36_525 * 86_400) } ?? 0
        return RunningCheckpoint(machineID: id, machine: String(machine.prefix(200)), label: String((props.text("X-FOCUS-LABEL") ?? "").prefix(1000)),
                                 phase: props.value("X-FOCUS-PHASE") ?? "work", paused: props.value("X-FOCUS-STATE") == "paused",
                                 remainingSeconds: remaining, endsAt: SyncCodec.instant(props.first("X-FOCUS-ENDS"), zone: utc),
                                 checkpointAt: checkpointAt)
    }
}
