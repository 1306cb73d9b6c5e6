import FocusCore
import FocusStorage
import FocusText
import FoundationEssentials
import Glibc

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

    /// The digests in the file; nil when there is no file yet.
    package func load() throws(FocusError) -> Set<String>? {
        var info = stat()
        if stat(path, &info) != 0, errno == ENOENT || errno == ENOTDIR { return nil }
        let data = try ChunkedFile.whole(path, limit: 4 << 20, what: "the trusted-settings file")
        return TrustedSettings.parse(String(decoding: data, as: UTF8.self))
    }

    /// Adds `digests` to the file (made 0600 when missing).
    package func add(_ digests: [String]) throws(FocusError) {
        // The upgrade first: a file made now without it would leave the old settings untrusted.
        if try load() == nil, let db = env.openedDatabase() { try upgrade(db) }
        let known = try load() ?? []
        let all = known.union(digests)
        guard all != known || !FileManager.default.fileExists(atPath: path) else { return }
        try AtomicFile.write(TrustedSettings.render(all), to: path, access: .privateToUser)
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
        if let db = env.openedDatabase() { try upgrade(db) }
        return try load() ?? []
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
        guard try load() == nil else { return }
        let defaultPath = AppDatabase.defaultPath(environment: env.environment)
        let current = FileManager.default.fileExists(atPath: defaultPath) ? try? AppDatabase.open(path: defaultPath) : nil
        try startFile(with: current)
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
