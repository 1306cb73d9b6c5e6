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
/// and otherwise sleeps until a change (at most a minute, a safety net for file systems that
/// do not report changes). Ends with exit 0 on SIGINT/SIGTERM or when its reader goes away.
struct StatusFollower {
    var command: StatusCommand
    var env: FocusEnvironment

    /// How long a database may stay unreadable before a warning says so.
    static let patienceSeconds = 3.0

    /// What the loop carries from one look to the next.
    private struct State {
        var database: AppDatabase?
        var databaseInode: Int64?
        var lastFingerprint: DatabaseFingerprint?
        var reading: StatusReading?
        var lastText: DisplayText?
        var warned: String?
        var failingSince: Date?
        var lastDataVersion: Int?
        var changedLastTime = false
        var first = true
    }

    private let schedule = StatusFollowSchedule()

    func run() throws {
        let path = env.databasePath
        let watcher = ChangeWatcher(directory: Paths.directory(of: path).nonEmpty ?? ".")
        var state = State()
        while true {
            watcher.rewatch()
            let now = env.now()
            let fingerprint = DatabaseFingerprint.of(path: path)
            let versionChanged = state.database.flatMap { try? $0.dataVersion() }.map { $0 != state.lastDataVersion } ?? false
            if schedule.isStale(state.reading.map { aging($0, now: now) }, filesChanged: fingerprint != state.lastFingerprint,
                                versionChanged: versionChanged, today: env.calendar.day(of: now), now: now) {
                try refresh(&state, fingerprint: fingerprint, now: now)
            }
            state.first = false
            if let reading = state.reading, !show(reading, &state, now: now) { return }
            let wake = schedule.wake(
                after: now, reading: state.reading.map { aging($0, now: now) },
                midnight: state.reading.map { env.calendar.startOfDay($0.day.adding(days: 1)) },
                watching: watcher.isWatching, failing: state.failingSince != nil, changedLastTime: state.changedLastTime)
            switch watcher.wait(seconds: wake.timeIntervalSince(env.now())) {
            case .stop: return
            case .outputClosed:
                FocusMain.endedByReader()
                return
            case .changed: state.changedLastTime = true
            case .timeout: state.changedLastTime = false
            }
        }
    }

    /// What of a reading ages with time.
    private func aging(_ reading: StatusReading, now: Date) -> StatusFollowSchedule.Reading {
        StatusFollowSchedule.Reading(day: reading.day, nextBlockEnd: reading.next?.end, nextTick: reading.nextTick(after: now))
    }

    /// Prints the reading's text when it changed; false when the reader went away (the normal
    /// end of a follower, README "Status bars").
    private func show(_ reading: StatusReading, _ state: inout State, now: Date) -> Bool {
        let text = command.text(reading, now: now, calendar: env.calendar)
        guard text != state.lastText else { return true }
        env.console.line(text)
        state.lastText = text
        if let failure = env.console.writeFailure, failure.stream == .output {
            if failure.isBrokenPipe { FocusMain.endedByReader() }
            return false
        }
        return true
    }

    /// Reads the database again. The first look fails like `focus status`; later ones are tried
    /// again shortly, and said once when they last (a database being created or replaced by
    /// another process is unreadable for a moment).
    private func refresh(_ state: inout State, fingerprint: DatabaseFingerprint?, now: Date) throws {
        do {
            try read(&state, fingerprint: fingerprint, now: now)
        } catch {
            if state.first { throw error }
            state.database = nil
            state.lastFingerprint = nil
            let since = state.failingSince ?? now
            state.failingSince = since
            if now.timeIntervalSince(since) >= StatusFollower.patienceSeconds, state.warned != error.description {
                env.console.note("warning: \(error.description) Trying again.")
                state.warned = error.description
            }
        }
    }

    private func read(_ state: inout State, fingerprint: DatabaseFingerprint?, now: Date) throws(FocusError) {
        let path = env.databasePath
        let inode = StatusFollower.inode(path)
        // A file another process is still creating is left alone for a moment (opening it would
        // race its creator); one that stays unfinished is opened after that, so that what is
        // wrong with it is said.
        let creating = state.database == nil && inode != nil && !AppDatabase.isInitialized(path: path)
        if creating, now.timeIntervalSince(state.failingSince ?? now) < StatusFollower.patienceSeconds {
            state.failingSince = state.failingSince ?? now
            state.database = nil
            state.databaseInode = nil
            state.reading = state.reading ?? StatusReading.empty(day: env.calendar.day(of: now))
            state.lastFingerprint = nil
            return
        }
        if let inode {
            // A database replaced (`focus restore`) or made since: open it afresh.
            if state.database == nil || state.databaseInode != inode {
                state.database = nil
                state.database = try env.openDatabase()
                state.databaseInode = inode
            }
            let database = state.database!
            state.lastDataVersion = try database.dataVersion()
            state.reading = try command.read(database, now: now, calendar: env.calendar)
        } else {
            // No database yet: idle, and nothing created (it appears with the first write).
            state.database = nil
            state.databaseInode = nil
            state.reading = StatusReading.empty(day: env.calendar.day(of: now))
        }
        state.lastFingerprint = fingerprint
        state.warned = nil
        state.failingSince = nil
    }

    static func inode(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_ino)
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
