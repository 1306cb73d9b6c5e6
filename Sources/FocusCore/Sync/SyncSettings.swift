import FocusCalendar
import FoundationEssentials

/// The settings that travel with sync, so two machines plan the same week (README, "Two
/// machines"): working hours, days off, buffers, the daily cap and feed subscriptions (their
/// addresses, never a password). One event in the sync calendar holds them, each key with the
/// time of its last change; each key merges on its own against the version both machines last
/// agreed on.
package struct SyncSettings: Sendable, Equatable, Codable {
    package struct Value: Sendable, Equatable, Codable {
        package var value: String
        /// When it was last changed, in milliseconds since 1970.
        package var modified: Int64

        package init(_ value: String, modified: Int64) {
            self.value = value
            self.modified = modified
        }
    }

    package var values: [String: Value]

    package init(_ values: [String: Value] = [:]) { self.values = values }

    /// The config keys that travel, in the order they are shown: every one the planner reads
    /// (the plan is a function of what every machine shares: `work` is the default attention
    /// span, `short_break` the gap between blocks, `email` and `tentative_busy` say which
    /// meetings are busy). A key this build does not know (`buffer`, `max_per_day` before they
    /// existed) travels untouched through it. `feeds` is the subscribed feeds' addresses, one a line.
    package static let configKeys = ["day_start", "day_end", "hours.mon", "hours.tue", "hours.wed", "hours.thu", "hours.fri",
                                     "hours.sat", "hours.sun", "off", "buffer", "max_per_day", "work", "short_break", "minimum_block",
                                     "email", "tentative_busy", "lunch", "cycles", "long_break"]
    package static let feedsKey = "feeds"

    /// The UID of the settings event (one per sync calendar, whichever machine wrote it).
    package static let uid = "focus-settings@focus"

    /// What one sync does with the settings.
    package struct Merge: Sendable, Equatable {
        /// Keys to set here, with their new values.
        package var apply: [String: String] = [:]
        /// What the calendar should hold after this sync.
        package var result = SyncSettings()
        /// Whether `result` differs from what the calendar holds: write it.
        package var write = false
        /// What counts as agreed if the write is refused (another machine wrote meanwhile): the
        /// values taken from there, and for keys changed here the version agreed before, so the
        /// change here still counts as one at the next sync.
        package var agreedIfRefused = SyncSettings()
    }

    /// Merges key by key. `local`: the values here now (a key absent: not known here);
    /// `localModified`: when the settings here last changed (the config file's time); `agreed`:
    /// the version both sides last agreed on (nil before the first sync); `remote`: what the
    /// calendar holds (nil: nothing). Rules: a key changed on one side only takes that side's
    /// value; changed on both, the later change wins, on a tie the larger value, so every machine
    /// decides alike. At a machine's first sync the calendar's values win over the ones here
    /// (a new laptop takes the plan's settings), and keys the calendar lacks are sent from here.
    package static func merge(local: [String: String], localModified: Int64, agreed: SyncSettings?, remote: SyncSettings?) -> Merge {
        var merge = Merge()
        let keys = Set(local.keys).union(Array((remote?.values ?? [:]).keys)).union(Array((agreed?.values ?? [:]).keys))
        for key in keys.sorted() {
            let base = agreed?.values[key], there = remote?.values[key]
            var here = local[key]
            let changedHere: Bool
            if here == nil, let absent = absentValue(key) {
                // A day not off here, a feed not subscribed here: a change only if it was agreed.
                here = absent
                changedHere = base.map { $0.value != absent } ?? false
            } else {
                // At a first sync the calendar's value wins; a key it lacks is sent from here.
                changedHere = here != nil && (agreed == nil ? there == nil : here != base?.value)
            }
            let changedThere = there != nil && there != base
            let mine = here.map { Value($0, modified: max(localModified, (base?.modified ?? -1) + 1)) }
            let chosen: Value?
            switch (changedHere, changedThere) {
            case (false, false): chosen = there ?? base ?? mine
            case (true, false): chosen = mine
            case (false, true): chosen = there
            case (true, true): chosen = later(mine, there)
            }
            guard let chosen else { continue }
            merge.result.values[key] = chosen
            if let here, chosen.value != here { merge.apply[key] = chosen.value }
            if let kept = there != nil && chosen == there ? there : base { merge.agreedIfRefused.values[key] = kept }
        }
        merge.write = merge.result != (remote ?? SyncSettings())
        return merge
    }

    /// What a key that stands for one of a set means when this machine does not have it: a day
    /// not off (`off.…`), a feed not subscribed (`feed.…`), a block not pinned (`pin.…`). Nil
    /// for a setting.
    static func absentValue(_ key: String) -> String? {
        key.hasPrefix("off.") ? "no" : key.hasPrefix("feed.") || key.hasPrefix("pin.") ? "" : nil
    }

    /// Of two changes of one key, the later; on a tie the larger value (the same on every machine).
    private static func later(_ a: Value?, _ b: Value?) -> Value? {
        guard let a, let b else { return a ?? b }
        if a.value == b.value { return b }
        if a.modified != b.modified { return a.modified > b.modified ? a : b }
        return a.value > b.value ? a : b
    }
}

