import FocusText
import FoundationEssentials

/// The decisions of a connected CalDAV account, apart from the network and the store
/// (README, "Your real calendar").
package enum CalDAVChoice {
    /// The calendars that count as busy time: those named (display name or last path segment,
    /// case-insensitively, each name once), else every calendar that holds events. A name that
    /// matches none is refused with the names there are.
    package static func busyCalendars(_ calendars: [RemoteCalendar], named names: [String]) throws(FocusError) -> [RemoteCalendar] {
        let calendars = usable(calendars)
        guard !names.isEmpty else { return calendars.filter(\.holdsEvents) }
        var chosen: [RemoteCalendar] = []
        for name in names {
            guard let match = calendar(named: name, in: calendars) else {
                let there = calendars.map { "'\($0.displayName)'" }.joined(separator: ", ")
                throw FocusError.usage("the account has no calendar named '\(name)'\(there.isEmpty ? " (it has none)" : "; it has \(there)").")
            }
            guard match.holdsEvents else {
                throw FocusError.usage("calendar '\(match.displayName)' holds only \(match.components.joined(separator: ", ")), no events: it cannot count as busy time.")
            }
            if !chosen.contains(where: { $0.url == match.url }) { chosen.append(match) }
        }
        return chosen
    }

    /// The calendar a name means: its display name, else its last path segment, compared as
    /// task titles are (case-insensitively, NFC).
    /// A display name stored with its XML character references escaped once too often (DAViCal
    /// keeps `Work &amp; Life` for `Work & Life`) matches either way: both sides are compared
    /// after decoding once more.
    package static func calendar(named name: String, in calendars: [RemoteCalendar]) -> RemoteCalendar? {
        let calendars = calendars.filter { !$0.scheduling }
        let key = TaskCatalog.key(name), decoded = TaskCatalog.key(decodingReferences(name))
        return calendars.first { TaskCatalog.key($0.displayName) == key }
            ?? calendars.first { TaskCatalog.key(decodingReferences($0.displayName)) == decoded }
            ?? calendars.first { TaskCatalog.key(lastSegment($0.url)) == key }
    }

    /// The calendars focus publishes the plan into that are left out of busy time (README, "A
    /// CalDAV account"): every one, unless the person named the calendars that count at
    /// connect (then the names decide, and a published calendar named counts).
    package static func leftOut(published: [String], names: [String]?) -> Set<String> {
        (names ?? []).isEmpty ? Set(published) : []
    }

    /// The calendars of a home listing a person has: scheduling inboxes and outboxes left out
    /// (RFC 6638), display names with XML character references decoded once more (DAViCal).
    package static func usable(_ found: [RemoteCalendar]) -> [RemoteCalendar] {
        found.filter { !$0.scheduling }.map { calendar in
            var calendar = calendar
            calendar.displayName = decodingReferences(calendar.displayName)
            return calendar
        }
    }

    /// `Work &amp; Life` → `Work & Life`: the five entity references and numeric character
    /// references of XML 1.0 (section 4.1, 4.6) decoded once; anything else kept as it is.
    package static func decodingReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let name = after[..<semi]
            var decoded: String?
            switch name {
            case "amp": decoded = "&"
            case "lt": decoded = "<"
            case "gt": decoded = ">"
            case "quot": decoded = "\""
            case "apos": decoded = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                }
            }
            if let decoded {
                out += decoded
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }

    /// What a refresh of a connected account changes in the calendars that count as busy time
    /// (README, "A CalDAV account"), given the home set's listing now: the rule of `connect`
    /// (`names` empty: every calendar that holds events; else those named), never a calendar the
    /// person removed (`excluded`) or the one focus syncs through; `names` nil (an account
    /// connected before focus remembered the choice): only those connected, so none is added.
    package static func reconcile(found: [RemoteCalendar], connected: [String], names: [String]?, excluded: Set<String>,
                                  syncURL: String?) -> AccountCalendarChanges {
        let calendars = usable(found).filter { $0.url != syncURL && !excluded.contains($0.url) && $0.holdsEvents }
        let wanted: [RemoteCalendar]
        if let names, !names.isEmpty {
            var urls = Set<String>()
            for name in names { if let match = calendar(named: name, in: calendars) { urls.insert(match.url) } }
            wanted = calendars.filter { urls.contains($0.url) }
        } else if names == nil {
            wanted = calendars.filter { connected.contains($0.url) }
        } else {
            wanted = calendars
        }
        let wantedURLs = Set(wanted.map(\.url))
        return AccountCalendarChanges(added: wanted.filter { !connected.contains($0.url) },
                                      removed: connected.filter { !wantedURLs.contains($0) })
    }

    /// `https://host/dav/alice/work/` → `work`.
    package static func lastSegment(_ url: String) -> String {
        let path = url.split(separator: "/", omittingEmptySubsequences: true)
        return path.last.flatMap(\.percentDecoded) ?? url
    }

    /// Where a new calendar named `name` is made in a home: a path segment of its letters and
    /// digits (lower-cased, others as `-`), never empty.
    package static func newCalendarURL(home: String, name: String) -> String {
        var slug = ""
        for scalar in name.lowercased().unicodeScalars {
            if scalar.isASCIIAlphanumeric { slug.unicodeScalars.append(scalar) } else if !slug.hasSuffix("-") { slug += "-" }
        }
        slug = slug.trimming(["-"])
        if slug.isEmpty { slug = "focus" }
        return (home.hasSuffix("/") ? home : home + "/") + slug + "/"
    }
}

