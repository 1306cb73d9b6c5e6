import FoundationEssentials

/// An event found in a published calendar (a member that changed since the last publication),
/// as far as publishing needs to know it (README, "Your real calendar"): read by
/// `PublishedCopyReader`, reviewed by Core's `Publication.review`.
package struct ServerCopy: Sendable, Equatable {
    package var url: String
    package var etag: String?
    package var uid: String
    /// Written by focus (it has `X-FOCUS-BLOCK` or `X-FOCUS-SESSION`), on this machine or another.
    package var byFocus: Bool
    /// A planned block (`X-FOCUS-BLOCK`).
    package var isBlock: Bool
    /// `X-FOCUS-PUBLISHER`: the name of the focus that wrote it (nil: none, an older focus).
    package var publisher: String?
    /// `X-FOCUS-HOST`: the machine that focus ran on, for messages.
    package var host: String?
    /// Its start and end; nil when it is not a timed event.
    package var time: DateInterval?
    package var cancelled: Bool
    /// What a person reads in it: its summary, description and location, one after another
    /// (`PublishedCopyReader.content`).
    package var content: String = ""

    package init(url: String, etag: String?, uid: String, byFocus: Bool, isBlock: Bool, publisher: String?, host: String?,
                 time: DateInterval?, cancelled: Bool) {
        self.url = url
        self.etag = etag
        self.uid = uid
        self.byFocus = byFocus
        self.isBlock = isBlock
        self.publisher = publisher
        self.host = host
        self.time = time
        self.cancelled = cancelled
    }
}

/// One calendar object of a calendar focus publishes to, read back (README, "Your real
/// calendar"): what publishing needs to know of it to tell a moved block from a deleted or
/// edited one, and its own events from another machine's.
package enum PublishedCopyReader {
    /// What the object at `url` (version `etag`) says: its first event; nil when it holds no
    /// event that reads.
    package static func copy(data: Data, url: String, etag: String?, local: LocalCalendar) -> ServerCopy? {
        let text = String(decoding: data, as: UTF8.self)
        guard let document = try? ICSReader.parse(text),
              let event = document.events.first(where: { $0.recurrenceID == nil }) ?? document.events.first else { return nil }
        var time: DateInterval?
        if !event.start.isDate {
            let resolver = ZoneResolver(local: local, definitions: document.timeZones)
            let start = resolver.instant(of: event.start)
            var end = start
            if let e = event.end, !e.isDate { end = resolver.instant(of: e) } else if let d = event.duration, !d.negative { end = start + ((d.weeks * 7 + d.days) * 24 + d.hours) * 3600 + d.minutes * 60 + d.seconds }
            if end > start { time = DateInterval(start: Date(timeIntervalSince1970: Double(start)), end: Date(timeIntervalSince1970: Double(end))) }
        }
        let block = property("X-FOCUS-BLOCK", in: text) != nil
        var copy = ServerCopy(url: url, etag: etag, uid: event.uid, byFocus: event.publishedByFocus, isBlock: block,
                              publisher: property("X-FOCUS-PUBLISHER", in: text), host: property("X-FOCUS-HOST", in: text),
                              time: time, cancelled: event.cancelled)
        copy.content = content(of: event)
        return copy
    }

    /// The text a person reads in an event, its values as read (unfolded, unescaped: RFC 5545
    /// section 3.3.11), so that a server that writes the same event in other lines reads alike.
    static func content(of event: ICSEvent) -> String {
        [event.summary, event.description ?? "", event.location ?? ""].joined(separator: "\u{1F}")
    }

    /// The value of the first property of that name (no parameters, one physical line, as focus
    /// writes its own), upper or lower case alike.
    static func property(_ name: String, in text: String) -> String? {
        let prefix = name.uppercased() + ":"
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) where line.uppercased().hasPrefix(prefix) {
            let value = line.dropFirst(prefix.count).filter { $0 != " " && $0 != "\t" }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }
}
