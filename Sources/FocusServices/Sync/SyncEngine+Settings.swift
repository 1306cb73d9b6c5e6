import FocusSystem
import FocusText
import FocusCore
import FocusStorage
import FoundationEssentials
import Glibc

/// The settings that travel with sync (README, "Two machines": working hours, days off,
/// buffers, feed subscriptions): read here and in the calendar's settings event, merged key by
/// key (`SyncSettings.merge`), applied here (the config file, the feeds), and written there
/// with `If-Match` when the result differs from what the calendar holds.
extension SyncEngine {
    /// Where the settings event lives in the sync calendar.
    static func settingsURL(_ target: SyncTarget) -> String {
        Publication.resourceURL(calendar: target.url, uid: SyncSettings.uid)
    }

    /// One sync of the settings, after the items'. `seen`: what this sync's first read said of
    /// the settings event (nil: unchanged since the last sync). Returns the lines to say, and
    /// whether the write was refused (the next sync must then read the calendar whole: the
    /// token is not kept).
    func syncSettings(_ target: SyncTarget, seen: SyncSettings.Seen?, endpoint: CalDAVEndpoint) throws -> (lines: [String], refused: Bool) {
        let stored = try db.agreedSettings()
        var remote: SyncSettings?, etag: String?
        switch seen {
        case let .present(settings, tag): (remote, etag) = (settings, tag)
        case .gone: (remote, etag) = (nil, nil)
        case nil: (remote, etag) = (stored?.settings, stored?.etag)
        }
        // What was read now is admitted key by key (what was agreed before already was).
        guard seen != nil else { return try mergeSettings(target, remote: remote, etag: etag, stored: stored, rewrite: false, endpoint: endpoint) }
        let admitted = remote.map(SyncSettings.admitted)
        let skipped = admitted?.skipped ?? []
        var result = try mergeSettings(target, remote: admitted?.settings, etag: etag, stored: stored, rewrite: !skipped.isEmpty, endpoint: endpoint)
        try db.noteSkippedSettings(skipped)
        if !skipped.isEmpty {
            let shown = skipped.prefix(5).map(\.description).joined(separator: ", ") + (skipped.count > 5 ? ", and \(skipped.count - 5) more" : "")
            result.lines.insert("warning: settings from the other machines skipped here, the rest merged: \(DisplayText(shown).string) (`focus sync status` lists them).", at: 0)
        }
        return result
    }

    /// The merge of the settings read (`remote`, admitted) with those here, applied here and
    /// written to the calendar when they differ, or when `rewrite` (keys were skipped: the
    /// event is written again without them).
    private func mergeSettings(_ target: SyncTarget, remote: SyncSettings?, etag: String?, stored: (settings: SyncSettings, etag: String?)?,
                               rewrite: Bool, endpoint: CalDAVEndpoint) throws -> (lines: [String], refused: Bool) {
        var local = SyncSettings.localValues(config: configValues(env.config), daysOff: env.config.daysOff.map(\.description),
                                             feeds: try travellingFeeds())
        local.merge(SyncSettings.localPins(try db.travellingPins())) { here, _ in here }
        // Nothing to share yet (every setting as focus comes, no day off, no feed): nothing is
        // written, so a calendar only gets the settings event once there is a plan to share.
        if remote == nil, stored == nil, local == SyncSettings.localValues(config: configValues(FocusConfig()), daysOff: [], feeds: []) {
            return ([], false)
        }
        let merge = SyncSettings.merge(local: local, localModified: configModified(), agreed: stored?.settings, remote: remote)
        var lines: [String] = []
        if !merge.apply.isEmpty {
            do {
                lines += try applySettings(SyncSettings.changes(merge, local: local), pins: SyncSettings.pinChanges(merge, local: local))
            } catch let error as FocusError {
                // Not applied: nothing counts as agreed, so the next sync tries again.
                return (["warning: the settings from the other machines were not applied here: \(error.description)"], false)
            }
        }
        guard merge.write || rewrite else {
            if merge.result != stored?.settings || etag != stored?.etag { try db.noteAgreedSettings(merge.result, etag: etag) }
            return (lines, false)
        }
        let data = Data(merge.result.encode(stamp: env.now()).utf8)
        let url = Self.settingsURL(target)
        switch try client.put(url, ics: data, ifMatch: remote == nil ? nil : (etag ?? "*"), endpoint) {
        case let .written(newEtag):
            try db.noteAgreedSettings(merge.result, etag: newEtag)
            return (lines, false)
        case .changedOnServer, .missing:
            // Another machine wrote them meanwhile (or they were deleted): what was taken from
            // there is agreed, the changes here wait for the next sync, which reads them again.
            try db.noteAgreedSettings(merge.agreedIfRefused, etag: nil)
            return (lines, true)
        }
    }

