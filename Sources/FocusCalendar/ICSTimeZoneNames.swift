import FoundationEssentials

/// Turns the TZID strings real exporters write into IANA zone identifiers.
package enum ICSTimeZoneNames {
    /// The IANA zone a TZID names, trying in order: an IANA identifier (`Europe/Berlin`); a
    /// Windows zone name (`W. Europe Standard Time`); a path ending in either
    /// (`/Europe/Berlin`, `/mozilla.org/20050126_1/Europe/Berlin`); a Windows display name
    /// (`(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna`); a display name listing a
    /// city that has its own IANA zone (`(UTC+01:00) Brussels, Copenhagen`). Nil when none fits.
    package static func ianaIdentifier(forTZID tzid: String, in database: ZoneDatabase = ZoneDatabase(environment: [:])) -> String? {
        let name = tzid.trimmingWhitespace()
        guard !name.isEmpty else { return nil }
        func isKnownIdentifier(_ name: String) -> Bool {
            guard name.utf8.count <= 64, name.first?.isLetter == true else { return false }
            return database.zone(named: name) != nil
        }
        if isKnownIdentifier(name) { return name }
        if let iana = WindowsZones.ianaIdentifier(forWindowsName: name) { return iana }
        var index = name.startIndex
        while let slash = name[index...].firstIndex(of: "/") {
            let suffix = String(name[name.index(after: slash)...])
            if !suffix.isEmpty {
                if isKnownIdentifier(suffix) { return suffix }
                if let iana = WindowsZones.ianaIdentifier(forWindowsName: suffix) { return iana }
            }
            index = name.index(after: slash)
        }
        if let iana = WindowsZones.ianaIdentifier(forDisplayName: name) { return iana }
        var rest = Substring(name)
        if rest.hasPrefix("("), let close = rest.firstIndex(of: ")") { rest = rest[rest.index(after: close)...] }
        for token in rest.split(whereSeparator: { $0 == "," || $0 == "/" || $0 == "&" }) {
            let key = token.trimmingWhitespace().lowercased().replacing(" ", with: "_")
            if let iana = database.cities[key] { return iana }
        }
        return nil
    }

    /// A fixed offset named in the TZID itself, as a last resort: `(UTC+01:00) Somewhere`,
    /// `GMT-05:00`, `UTC+0530`. Seconds east of UTC.
    package static func fixedOffset(forTZID tzid: String) -> Int? {
        var text = Substring(tzid.trimmingWhitespace())
        if text.hasPrefix("(") { text = text.dropFirst() }
        let upper = text.uppercased()
        guard upper.hasPrefix("UTC") || upper.hasPrefix("GMT") else { return nil }
        text = text.dropFirst(3)
        guard let sign = text.first, sign == "+" || sign == "-" else {
            // "(UTC) Coordinated Universal Time", "GMT".
            return text.first == nil || text.first == ")" || text.first == " " ? 0 : nil
        }
        text = text.dropFirst()
        var digits: [Int] = []
        for ch in text {
            if let d = ch.wholeNumberValue, ch.isASCII { digits.append(d) } else if ch == ":" { continue } else { break }
            if digits.count == 4 { break }
        }
        let hours: Int
        let minutes: Int
        switch digits.count {
        case 1: hours = digits[0]; minutes = 0
        case 2: hours = digits[0] * 10 + digits[1]; minutes = 0
        case 3: hours = digits[0]; minutes = digits[1] * 10 + digits[2]
        case 4: hours = digits[0] * 10 + digits[1]; minutes = digits[2] * 10 + digits[3]
        default: return nil
        }
        guard hours <= 14, minutes <= 59 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}

/// Per-expansion cache: which offsets each TZID (and the local zone) means.
final class ZoneResolver {
    let local: ZoneOffsets
    let utc = ZoneOffsets(fixedOffset: 0)
    private var byTZID: [String: ZoneOffsets] = [:]
    private var last: (tzid: String, zone: ZoneOffsets)?
    private var byIdentifier: [String: ZoneOffsets] = [:]
    private let definitions: [String: ICSTimeZone]
    private let definitionsFolded: [String: ICSTimeZone]

    private let database: ZoneDatabase

    init(local calendar: LocalCalendar, definitions: [ICSTimeZone]) {
        local = ZoneOffsets(zone: calendar.zone)
        database = calendar.database
        var exact: [String: ICSTimeZone] = [:]
        var folded: [String: ICSTimeZone] = [:]
        for d in definitions where !d.observances.isEmpty {
            if exact[d.tzid] == nil { exact[d.tzid] = d }
            if folded[d.tzid.lowercased()] == nil { folded[d.tzid.lowercased()] = d }
        }
        self.definitions = exact
        self.definitionsFolded = folded
    }

    /// The zone a value's wall clock is read in (floating and DATE values: the local zone).
    func zone(for value: ICSDateValue) -> ZoneOffsets {
        switch value.form {
        case .utc: return utc
        case .date, .floating: return local
        case .zoned(let tzid): return zone(forTZID: tzid)
        }
    }

    /// The instant of a DATE-TIME value (a DATE is read as local midnight).
    func instant(of value: ICSDateValue) -> Int {
        zone(for: value).utc(fromWall: value.wallSeconds)
    }

    /// A TZID's zone: a known IANA/Windows/Outlook name, else the file's VTIMEZONE of that name,
    /// else a fixed offset written in the name, else the local zone (read as floating).
    func zone(forTZID tzid: String) -> ZoneOffsets {
        // Most values of a file name the zone the previous one did (the reader gives each TZID
        // one shared string, so the comparison is usually of two identical strings).
        if let last, last.tzid == tzid { return last.zone }
        if let known = byTZID[tzid] {
            last = (tzid, known)
            return known
        }
        let resolved: ZoneOffsets
        if let id = ICSTimeZoneNames.ianaIdentifier(forTZID: tzid, in: database), let zone = database.zone(named: id) {
            if let shared = byIdentifier[id] {
                resolved = shared
            } else {
                resolved = ZoneOffsets(zone: zone)
                byIdentifier[id] = resolved
            }
        } else if let definition = definitions[tzid] ?? definitionsFolded[tzid.lowercased()]
                    ?? definitions[tzid.trimmingWhitespace()] {
            resolved = ZoneOffsets(definition: definition)
        } else if let offset = ICSTimeZoneNames.fixedOffset(forTZID: tzid) {
            resolved = ZoneOffsets(fixedOffset: offset)
        } else {
            resolved = local
        }
        byTZID[tzid] = resolved
        last = (tzid, resolved)
        return resolved
    }
}
