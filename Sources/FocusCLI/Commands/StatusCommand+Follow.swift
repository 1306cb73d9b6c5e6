import FocusSystem
import FocusText
import FocusCore
import FocusServices
import FocusStorage
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `focus status --follow`: one line (or i3blocks' three) each time the output changes, and
/// nothing otherwise. It reads the database again only when its files changed (two stat calls
/// after an inotify wake, as `focus daemon` does every 5 s), the day ended or the next block
/// ended; while a session runs it wakes just after each second to redraw from that reading,
/// and otherwise sleeps until a change or the next minute label it shows (`StatusFollowPlan`
/// decides, this loop performs). Ends with exit 0 on SIGINT/SIGTERM or when its reader goes away.
struct StatusFollower {
    var command: StatusCommand
    var env: FocusEnvironment

    private typealias Plan = StatusFollowPlan<DatabaseFingerprint>

    /// What the loop holds besides the plan: the connection and the reading it shows.
    private struct Held {
        var database: AppDatabase?
        var reading: StatusReading?
    }

    func run() throws {
        let path = env.databasePath
        let signals = SignalPipe()
        let watcher = ChangeWatcher(directory: Paths.directory(of: path).nonEmpty ?? ".")
        signals.start([SIGINT, SIGTERM]) { _ in watcher.stop() }
        defer { signals.stop() }
        var plan = Plan()
        var held = Held()
        while true {
            watcher.rewatch()
            let now = env.now()
            let observed = observe(held, now: now)
            try perform(plan.look(observed), observed, &plan, &held)
            if let reading = held.reading {
                let text = command.text(reading, now: now, calendar: env.calendar)
                if plan.redraw(text), !print(text) { return }
            }
            let wake = plan.wake(after: now, reading: held.reading.map { aging($0, now: now) }, watching: watcher.isWatching)
            switch watcher.wait(seconds: wake.map { max(0, $0.timeIntervalSince(env.now())) }) {
            case .stop: return
            case .outputClosed:
                FocusMain.endedByReader()
                return
            case .changed: plan.woke(changed: true)
            case .timeout: plan.woke(changed: false)
            }
        }
    }

    private func observe(_ held: Held, now: Date) -> Plan.Observed {
        let path = env.databasePath
        let inode = StatusFollower.inode(path)
        return Plan.Observed(
            now: now, today: env.calendar.day(of: now), inode: inode,
            initialized: inode == nil || held.database != nil || AppDatabase.isInitialized(path: path),
            fingerprint: DatabaseFingerprint.of(path: path), dataVersion: held.database.flatMap { try? $0.dataVersion() },
            reading: held.reading.map { aging($0, now: now) })
    }

    /// Does the plan's step: reads, opens afresh, or shows the empty reading.
    private func perform(_ step: Plan.Step, _ o: Plan.Observed, _ plan: inout Plan, _ held: inout Held) throws {
        let empty = StatusReading.empty(day: o.today)
        switch step {
        case .keep: return
        case .empty:
            held.database = nil
            held.reading = empty
            plan.read(o, dataVersion: nil)
        case .waitForCreator:
            held.database = nil
            held.reading = held.reading ?? empty
        case .read, .reopen:
            do {
                if step == .reopen || held.database == nil {
                    held.database = nil
                    held.database = try env.openDatabase()
                }
                let database = held.database!
                let version = try database.dataVersion()
                held.reading = try command.read(database, now: o.now, calendar: env.calendar)
                plan.read(o, dataVersion: version)
            } catch {
                held.database = nil
                switch plan.failed(error.description, at: o.now) {
                case .exit: throw error
                case .retry: break
                case let .warn(sentence): env.console.note(DisplayText(sentence))
                }
            }
        }
    }

    /// What of a reading ages with time.
    private func aging(_ reading: StatusReading, now: Date) -> Plan.Reading {
        Plan.Reading(day: reading.day, midnight: env.calendar.startOfDay(reading.day.adding(days: 1)),
                     nextBlockEnd: reading.next?.end, nextTick: reading.nextTick(after: now),
                     minuteLabel: reading.next != nil || !reading.elsewhere.isEmpty)
    }

    /// Prints a line; false when the reader went away (the normal end of a follower, README
    /// "Status bars").
    private func print(_ text: DisplayText) -> Bool {
        env.console.line(text)
        if let failure = env.console.writeFailure, failure.stream == .output {
            if failure.isBrokenPipe { FocusMain.endedByReader() }
            return false
        }
        return true
    }

    /// The database file's inode, measured as the daemon measures it (FocusSystem's
    /// `FileIdentity.of`): a new file at the same path is a new database.
    static func inode(_ path: String) -> Int64? {
        FileIdentity.of(path: path).map { Int64(bitPattern: $0.inode) }
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
