import FocusCore
import Foundation
import Testing

/// How many writes a sync keeps in flight (`SendWindow`, `SendSchedule`), driven by a simulated
/// server on a simulated clock: no network, no real time.

/// A server with `workers` requests answered at once, each taking `latency` seconds; a request
/// arriving while every worker is busy waits its turn (as Xandikos waits on its repository).
struct SimulatedServer: Sendable {
    var latency: Double
    var workers: Int
    /// Completions (by their number, from 1) answered 503 with this Retry-After.
    var throttled: [Int: Double?] = [:]
    /// Completions (by their number, from 1) that fail (a connection reset).
    var failing: Set<Int> = []
    /// A request arriving while this many are being served is answered 503 at once, with a
    /// Retry-After of `pushBackWait` (a server with a cap on concurrent requests).
    var pushBackAbove: Int?
    var pushBackWait: Double = 1
}

/// What a simulated send showed.
private struct Run {
    var schedule: SendSchedule
    /// The writes in flight as each one started (itself included), in order.
    var inFlightAtStart: [Int] = []
    /// The sends of each item that were answered.
    var answered: [Int: Int] = [:]
    /// Starts between a push-back and the end of its Retry-After.
    var startsDuringHold = 0
    /// A write started while one of an earlier order was in flight.
    var orderBroken = false
    var gaveUp = false
    var widths: [Int] = []
    /// Requests the server answered 503.
    var pushBacks = 0
}

private func simulate(_ server: SimulatedServer, orders: [Int], limit: Int = SendWindow.widest) -> Run {
    var run = Run(schedule: SendSchedule(orders: orders, limit: limit))
    var freeAt = Array(repeating: 0.0, count: server.workers)
    var inFlight: [(index: Int, end: Double, refused: Bool)] = []
    var time = 0.0
    var completions = 0
    var holdEnds = 0.0
    var steps = 0
    while !run.schedule.finished, steps < 100_000 {
        steps += 1
        while let index = run.schedule.next(at: time) {
            if inFlight.contains(where: { orders[$0.index] < orders[index] }) { run.orderBroken = true }
            if time < holdEnds { run.startsDuringHold += 1 }
            if let cap = server.pushBackAbove, inFlight.count(where: { !$0.refused }) >= cap {
                inFlight.append((index, time + server.latency, true))
                run.inFlightAtStart.append(inFlight.count)
                continue
            }
            let worker = freeAt.indices.min { freeAt[$0] < freeAt[$1] }!
            let end = max(time, freeAt[worker]) + server.latency
            freeAt[worker] = end
            inFlight.append((index, end, false))
            run.inFlightAtStart.append(inFlight.count)
        }
        let soonest = inFlight.indices.min { inFlight[$0].end < inFlight[$1].end }
        if let wait = run.schedule.wait(at: time), soonest.map({ time + wait < inFlight[$0].end }) ?? true {
            time += wait
            continue
        }
        guard let next = soonest else { break }
        let (index, end, refused) = inFlight.remove(at: next)
        time = end
        completions += 1
        let outcome: SendWindow.Outcome
        if refused {
            outcome = .throttled(retryAfter: server.pushBackWait)
            holdEnds = time + server.pushBackWait
            run.pushBacks += 1
        } else if let retryAfter = server.throttled[completions] {
            outcome = .throttled(retryAfter: retryAfter)
            holdEnds = time + (retryAfter ?? 0)
        } else {
            outcome = server.failing.contains(completions) ? .failed : .answered
        }
        switch run.schedule.completed(index, outcome, at: time) {
        case .record: run.answered[index, default: 0] += 1
        case .again: break
        case .giveUp: run.gaveUp = true
        }
        run.widths.append(run.schedule.window.width)
    }
    return run
}

private func sessions(_ n: Int) -> [Int] { Array(repeating: 2, count: n) }

@Test(arguments: [
    // A server that answers each request after 100 ms, as many at once as come (Nextcloud).
    (SimulatedServer(latency: 0.1, workers: 64), 8),
    // One that takes two at once: four are no faster than two.
    (SimulatedServer(latency: 0.1, workers: 2), 2),
    // One that takes one at a time (Xandikos): two are no faster than one.
    (SimulatedServer(latency: 0.016, workers: 1), 1),
])
func theWindowSettlesWhereTheServerStopsGettingFaster(server: SimulatedServer, width: Int) {
    let run = simulate(server, orders: sessions(300))
    #expect(run.schedule.window.width == width)
    #expect(run.schedule.window.settled)
    #expect(run.inFlightAtStart.max()! <= 8)
    #expect(run.answered.count == 300 && run.answered.values.allSatisfy { $0 == 1 })
}

@Test func theWindowStartsAtOneRequestAndNeverExceedsEight() {
    let run = simulate(SimulatedServer(latency: 0.1, workers: 1000), orders: sessions(500))
    #expect(run.inFlightAtStart.first == 1)
    #expect(run.inFlightAtStart.max() == SendWindow.widest)
}

@Test(arguments: [1, 2, 4])
func aLimitKeepsTheWindowAtMostThatWide(limit: Int) {
    let run = simulate(SimulatedServer(latency: 0.1, workers: 64), orders: sessions(200), limit: limit)
    #expect(run.inFlightAtStart.max() == limit)
    #expect(run.answered.count == 200)
}