/// The calendars a refresh of an account starts and stops reading.
package struct AccountCalendarChanges: Sendable, Equatable {
    /// Calendars of the account that count now and were not read before.
    package var added: [RemoteCalendar]
    /// The addresses of calendars read before that no longer count (gone from the account,
    /// renamed away from the names given at connect, or no longer holding events).
    package var removed: [String]

    package init(added: [RemoteCalendar], removed: [String]) {
        self.added = added
        self.removed = removed
    }

    package var isEmpty: Bool { added.isEmpty && removed.isEmpty }
}

/// An event focus put on a server, as it last wrote it.
package struct PublishedEvent: Sendable, Equatable {
    package enum Kind: String, Sendable { case block, session }
    package var uid: String
    package var kind: Kind
    package var url: String
    package var etag: String?
    /// A digest of what was written; a different one means the event must be written again.
    package var fingerprint: String
    /// The event's end: a block that has ended is history and stays on the calendar.
    package var end: Date
    /// The event's start as written (nil for events recorded before focus kept it): a copy on
    /// the server with other times was moved there.
    package var start: Date?
    /// `Publication.fingerprint` of the text a person reads in the event as focus wrote it
    /// (`ServerCopy.content`; nil: written before focus kept it): a copy there that reads
    /// otherwise was edited in the calendar.
    package var content: String?

    package init(uid: String, kind: Kind, url: String, etag: String?, fingerprint: String, end: Date, start: Date? = nil, content: String? = nil) {
        self.uid = uid
        self.kind = kind
        self.url = url
        self.etag = etag
        self.fingerprint = fingerprint
        self.end = end
        self.start = start
        self.content = content
    }

    /// Changed in the calendar by someone (not moved): left as it is, never written again.
    package var leftToThePerson: Bool { fingerprint == Publication.leftFingerprint }
    /// The event as focus keeps it once it found it changed there: left to the person, never
    /// written over, and no edit of it said again (`Publication.review`).
    package var leftThere: PublishedEvent {
        var left = self
        left.fingerprint = Publication.leftFingerprint
        return left
    }
}

/// An event the plan (or the history) wants on the server.
package struct WantedEvent: Sendable, Equatable {
    package var uid: String
    package var kind: PublishedEvent.Kind
    package var fingerprint: String
    package var end: Date
    package var start: Date?
    /// Index into the caller's list of event texts.
    package var index: Int
    /// `PublishedEvent.content` of the text.
    package var content: String?

    package init(uid: String, kind: PublishedEvent.Kind, fingerprint: String, end: Date, index: Int, start: Date? = nil) {
        self.uid = uid
        self.kind = kind
        self.fingerprint = fingerprint
        self.end = end
        self.index = index
        self.start = start
    }
}

/// One write of a publication.
package enum PublishAction: Sendable, Equatable {
    case create(WantedEvent)
    case update(WantedEvent, PublishedEvent)
    case delete(PublishedEvent)
    /// No longer wanted, but changed there by someone: left in the calendar, no longer followed.
    case forget(PublishedEvent)
}

