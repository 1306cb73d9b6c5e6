import FocusText
import FocusTime
import FoundationEssentials

/// How many writes a sync keeps in flight at once (README, "Your real calendar": several where
/// the server keeps up, one at a time where it does not). A pure value in the shape of
/// `CountdownEngine`: the send loop tells it each completion (how it ended, when, on the loop's
/// own clock in seconds) and asks it whether another write may start; the loop only performs.
///
/// It starts at one, measures items per second over a sample of completions, and doubles the
/// width (2, 4, 8) while each doubling raises the rate by `margin`; the first doubling that does
/// not is undone and the width stays (a server that takes one request at a time, as Xandikos
/// does, goes back to one). A server that pushes back (503 or 429, RFC 9110 section 15.6.4,
/// RFC 6585 section 4) halves the width and holds every new write for its `Retry-After`; once
/// it has answered `calmStretch` writes in a row without pushing back, the window widens again
/// by the same rule, but never again to a width the server pushed back at twice (nor wider).
/// Writes already in flight when it narrowed were sent at the wider window: their push-backs
/// do not narrow it again. A failure while others were in flight goes back to one and tries
/// the item again, one at a time, for good; a failure of a write sent alone is final, as for
/// the one-at-a-time sync.
package struct SendWindow: Sendable, Equatable {
    /// Never more in flight than this.
    package static let widest = 8
    /// A doubling is kept only when items per second rise by this factor.
    package static let margin = 1.25
    /// A `Retry-After` longer than this is not waited out: the sync fails and says to try later.
    package static let longestWait = 60.0
    /// Times one item is sent before a push-back on it is final.
    package static let attempts = 4

    /// How it ended, as the send loop saw it.
    package enum Outcome: Sendable, Equatable {
        /// An answer that decides the item (written, 412, 404: the caller records it).
        case answered
        /// 503 or 429, with the wait `Retry-After` asked for in seconds (nil: none given).
        case throttled(retryAfter: Double?)
        /// No usable answer (the connection failed, a 5xx, a timeout).
        case failed
    }

    /// What the loop does with the item.
    package enum Verdict: Sendable, Equatable {
        /// Its answer stands: record it.
        case record
        /// Send it again (not before `holdUntil`).
        case again
        /// The failure is final: start nothing more, let those in flight finish, report it.
        case giveUp
    }

    /// Writes that may be in flight now.
    package private(set) var width = 1
    /// Widening is over (until the server has been calm after a push-back): a wider window did
    /// not pay, the widest was reached, or the server pushed back.
    package private(set) var settled = false
    /// The widest the window may become: `limit`, or narrower than a width the server pushed
    /// back at twice.
    package private(set) var ceiling: Int
    /// No write starts before this (seconds on the loop's clock): a `Retry-After`.
    package private(set) var holdUntil = 0.0
    /// Items per second at the width before this one.
    private var previousRate: Double?
    /// Completions still to pass before measuring (those sent at the width before, or the
    /// first, which pays for the connection).
    private var skip = 1
    private var measured = 0
    private var since = 0.0
    /// Widening resumes after `calmStretch` answers in a row (set by a push-back).
    private var awaitingCalm = false
    private var calm = 0
    /// The narrowest width the server pushed back at so far.
    private var narrowestPushBack: Int?
    /// Completions still to come of the writes in flight when the window last narrowed.
    private var sentWider = 0

    /// The most in flight for this send: `widest`, or fewer (1: one at a time, for a benchmark
    /// of the difference).
    package let limit: Int

    package init(limit: Int = SendWindow.widest) {
        self.limit = max(1, min(limit, Self.widest))
        ceiling = self.limit
    }

    /// Completions each width is measured over.
    var sample: Int { max(8, 2 * width) }

    /// Answers in a row without push-back after which the window widens again.
    var calmStretch: Int { 2 * sample }

    /// Whether a write may start now, with `inFlight` already under way.
    package func mayStart(inFlight: Int, at time: Double) -> Bool {
        inFlight < width && time >= holdUntil
    }

    /// One completion: `attempt` is how many times this item has been sent (1 the first time),
    /// `inFlight` how many were under way when it ended, itself included.
    package mutating func observe(_ outcome: Outcome, attempt: Int, inFlight: Int, at time: Double) -> Verdict {
        switch outcome {
        case .answered:
            if sentWider > 0 { sentWider -= 1 }
            measure(at: time)
            calmDown(at: time)
            return .record
        case let .throttled(retryAfter):
            let wait = max(0, retryAfter ?? Double(attempt))
            guard attempt < Self.attempts, wait <= Self.longestWait else { return .giveUp }
            pushedBack(inFlight: inFlight)
            holdUntil = max(holdUntil, time + wait)
            return .again
        case .failed:
            guard inFlight > 1, attempt == 1 else { return .giveUp }
            awaitingCalm = false
            narrow(to: 1, inFlight: inFlight)
            return .again
        }
    }

    /// A 503 or 429: halve the window (once for the writes sent at the same width), and widen
    /// again only after a calm stretch; a second push-back at this width or a narrower one
    /// keeps the window below it from then on.
    private mutating func pushedBack(inFlight: Int) {
        calm = 0
        if sentWider > 0 {
            sentWider -= 1
            return
        }
        if let narrowest = narrowestPushBack, width >= narrowest { ceiling = min(ceiling, max(1, width / 2)) }
        narrowestPushBack = min(narrowestPushBack ?? width, width)
        awaitingCalm = true
        narrow(to: max(1, width / 2), inFlight: inFlight)
    }

    private mutating func narrow(to narrower: Int, inFlight: Int) {
        width = min(width, narrower)
        settled = true
        // What is still in flight was sent at the wider window.
        skip = max(1, inFlight - 1)
        sentWider = inFlight - 1
        measured = 0
    }

    /// One more answer without push-back; after `calmStretch` of them (and none left of those
    /// sent wider), widening starts again from this width, measured afresh.
    private mutating func calmDown(at time: Double) {
        guard awaitingCalm else { return }
        calm += 1
        guard calm >= calmStretch, sentWider == 0 else { return }
        awaitingCalm = false
        guard width * 2 <= ceiling else { return }
        settled = false
        previousRate = nil
        skip = 0
        measured = 0
        since = time
    }

    private mutating func measure(at time: Double) {
        if skip > 0 {
            skip -= 1
            if skip == 0 { since = time }
            return
        }
        measured += 1
        guard measured >= sample else { return }
        let rate = Double(measured) / max(time - since, 1e-6)
        measured = 0
        since = time
        guard !settled else { return }
        if let previous = previousRate, rate < previous * Self.margin {
            width = max(1, width / 2)
            settled = true
            skip = width
            return
        }
        guard width * 2 <= ceiling else {
            settled = true
            return
        }
        previousRate = rate
        // Those in flight now were sent at the narrower width.
        skip = width
        width *= 2
    }

    /// The seconds a `Retry-After` value asks to wait (RFC 9110 section 10.2.3): delay-seconds,
    /// or an HTTP-date (the IMF-fixdate form, section 5.6.7) counted from `now`. Nil for
    /// anything else, a date outside the years 1–9999 and a day its month does not have
    /// included: a server's header is never arithmetic that can overflow.
    package static func retryAfter(_ value: String?, now: Date) -> Double? {
        guard let text = value?.trimmingSpaces(), !text.isEmpty else { return nil }
        if text.allSatisfy(\.isASCII), let seconds = Int(text), seconds >= 0 { return Double(seconds) }
        // Sun, 06 Nov 1994 08:49:37 GMT
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])),
              let year = Int(parts[3]) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...9999).contains(year), (1...CivilCalendar.daysInMonth(year: year, month: month + 1)).contains(day),
              (0..<24).contains(clock[0]), (0..<60).contains(clock[1]), (0...60).contains(clock[2]) else { return nil }
        let wall = CivilCalendar.wall(year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2])
        return max(0, Double(wall) - now.timeIntervalSince1970)
    }
}