@Test func aPushBackHalvesTheWindowAndHoldsEveryWriteForItsRetryAfter() {
    var server = SimulatedServer(latency: 0.1, workers: 64)
    server.throttled[150] = 2
    let run = simulate(server, orders: sessions(300))
    #expect(run.widths[148] == 8)
    #expect(run.widths[149] == 4)
    #expect(run.startsDuringHold == 0)
    // The write pushed back is sent again, and every write arrives once.
    #expect(run.answered.count == 300 && run.answered.values.allSatisfy { $0 == 1 })
    #expect(!run.gaveUp)
}

@Test func aPushBackWithoutRetryAfterStillNarrows() {
    var server = SimulatedServer(latency: 0.1, workers: 64)
    server.throttled[150] = .some(nil)
    let run = simulate(server, orders: sessions(300))
    #expect(run.widths[149] == 4)
    #expect(run.answered.count == 300)
}

/// A server that pushes back once (here while the window is still at two, and again where it
/// is at eight) and then takes eight at once: the window widens again, as at the start, once
/// the server has answered a stretch without pushing back, and ends at eight.
@Test(arguments: [3, 150])
func afterOnePushBackTheWindowWidensAgainWhileTheServerKeepsUp(completion: Int) {
    var server = SimulatedServer(latency: 0.1, workers: 64)
    server.throttled[completion] = 1
    let run = simulate(server, orders: sessions(400))
    #expect(run.widths[completion - 1] < run.widths[max(0, completion - 2)] || run.widths[completion - 1] == 1)
    #expect(run.schedule.window.width == SendWindow.widest)
    #expect(run.inFlightAtStart.suffix(100).allSatisfy { $0 > 4 }, "at eight again long before the end")
    #expect(run.answered.count == 400 && run.answered.values.allSatisfy { $0 == 1 })
    #expect(run.startsDuringHold == 0 && !run.gaveUp)
}

/// A server that pushes back whenever more than two are in flight: after the second push-back
/// at a width the window stays below it; it never goes wider than where it was first pushed
/// back, pushes into the server no more than twice, and every write still arrives once.
@Test(arguments: [2, 3])
func aServerThatKeepsPushingBackKeepsTheWindowBelowItsLimit(cap: Int) {
    var server = SimulatedServer(latency: 0.1, workers: 64)
    server.pushBackAbove = cap
    let run = simulate(server, orders: sessions(600))
    let window = run.schedule.window
    #expect(window.width == 2, "two at once: the widest the server took without pushing back")
    #expect(window.ceiling <= cap)
    #expect(run.inFlightAtStart.max()! <= 4)
    // Two rounds of push-back (each at most the writes sent at the wider window), no more.
    #expect(run.pushBacks <= 4, "\(run.pushBacks) push-backs")
    #expect(run.inFlightAtStart.suffix(300).allSatisfy { $0 <= cap })
    #expect(run.answered.count == 600 && run.answered.values.allSatisfy { $0 == 1 })
    #expect(run.startsDuringHold == 0 && !run.gaveUp)
}

@Test(arguments: [(SendWindow.longestWait + 1, 1), (5.0, SendWindow.attempts)])
func aPushBackTooLongOrTooOftenIsFinal(retryAfter: Double, attempt: Int) {
    var window = SendWindow()
    #expect(window.observe(.throttled(retryAfter: retryAfter), attempt: attempt, inFlight: 1, at: 0) == .giveUp)
}

@Test func aFailureAmongOthersInFlightGoesBackToOneAtATimeAndTriesAgain() {
    var server = SimulatedServer(latency: 0.1, workers: 64)
    server.failing = [100]
    let run = simulate(server, orders: sessions(200))
    #expect(run.schedule.window.width == 1)
    #expect(run.inFlightAtStart.suffix(50).allSatisfy { $0 == 1 })
    #expect(run.answered.count == 200 && !run.gaveUp)
}

@Test func aFailureOfAWriteSentAloneIsFinalAndStartsNothingMore() {
    var server = SimulatedServer(latency: 0.016, workers: 1)
    server.failing = [5]
    let run = simulate(server, orders: sessions(50))
    #expect(run.gaveUp)
    #expect(run.answered.count == 4)
    #expect(run.schedule.finished)
}

@Test func writesOfALaterOrderWaitForTheEarlierOnesToEnd() {
    // Tasks, subtasks, sessions, deletions: a subtask is never there without its task.
    let orders = Array(repeating: 0, count: 30) + Array(repeating: 1, count: 60) + sessions(300) + Array(repeating: 4, count: 40)
    let run = simulate(SimulatedServer(latency: 0.1, workers: 64), orders: orders)
    #expect(!run.orderBroken)
    #expect(run.inFlightAtStart.max()! > 1)
    #expect(run.answered.count == orders.count)
}

@Test(arguments: [
    ("120", 120.0),
    ("0", 0.0),
    (" 7 ", 7.0),
    ("Sun, 06 Nov 1994 08:49:37 GMT", 30.0),
    ("Sun, 06 Nov 1994 08:48:00 GMT", 0.0),
])
func retryAfterIsReadAsSecondsOrAnHTTPDate(value: String, seconds: Double) {
    let now = Date(timeIntervalSince1970: 784_111_777 - 30)  // 1994-11-06T08:49:07Z
    #expect(SendWindow.retryAfter(value, now: now) == seconds)
}

@Test(arguments: ["soon", "-5", "", "Sun, 06 Nov 1994 25:49:37 GMT", "1.5"])
func retryAfterThatIsNeitherIsIgnored(value: String) {
    #expect(SendWindow.retryAfter(value, now: Date(timeIntervalSince1970: 0)) == nil)
}
