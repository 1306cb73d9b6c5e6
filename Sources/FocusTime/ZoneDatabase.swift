#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import FoundationEssentials
#endif
import Synchronization

/// The system's zone database (TZif files under `/usr/share/zoneinfo`, Debian's `tzdata`, or
/// `$TZDIR`): where every zone in focus comes from, the person's own (`--tz`, `TZ`,
/// `/etc/localtime`) and the ones calendar files name (IANA names, Windows names mapped to
/// them, cities in Outlook's display names).
package struct ZoneDatabase: Sendable {
    /// The database directory.
    package let directory: String

    /// `$TZDIR` when it is an absolute path, else `/usr/share/zoneinfo` (tzset(3)).
    package init(environment: [String: String]) {
        if let dir = environment["TZDIR"], dir.hasPrefix("/") {
            directory = dir
        } else {
            directory = "/usr/share/zoneinfo"
        }
    }

    package init(directory: String) { self.directory = directory }

    /// Whether the directory holds a zone database at all (it has UTC, or the tables).
    package var exists: Bool {
        FileManager.default.fileExists(atPath: directory + "/UTC") || FileManager.default.fileExists(atPath: directory + "/zone.tab")
    }

    /// The zone an IANA name (`Europe/Berlin`, `UTC`) names, or nil when the database has no
    /// such zone. Names are paths below the database directory; none may climb out of it.
    package func zone(named name: String) -> ZoneRules? {
        guard ZoneDatabase.isPlausibleName(name) else { return nil }
        let key = directory + "/" + name
        if let known = ZoneDatabase.loaded.withLock({ $0[key] }) { return known }
        // UTC is known even on a machine without the zone database.
        let zone = FileManager.default.contents(atPath: key).flatMap { ZoneRules.parse($0, identifier: name) }
            ?? (["UTC", "Etc/UTC", "GMT", "Etc/GMT"].contains(name) ? ZoneRules.fixed(secondsEast: 0, identifier: name) : nil)
        if let zone { ZoneDatabase.loaded.withLock { $0[key] = zone } }
        return zone
    }

    /// Zones read so far in this process, by file path.
    private static let loaded = Mutex<[String: ZoneRules]>([:])

    /// The zone a `TZ` value names: `Europe/Berlin`, `:Europe/Berlin`, a TZif file's path, or a
    /// POSIX rule such as `CET-1CEST,M3.5.0,M10.5.0/3` (POSIX.1, 8.3). nil when it names none.
    package func zone(tz value: String) -> ZoneRules? {
        var tz = Substring(value)
        if tz.hasPrefix(":") { tz = tz.dropFirst() }
        guard !tz.isEmpty else { return nil }
        if tz.hasPrefix("/") {
            guard let data = FileManager.default.contents(atPath: String(tz)) else { return nil }
            return ZoneRules.parse(data, identifier: ZoneDatabase.identifier(forPath: String(tz)) ?? String(tz))
        }
        if let zone = zone(named: String(tz)) { return zone }
        guard let rule = PosixZoneRule(String(tz)) else { return nil }
        return ZoneRules.posix(rule, identifier: String(tz))
    }

    /// The system's zone: `/etc/localtime` (its link target names it), else UTC.
    package var system: ZoneRules {
        let path = "/etc/localtime"
        guard let data = FileManager.default.contents(atPath: path) else { return .utc }
        var name: String?
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
            name = ZoneDatabase.identifier(forPath: target)
        }
        if name == nil, let text = FileManager.default.contents(atPath: "/etc/timezone").map({ String(decoding: $0, as: UTF8.self) }) {
            let trimmed = String(text.unicodeScalars.filter { !($0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r") })
            if ZoneDatabase.isPlausibleName(trimmed) { name = trimmed }
        }
        return ZoneRules.parse(data, identifier: name ?? "localtime") ?? .utc
    }

    /// Lower-cased city (`new_york`, the last part of a zone name) → that zone's IANA name, from
    /// the database's tables (`zone1970.tab`, `zone.tab`: tzfile(5)'s companions), for calendar
    /// files that name a zone by its city. Read once per directory, on first use.
    package var cities: [String: String] {
        if let known = ZoneDatabase.cityTables.withLock({ $0[directory] }) { return known }
        var map: [String: String] = [:]
        for table in ["zone1970.tab", "zone.tab"] {
            guard let data = FileManager.default.contents(atPath: directory + "/" + table) else { continue }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard fields.count >= 3 else { continue }
                let id = String(fields[2])
                guard id.contains("/"), !id.hasPrefix("Etc/"), let city = id.split(separator: "/").last else { continue }
                let key = city.lowercased()
                if map[key] == nil { map[key] = id }
            }
        }
        ZoneDatabase.cityTables.withLock { $0[directory] = map }
        return map
    }

    private static let cityTables = Mutex<[String: [String: String]]>([:])

    /// `Europe/Berlin` from `/usr/share/zoneinfo/Europe/Berlin` or `../usr/share/zoneinfo/Europe/Berlin`.
    static func identifier(forPath path: String) -> String? {
        let marker = Array("zoneinfo/".utf8)
        let bytes = Array(path.utf8)
        guard bytes.count >= marker.count,
              let at = (0...(bytes.count - marker.count)).last(where: { Array(bytes[$0..<($0 + marker.count)]) == marker })
        else { return nil }
        var name = String(decoding: bytes[(at + marker.count)...], as: UTF8.self)
        for prefix in ["posix/", "right/"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
        return isPlausibleName(name) ? name : nil
    }

    static func isPlausibleName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count < 256, !name.hasPrefix("/"), !name.hasSuffix("/") else { return false }
        for part in name.split(separator: "/", omittingEmptySubsequences: false) {
            if part.isEmpty || part == "." || part == ".." { return false }
        }
        return name.utf8.allSatisfy { c in
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39)
                || c == 0x2F || c == 0x5F || c == 0x2D || c == 0x2B
        }
    }
}
