import FocusCore
import FocusStorage
import FocusSystem
import FocusText
import FoundationEssentials
import Glibc
import Synchronization

/// The stored-settings rule (README, "What focus promises"): an account's password command, a
/// remembered `--ca-file` and the addresses of accounts and feeds are used only when this user
/// set them on this machine (`connect`, `subscribe`), or said yes to them when asked. What they
/// set is kept as digests in `$XDG_CONFIG_HOME/focus/trusted-settings`, outside every database.
///
/// Upgrading: a focus older than this rule kept no such file. The first time the file is
/// needed and missing, the settings of the database at the default path are trusted (the one
/// this user's focus has always used; a `--db` or `FOCUS_DB` file is not), once.
package struct TrustStore {
    let path: String
    let env: ServiceContext

    package init(env: ServiceContext) {
        self.env = env
        let directory = env.configPath.lastIndex(of: "/").map { String(env.configPath[..<$0]) } ?? "."
        path = directory + "/trusted-settings"
    }

    /// Every setting of `db` that makes focus run, read or contact something.
    package static func settings(_ db: AppDatabase) throws(FocusError) -> [StoredSetting] {
        let accounts = try db.accounts().map {
            StoredSetting(kind: .account, url: $0.url, user: $0.user, passwordCommand: $0.passwordCommand, caFile: $0.caFile, insecure: $0.insecure)
        }
        let feeds = try db.calendars().filter { !$0.connected && CalendarFeed.isFeed(source: $0.source) }.map { feed in
            let state = FeedState.decode(feed.feedState)
            return StoredSetting(kind: .feed, url: feed.source, caFile: state.caFile, insecure: state.insecure ?? false)
        }
        return accounts + feeds
    }

    /// The digests in the file; nil when there is no file yet. A file that is not a regular
    /// file of this user's, or that group or others may write, is ignored (nothing in it is
    /// trusted) with a warning: whoever can write it could approve a setting in this user's
    /// name. ssh treats its own files so (sshd_config(5), StrictModes).
    package func load() throws(FocusError) -> Set<String>? {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
        } else if let problem = Self.unsafe(info) {
            Self.warnOnce(path: path, console: env.console, "warning: ignoring \(path): \(problem); no setting in it is trusted.")
            return []
        }
        let data = try ChunkedFile.whole(path, limit: 4 << 20, what: "the trusted-settings file")
        return TrustedSettings.parse(String(decoding: data, as: UTF8.self))
    }

    /// Why a trusted-settings file with this status is not to be believed, and how to fix it;
    /// nil for a regular file of this user's that only they may write.
    static func unsafe(_ info: stat) -> String? {
        if FileKind(mode: info.st_mode) != .regular {
            return "it is not a regular file. Remove it; focus asks again about each setting"
        }
        if info.st_uid != geteuid() {
            return "it belongs to another user (uid \(info.st_uid)). Remove it; focus asks again about each setting"
        }
        if info.st_mode & 0o022 != 0 {
            return "group or others may write it. If every line in it is yours, run `chmod 600` on it; else remove it"
        }
        return nil
    }

    private static let warned = Mutex<Set<String>>([])

    /// Says `text` once per process for `path` (the file is read several times a command).
    private static func warnOnce(path: String, console: any Console, _ text: String) {
        guard warned.withLock({ $0.insert(path).inserted }) else { return }
        console.note(DisplayText(text))
    }

    /// Adds `digests` to the file (made 0600 when missing), under the lock, so that parallel
    /// commands adding their own settings lose none of them.
    package func add(_ digests: [String]) throws(FocusError) {
        try locked { () throws(FocusError) in
            // The upgrade first: a file made now without it would leave the old settings untrusted.
            if try load() == nil, let db = env.openedDatabase() { try upgrade(db) }
            let known = try load() ?? []
            let all = known.union(digests)
            guard all != known || !FileManager.default.fileExists(atPath: path) else { return }
            try AtomicFile.write(TrustedSettings.render(all), to: path, access: .privateToUser)
        }
    }

    /// Runs `body` holding an exclusive lock (flock(2)) on `trusted-settings.lock` beside the
    /// file: every read-modify-write of the file is one at a time. The file itself is replaced
    /// by a rename on each write, so it cannot carry the lock.
    func locked<T>(_ body: () throws(FocusError) -> T) throws(FocusError) -> T {
        let lockPath = path + ".lock"
        if let slash = path.lastIndex(of: "/") {
            try? FileManager.default.createDirectory(atPath: String(path[..<slash]), withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        let fd = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .io(path: lockPath, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .io(path: lockPath, reason: String(cString: strerror(errno))) }
        }
        return try body()
    }

    /// An account just set up by this user on this machine (`connect`): trusted from now on.
    package func trustAccount(_ id: Int64, in db: AppDatabase) throws(FocusError) {
        guard let saved = try db.accounts().first(where: { $0.id == id }) else { return }
        try add([StoredSetting(kind: .account, url: saved.url, user: saved.user, passwordCommand: saved.passwordCommand,
                               caFile: saved.caFile, insecure: saved.insecure).digest])
    }

    /// What this user trusts, the upgrade done first when the file is missing (see above).
    package func trusted() throws(FocusError) -> Set<String> {
        if let known = try load() { return known }
        // Nothing to write unless the upgrade applies: no lock file is made for a read.
        guard Self.isDefault(env.databasePath, environment: env.environment), let db = env.openedDatabase() else { return [] }
        return try locked { () throws(FocusError) in
            try upgrade(db)
            return try load() ?? []
        }
    }

    /// The one-time trust of the default database's settings, when there is no file yet and
    /// `db` is the database at the default path; else nothing is trusted yet.
    func upgrade(_ db: AppDatabase) throws(FocusError) {
        guard try load() == nil, Self.isDefault(env.databasePath, environment: env.environment) else { return }
        try startFile(with: db)
    }

    /// Before `restore` replaces a database: the file is made now if missing (with the settings
    /// of the database at the default path, the upgrade), so that the restored file's settings
    /// are never taken for this user's own by a later upgrade.
    package func settleBeforeRestore() throws(FocusError) {
        try locked { () throws(FocusError) in
            guard try load() == nil else { return }
            let defaultPath = AppDatabase.defaultPath(environment: env.environment)
            let current = FileManager.default.fileExists(atPath: defaultPath) ? try? AppDatabase.open(path: defaultPath) : nil
            try startFile(with: current)
        }
    }

    private func startFile(with db: AppDatabase?) throws(FocusError) {
        let digests = try db.map { db throws(FocusError) in try Self.settings(db).map(\.digest) } ?? []
        try AtomicFile.write(TrustedSettings.render(Set(digests)), to: path, access: .privateToUser)
    }

    static func isDefault(_ path: String, environment: [String: String]) -> Bool {
        let standard = { (p: String) in URL(fileURLWithPath: p).standardizedFileURL.resolvingSymlinksInPath().path }
        return standard(path) == standard(AppDatabase.defaultPath(environment: environment))
    }

    /// Uses `setting` only when trusted; else asks the person when `mayAsk` and there is a
    /// terminal (a yes is remembered), and otherwise throws the refusal, which says `again`.
    package func require(_ setting: StoredSetting, mayAsk: Bool, again: String) throws(FocusError) {
        if try trusted().contains(setting.digest) { return }
        if mayAsk, let prompter = env.prompter {
            let action = setting.passwordCommand != nil ? "Run its password command and connect" : "Connect to it"
            env.console.note("This database holds a \(setting.summary) that was not set up by you on this machine (a restored or another person's file?).")
            if prompter.confirm("\(action)? [y/N]") {
                try add([setting.digest])
                return
            }
        }
        throw setting.refusal(again: again)
    }
}