    /// The travelling config keys this build knows, as `config get` shows them.
    private func configValues(_ config: FocusConfig) -> [String: String] {
        var values: [String: String] = [:]
        for key in SyncSettings.configKeys { values[key] = try? config.value(of: key) }
        return values
    }

    /// When the config file last changed, in milliseconds (0 when there is none).
    private func configModified() -> Int64 {
        var info = stat()
        guard stat(env.configPath, &info) == 0 else { return 0 }
        return Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec / 1_000_000)
    }

    /// Pins and unpins the blocks the other machines did (README, "Two machines": a block dragged
    /// on the phone is pinned on every machine), and says so.
    private func applyPins(_ pins: (pin: [SyncSettings.Pin], unpin: [String])) throws -> [String] {
        guard !pins.pin.isEmpty || !pins.unpin.isEmpty else { return [] }
        let applied = try db.applyPins(pins.pin, unpin: pins.unpin)
        let now = env.now()
        return applied.pinned.map { pin in
            "\(DisplayText(pin.path).string) is pinned at \(RelativeTime.shortDateTime(pin.start, calendar: env.calendar, now: now)), "
                + "as on the other machines (`focus plan --unpin \(Quoted.shell(pin.path))` lets focus plan it again)."
        } + applied.unpinned.map { "\(DisplayText($0).string) is no longer pinned: unpinned on another machine." }
    }

    /// The feeds subscribed here that travel: those with neither a CA file nor `--insecure`.
    private func travellingFeeds() throws -> [SyncSettings.Feed] {
        try db.calendars().compactMap { calendar in
            guard !calendar.connected, CalendarFeed.isFeed(source: calendar.source) else { return nil }
            let state = FeedState.decode(calendar.feedState)
            guard state.caFile == nil, state.insecure != true else { return nil }
            return SyncSettings.Feed(address: calendar.source, name: calendar.name)
        }
    }

    /// Applies what the other machines changed: the config file (checked whole before it is
    /// written, as `config set` does), feeds subscribed (fetched by the next `calendar
    /// refresh`, the daemon's included) and dropped; then plans again under the new settings.
    private func applySettings(_ change: (config: [String: String], subscribe: [SyncSettings.Feed], drop: [String]),
                               pins: (pin: [SyncSettings.Pin], unpin: [String])) throws -> [String] {
        var lines: [String] = []
        var config = env.config
        if !change.config.isEmpty {
            var text = FileManager.default.contents(atPath: env.configPath).flatMap { String(data: $0, encoding: .utf8) } ?? ""
            for (key, value) in change.config.sorted(by: { $0.key < $1.key }) { text = ConfigFile.updating(text, key: key, value: value) }
            config = try ConfigFile.parse(text, path: env.configPath)
            if let slash = env.configPath.lastIndex(of: "/") {
                try? FileManager.default.createDirectory(atPath: String(env.configPath[..<slash]), withIntermediateDirectories: true,
                                                         attributes: [.posixPermissions: 0o700])
            }
            try AtomicFile.write(text, to: env.configPath, access: .privateToUser)
            let said = change.config.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")
            lines.append("Settings from the other machines: \(DisplayText(said).string).")
        }
        let present = try db.calendars()
        let sources = Set(present.map(\.source))
        let arriving = SyncSettings.arriving(change.subscribe.filter { !sources.contains($0.address) }, taken: present.map(\.name))
        lines += arriving.warnings
        for feed in arriving.subscribe {
            let now = env.now()
            var calendar = CalendarImport(name: feed.name, source: feed.address, content: Data(), timeZone: env.calendar.identifier,
                                          horizon: DateInterval(start: now, duration: 0), eventCount: 0, importedAt: now)
            calendar.feedState = FeedState().encoded
            // A free name (`arriving`): the DELETE of a same-named calendar replaces nothing.
            _ = try db.importCalendar(calendar, occurrences: [(Date, Date, String, Bool, String)](), occurrence: { $0 })
            // Not trusted here: the stored-settings rule asks before its first fetch.
            lines.append("Subscribed to calendar \(DisplayText(feed.name).string) as the other machines are (\(CalendarFeed.shownAddress(feed.address))): "
                         + "`focus calendar refresh` at a terminal asks before fetching it.")
        }
        for address in change.drop {
            for calendar in try db.calendars() where !calendar.connected && calendar.source == address {
                _ = try db.removeCalendar(named: calendar.name)
                lines.append("Removed calendar \(DisplayText(calendar.name).string): the other machines no longer subscribe to it.")
            }
        }
        lines += try applyPins(pins)
        try db.markPlanStale()
        var updated = env
        updated.config = config
        if !AttendanceReread.keys.isDisjoint(with: change.config.keys) { try AttendanceReread.run(updated, db) }
        _ = Planning.replanIfStale(updated, db)
        return lines
    }
}