extension SyncSettings {
    /// The settings as a transparent all-day event in the sync calendar (`X-FOCUS-SETTINGS`; one
    /// `X-FOCUS-SETTING;KEY=…;MODIFIED=…` line a key): never busy time, never a session. Dated
    /// on the day (UTC) of its last change, so a calendar app shows it there as a day's note
    /// (RFC 5545 section 3.6.1: an all-day event's DTEND is the next date).
    package func encode(stamp: Date) -> String {
        var out: [UInt8] = []
        func line(_ text: String) { ICSWriter.appendLine(text, to: &out) }
        let last = Date(timeIntervalSince1970: Double(values.values.map(\.modified).max() ?? 0) / 1000)
        line("BEGIN:VCALENDAR")
        line("VERSION:2.0")
        line("PRODID:-//focus//sync//EN")
        line("BEGIN:VEVENT")
        line("UID:" + SyncSettings.uid)
        line("DTSTAMP:" + SyncCodec.utc(stamp))
        let day = String(SyncCodec.utc(last).prefix(8))
        line("DTSTART;VALUE=DATE:" + day)
        line("DTEND;VALUE=DATE:" + String(SyncCodec.utc(last.addingTimeInterval(86_400)).prefix(8)))
        line("SUMMARY:focus settings (working hours\\, days off\\, feeds)")
        line("TRANSP:TRANSPARENT")
        line("X-FOCUS-SETTINGS:1")
        for key in values.keys.sorted() {
            guard let v = values[key] else { continue }
            line("X-FOCUS-SETTING;KEY=\(key);MODIFIED=\(v.modified):" + ICSWriter.escapeText(v.value))
        }
        line("END:VEVENT")
        line("END:VCALENDAR")
        return String(decoding: out, as: UTF8.self)
    }

    /// The settings a calendar object resource holds, if it is the settings event. Keys are
    /// letters, digits, `.`, `_` and `-`; values at most 4,000 characters.
    package static func decode(_ data: Data) -> SyncSettings? {
        guard let props = ICSText.firstComponent(ICSText.lines(data), named: ["VEVENT"]), props.value("X-FOCUS-SETTINGS") != nil
        else { return nil }
        var settings = SyncSettings()
        for line in props.lines where line.name == "X-FOCUS-SETTING" {
            guard let key = line.parameters["KEY"], !key.isEmpty, key.count <= 40,
                  key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") }),
                  let modified = line.parameters["MODIFIED"].flatMap({ Int64($0) }), modified >= 0 else { continue }
            let value = ICSText.unescape(line.value)
            guard value.count <= 4000 else { continue }
            settings.values[key] = Value(value, modified: modified)
        }
        return settings
    }
}

extension SyncSettings {
    /// What a sync's answer said of the settings event.
    package enum Seen: Sendable, Equatable {
        case present(SyncSettings, etag: String?)
        case gone
    }

    /// Takes the settings event out of a server's answer (it is no task, subtask or session):
    /// nil when the answer says nothing of it (a delta where it did not change).
    package static func take(from changes: inout RemoteChanges, url: String) -> Seen? {
        var seen: Seen?
        changes.changed.removeAll { resource in
            guard let data = resource.data, let settings = decode(data) else { return resource.url == url && resource.data == nil }
            seen = .present(settings, etag: resource.etag)
            return true
        }
        if changes.removed.contains(url) {
            changes.removed.removeAll { $0 == url }
            if seen == nil { seen = .gone }
        }
        if seen == nil, changes.complete { seen = .gone }
        return seen
    }

    /// A feed subscription as it travels: its address and name (never a CA file or `--insecure`:
    /// a feed that needs either stays on its machine).
    package struct Feed: Sendable, Equatable {
        package var address: String
        package var name: String

        package init(address: String, name: String) {
            self.address = address
            self.name = name
        }

        package var key: String { "feed." + String(SHA256.hex(address.utf8).prefix(16)) }
        var value: String { address + "\n" + name }

        static func parse(_ value: String) -> Feed? {
            let parts = value.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
            return Feed(address: String(parts[0]), name: String(parts[1]))
        }
    }

    /// The values here as the merge reads them: each travelling config key this build knows
    /// (`config`, as `config get` shows them), one `off.YYYY-MM-DD` key (`yes`) a day off, so
    /// days added on two machines both stay, and one `feed.…` key a feed (its address and name).
    /// A day or feed missing here is `no` or empty to the merge (`absentValue`).
    package static func localValues(config: [String: String], daysOff: [String], feeds: [Feed]) -> [String: String] {
        var local = config.filter { configKeys.contains($0.key) && $0.key != "off" }
        for day in daysOff { local["off." + day] = "yes" }
        for feed in feeds { local[feed.key] = feed.value }
        return local
    }

    /// What to change here for a merge's `apply`: config keys to set (`off` as the whole list of
    /// days the result has off, or `none`), feeds to subscribe to and addresses to drop.
    package static func changes(_ merge: Merge, local: [String: String]) -> (config: [String: String], subscribe: [Feed], drop: [String]) {
        var config: [String: String] = [:]
        var subscribe: [Feed] = [], drop: [String] = []
        // The whole list of days off once, however many of them changed (linear in the keys).
        if merge.apply.keys.contains(where: { $0.hasPrefix("off.") }) {
            let days = merge.result.values.filter { $0.key.hasPrefix("off.") && $0.value.value == "yes" }.map { String($0.key.dropFirst(4)) }
            config["off"] = days.isEmpty ? "none" : days.sorted().joined(separator: ",")
        }
        for (key, value) in merge.apply {
            if key.hasPrefix("off.") {
                continue
            } else if key.hasPrefix("feed.") {
                if let feed = Feed.parse(value) { subscribe.append(feed) }
            } else if configKeys.contains(key) {
                config[key] = value
            }
        }
        // A feed emptied there: dropped here (its address is what this machine's value held).
        for (key, value) in merge.apply where key.hasPrefix("feed.") && value.isEmpty {
            if let address = local[key].flatMap(Feed.parse)?.address { drop.append(address) }
        }
        return (config, subscribe.sorted { $0.address < $1.address }, drop.sorted())
    }
}
