import Foundation

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
    /// than a minute ago, or a paused checkpoint older than a day).
    package func remaining(at now: Date) -> Int? {
        if paused { return now.timeIntervalSince(checkpointAt) < 86_400 ? remainingSeconds : nil }
        guard let endsAt else { return nil }
        let left = endsAt.timeIntervalSince(now)
        return left > -60 ? max(0, Int(left.rounded(.up))) : nil
    }

    /// "running on laptop: Thesis/Chapter 2 (work), 12:40 left".
    package func line(at now: Date) -> String? {
        guard let left = remaining(at: now) else { return nil }
        let clock = String(format: "%d:%02d", left / 60, left % 60)
        let phaseName = phase.replacingOccurrences(of: "_", with: " ")
        return "\(paused ? "paused" : "running") on \(machine): \(label) (\(phaseName)), \(clock) left"
    }
}