/// What publishing the plan writes: every wanted event that is new or changed, and a delete
/// for every event focus wrote that is no longer wanted, except blocks that have already ended
/// (the calendar keeps them as the record of the day). focus only ever touches events it
/// published (README: it never changes or deletes an event it did not create).
package enum Publication {
    package static func actions(wanted: [WantedEvent], published: [PublishedEvent], now: Date) -> [PublishAction] {
        var byUID: [String: PublishedEvent] = [:]
        for event in published { byUID[event.uid] = event }
        var actions: [PublishAction] = []
        var kept = Set<String>()
        for want in wanted {
            kept.insert(want.uid)
            if let existing = byUID[want.uid] {
                if existing.fingerprint != want.fingerprint, !existing.leftToThePerson { actions.append(.update(want, existing)) }
            } else {
                actions.append(.create(want))
            }
        }
        for event in published.sorted(by: { $0.uid < $1.uid }) where !kept.contains(event.uid) {
            if event.kind == .block, event.end <= now { continue }
            actions.append(event.leftToThePerson ? .forget(event) : .delete(event))
        }
        return actions
    }

    /// The fingerprint of an event someone changed in the calendar (not a move): focus leaves it.
    package static let leftFingerprint = "left"

    /// A planned block's UID in a published calendar (and `calendar export`):
    /// `focus-block-<subtask>-<local day YYYYMMDD>-<n>@focus`, n counting the subtask's blocks
    /// of that day from 1 in start order. `<subtask>` names the same work on every machine: the
    /// subtask's sync name (README, "Two machines") when it has one, else this machine's
    /// publisher name and the subtask's local id, which no other machine uses. Without either
    /// (an export from an unsynced database) the older local form `<id>-<YYYYMMDD>-<n>@focus`.
    package static func blockUID(subtaskSyncUID: String?, publisher: String?, subtaskID: Int64, day: LocalDate, ordinal: Int) -> String {
        let compact = day.description.replacing("-", with: "")
        if let name = subtaskSyncUID.flatMap(syncName) { return "focus-block-\(name)-\(compact)-\(ordinal)@focus" }
        if let publisher { return "focus-block-\(publisher)-\(subtaskID)-\(compact)-\(ordinal)@focus" }
        return "\(subtaskID)-\(compact)-\(ordinal)@focus"
    }

    /// `focus-subtask-<hex>@focus` → `<hex>`; another form is used whole, made safe for a UID.
    private static func syncName(_ uid: String) -> String? {
        var core = Substring(uid)
        if core.hasPrefix("focus-subtask-") { core = core.dropFirst("focus-subtask-".count) }
        if core.hasSuffix("@focus") { core = core.dropLast("@focus".count) }
        let safe = String(core.unicodeScalars.filter { $0.isASCIIAlphanumeric || $0 == "-" })
        return safe.isEmpty ? nil : safe
    }

    /// The resource name of an event in its calendar: its UID made safe for a path.
    package static func resourceURL(calendar: String, uid: String) -> String {
        var name = ""
        for scalar in uid.unicodeScalars {
            if scalar.isASCIIAlphanumeric || "-_.".unicodeScalars.contains(scalar) {
                name.unicodeScalars.append(scalar)
            } else {
                name += "_"
            }
        }
        return (calendar.hasSuffix("/") ? calendar : calendar + "/") + name + ".ics"
    }

    /// Where a server that names members after their UIDs (Radicale, for the members of a
    /// whole-collection write) puts an item: `<UID>.ics`, the UID percent-encoded (RFC 3986:
    /// only unreserved characters as they are).
    package static func memberURL(calendar: String, uid: String) -> String {
        let name = uid.percentEncoded(keeping: String.isUnreserved)
        return (calendar.hasSuffix("/") ? calendar : calendar + "/") + name + ".ics"
    }

    /// A stable digest of an event's text (FNV-1a, 64 bits) without its DTSTAMP line, which
    /// changes with every write.
    package static func fingerprint(_ text: String) -> String {
        var hash = FNV1a()
        for line in text.split(separator: "\r\n") where !line.hasPrefix("DTSTAMP:") {
            hash.add(line.utf8)
            hash.add(CollectionOfOne(0x0A))
        }
        return String(hash.value, radix: 16)
    }
}

/// Splits a `password_command` into its words the way a POSIX shell splits a simple command
/// (single quotes, double quotes with `\` before `"`, `\`, `$` and `` ` ``, and backslash
/// escapes), so it runs without a shell: no expansion, no pipes, no redirections.
package enum CommandLineWords {
    package static func split(_ text: String) throws(FocusError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = Array(text.unicodeScalars).makeIterator()
        enum Quote { case none, single, double }
        var quote = Quote.none
        while let c = iterator.next() {
            switch quote {
            case .single:
                if c == "'" { quote = .none } else { current.unicodeScalars.append(c) }
            case .double:
                if c == "\"" {
                    quote = .none
                } else if c == "\\" {
                    guard let next = iterator.next() else { throw unclosed(text) }
                    if !"\"\\$`".unicodeScalars.contains(next) { current += "\\" }
                    current.unicodeScalars.append(next)
                } else {
                    current.unicodeScalars.append(c)
                }
            case .none:
                switch c {
                case " ", "\t", "\n":
                    if inWord { words.append(current) }
                    current = ""
                    inWord = false
                case "'":
                    quote = .single
                    inWord = true
                case "\"":
                    quote = .double
                    inWord = true
                case "\\":
                    guard let next = iterator.next() else { throw unclosed(text) }
                    current.unicodeScalars.append(next)
                    inWord = true
                default:
                    current.unicodeScalars.append(c)
                    inWord = true
                }
            }
        }
        guard quote == .none else { throw unclosed(text) }
        if inWord { words.append(current) }
        guard !words.isEmpty else {
            throw FocusError.invalidValue(what: "password command", value: text, expected: "a program and its arguments, e.g. 'pass show caldav/fastmail'")
        }
        return words
    }

    private static func unclosed(_ text: String) -> FocusError {
        .invalidValue(what: "password command", value: text, expected: "a command line whose quotes are closed (it runs without a shell)")
    }
}
