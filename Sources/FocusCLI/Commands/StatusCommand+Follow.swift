import FocusText
import FocusCore
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

    /// The longest sleep without a look at the files (when inotify misses a change).
    static let idleCheckSeconds = 60.0
    /// How often to look when the directory cannot be watched (it does not exist yet).
    static let unwatchedCheckSeconds = 1.0
    /// How long a database may stay unreadable before a warning says so.
    static let patienceSeconds = 3.0
    /// The second look after a change.
    static let settleSeconds = 0.05

    func run() throws {
        let path = env.databasePath
        let watcher = ChangeWatcher(directory: Paths.directory(of: path).nonEmpty ?? ".")
        var database: AppDatabase?
        var databaseInode: Int64?
        var lastFingerprint: DatabaseFingerprint?
        var reading: StatusReading?
        var lastText: String?
        var warned: String?
        var failingSince: Date?
        var lastDataVersion: Int?
        var changedLastTime = false
        var first = true

        while true {
            watcher.rewatch()
            let now = env.now()
            let fingerprint = DatabaseFingerprint.of(path: path)
            let inode = StatusFollower.inode(path)
            var stale = reading == nil || fingerprint != lastFingerprint
            // Two commits within one tick of the file system's clock can leave the same size
            // and time; SQLite's own counter cannot miss one.
            if let database, let version = try? database.dataVersion(), version != lastDataVersion { stale = true }
            if let r = reading {
                if r.day != env.calendar.day(of: now) { stale = true }
                if let block = r.next, block.end <= now { stale = true }
            }
            if stale {
                do {
                    // A file another process is still creating is left alone for a moment
                    // (opening it would race its creator); one that stays unfinished is opened
                    // after that, so that what is wrong with it is said.
                    let creating = database == nil && inode != nil && !AppDatabase.isInitialized(path: path)
                    if creating, now.timeIntervalSince(failingSince ?? now) < StatusFollower.patienceSeconds {
                        failingSince = failingSince ?? now
                        database = nil
                        databaseInode = nil
                        reading = reading ?? StatusReading.empty(day: env.calendar.day(of: now))
                        lastFingerprint = nil
                    } else if let inode {
                        // A database replaced (`focus restore`) or made since: open it afresh.
                        if database == nil || databaseInode != inode {
                            database = nil
                            database = try env.openDatabase()
                            databaseInode = inode
                        }
                        lastDataVersion = try database!.dataVersion()
                        reading = try command.read(database!, now: now, calendar: env.calendar)
                    } else {
                        // No database yet: idle, and nothing created (it appears with the first write).
                        database = nil
                        databaseInode = nil
                        reading = StatusReading.empty(day: env.calendar.day(of: now))
                    }
                    if !creating {
                        lastFingerprint = fingerprint
                        warned = nil
                        failingSince = nil
                    }
                } catch {
                    // The first look fails like `focus status`; later ones are tried again
                    // shortly, and said once when they last (a database being created or
                    // replaced by another process is unreadable for a moment).
                    if first { throw error }
                    database = nil
                    lastFingerprint = nil
                    let since = failingSince ?? now
                    failingSince = since
                    if now.timeIntervalSince(since) >= StatusFollower.patienceSeconds, warned != error.description {
                        env.console.note("warning: \(error.description) Trying again.")
                        warned = error.description
                    }
                }
            }
            first = false

            if let reading {
                let text = command.text(reading, now: now, calendar: env.calendar)
                if text != lastText {
                    env.console.line(text)
                    lastText = text
                    if let failure = env.console.writeFailure, failure.stream == .output {
                        // The reader went away: the normal end of a follower (README, Status bars).
                        if failure.isBrokenPipe { FocusMain.endedByReader() }
                        return
                    }
                }
            }

            var wake = now.addingTimeInterval(StatusFollower.idleCheckSeconds)
            if let reading {
                let midnight = env.calendar.startOfDay(reading.day.adding(days: 1))
                wake = [wake, midnight, reading.nextTick(after: now), reading.next?.end].compactMap { $0 }.min()!
            }
            if !watcher.isWatching || reading == nil {
                wake = min(wake, now.addingTimeInterval(StatusFollower.unwatchedCheckSeconds))
            }
            if failingSince != nil { wake = min(wake, now.addingTimeInterval(0.25)) }
            // A commit is written to the -wal file (which inotify reports) and only then made
            // visible in the -shm index (a shared mapping, which it does not): look once more
            // shortly after the last change, so that a commit seen half-done is not missed.
            if changedLastTime { wake = min(wake, now.addingTimeInterval(StatusFollower.settleSeconds)) }
            switch watcher.wait(seconds: wake.timeIntervalSince(env.now())) {
            case .stop: return
            case .outputClosed:
                FocusMain.endedByReader()
                return
            case .changed: changedLastTime = true
            case .timeout: changedLastTime = false
            }
        }
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
