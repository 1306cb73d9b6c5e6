import FoundationEssentials

/// How to reach one CalDAV account: the address the person gave (or the one discovery settled
/// on), the login, and the TLS rules of every request to it (README, "Your real calendar").
package struct CalDAVEndpoint: Sendable, Equatable {
    /// An absolute `https://` (or loopback `http://`) address.
    package var url: String
    package var user: String?
    /// Never stored: read from `password_command` or standard input for each run.
    package var password: String?
    /// A PEM file of trusted certificate authorities used instead of the system's.
    package var caFile: String?
    /// Plain http:// to a host other than this machine was allowed (`--insecure`).
    package var insecure: Bool

    package init(url: String, user: String? = nil, password: String? = nil, caFile: String? = nil, insecure: Bool = false) {
        self.url = url
        self.user = user
        self.password = password
        self.caFile = caFile
        self.insecure = insecure
    }
}

/// What discovery found (RFC 6764 section 6, RFC 5397 `current-user-principal`, RFC 4791
/// section 6.2.1 `calendar-home-set`).
package struct CalDAVAccount: Sendable, Equatable {
    /// The context path discovery settled on (after `/.well-known/caldav` redirects).
    package var contextURL: String
    package var principalURL: String
    /// Absolute collection URLs, each ending in `/`.
    package var homeURLs: [String]
    /// The principal's `calendar-user-address-set` (RFC 6638 section 2.4.1): the person's own
    /// addresses (`mailto:alice@example.org`), for meetings they declined.
    package var addresses: [String]
    /// The principal's `schedule-inbox-URL` and `schedule-outbox-URL` (RFC 6638 section 2.2):
    /// never calendars of the person's time, whatever resource type the server gives them
    /// (DAViCal marks them as calendars).
    package var schedulingURLs: [String]

    package init(contextURL: String, principalURL: String, homeURLs: [String], addresses: [String] = [], schedulingURLs: [String] = []) {
        self.addresses = addresses
        self.schedulingURLs = schedulingURLs
        self.contextURL = contextURL
        self.principalURL = principalURL
        self.homeURLs = homeURLs
    }
}

/// One calendar collection of an account (RFC 4791 section 4.2).
package struct RemoteCalendar: Sendable, Equatable {
    /// Absolute collection URL, ending in `/`.
    package var url: String
    /// `DAV:displayname`, else the collection's last path segment (percent-decoded).
    package var displayName: String
    /// `supported-calendar-component-set` (`VEVENT`, `VTODO`, …), upper-cased; empty when the
    /// server does not say (then any component is allowed, RFC 4791 section 5.2.3).
    package var components: [String]
    /// `CS:getctag` when the server has it.
    package var ctag: String?
    /// `DAV:sync-token` (RFC 6578 section 4): nil when the collection does not report one.
    package var syncToken: String?
    /// `DAV:sync-collection` is in the collection's `supported-report-set`.
    package var supportsSync: Bool
    /// The collection is read-only for this login (no `DAV:write` / `bind` privilege) when
    /// the server reports `current-user-privilege-set`; nil when it does not.
    package var writable: Bool?
    /// The collection is a scheduling inbox or outbox (RFC 6638 section 2.2 and 2.1: its
    /// resource type has `schedule-inbox` or `schedule-outbox`), never a calendar of busy time,
    /// though some servers (DAViCal) give it the calendar resource type too.
    package var scheduling: Bool

    package init(url: String, displayName: String, components: [String] = [], ctag: String? = nil, syncToken: String? = nil,
                 supportsSync: Bool = false, writable: Bool? = nil, scheduling: Bool = false) {
        self.scheduling = scheduling
        self.url = url
        self.displayName = displayName
        self.components = components
        self.ctag = ctag
        self.syncToken = syncToken
        self.supportsSync = supportsSync
        self.writable = writable
    }

    /// Holds events: says VEVENT, or says nothing.
    package var holdsEvents: Bool { components.isEmpty || components.contains("VEVENT") }
}

/// One calendar object resource (RFC 4791 section 4.1): its absolute URL, its entity tag, and
/// its iCalendar text when it was asked for.
package struct RemoteResource: Sendable, Equatable {
    package var url: String
    package var etag: String?
    package var data: Data?

    package init(url: String, etag: String? = nil, data: Data? = nil) {
        self.url = url
        self.etag = etag
        self.data = data
    }
}

/// What changed in a collection since a sync token (RFC 6578 section 3.2).
package struct RemoteChanges: Sendable, Equatable {
    /// True when this is the whole collection (no token, a token the server no longer accepts
    /// (RFC 6578 section 3.8, `DAV:valid-sync-token`), or a server without sync-collection):
    /// every resource not in `changed` is gone.
    package var complete: Bool
    /// New or changed resources, with their data.
    package var changed: [RemoteResource]
    /// URLs of removed resources (empty when `complete`).
    package var removed: [String]
    /// The token to send next time; nil when the server has none.
    package var token: String?

    package init(complete: Bool, changed: [RemoteResource], removed: [String], token: String?) {
        self.complete = complete
        self.changed = changed
        self.removed = removed
        self.token = token
    }
}

/// A collection's members without their data, and the collection's own entity tag and sync
/// token, all from one answer (so they describe one state of it).
package struct CollectionListing: Sendable, Equatable {
    package var etag: String?
    package var token: String?
    /// Each member's address and entity tag (no data).
    package var members: [RemoteResource]

    package init(etag: String?, token: String?, members: [RemoteResource]) {
        self.etag = etag
        self.token = token
        self.members = members
    }
}

/// How a conditional write ended (RFC 9110 section 13.1.1 `If-Match`, 13.1.2 `If-None-Match`).
package enum RemoteWrite: Sendable, Equatable {
    /// Written; the new entity tag when the server sent one.
    case written(etag: String?)
    /// 412 Precondition Failed: the resource changed on the server (or exists, for a create).
    case changedOnServer
    /// 404 / 410: the resource is not there (a delete of what is already gone is not an error).
    case missing
}

/// A CalDAV account over HTTP. Failures to get any answer are `.unavailable` (69), a refused
/// login too (with a sentence about the password); an answer that is not the XML asked for is
/// `.badInput` (65).
package protocol CalDAVClient: Sendable {
    /// Follows RFC 6764: the URL as given, then `/.well-known/caldav`, to the principal and
    /// its calendar home(s).
    func discover(_ endpoint: CalDAVEndpoint) throws(FocusError) -> CalDAVAccount
    /// The calendar collections in the account's homes (PROPFIND Depth 1).
    func calendars(_ account: CalDAVAccount, _ endpoint: CalDAVEndpoint) throws(FocusError) -> [RemoteCalendar]
    /// The collection's own properties (PROPFIND Depth 0): a calendar's ctag and sync token.
    func calendar(at url: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteCalendar
    /// The events overlapping [from, to) with their data: a `calendar-query` REPORT with a
    /// `time-range` filter (RFC 4791 section 7.8).
    func events(in calendarURL: String, from: Date, to: Date, _ endpoint: CalDAVEndpoint) throws(FocusError) -> [RemoteResource]
    /// Changes since `token` (nil: the initial sync): `sync-collection` (RFC 6578) then a
    /// `calendar-multiget` (RFC 4791 section 7.9) for the changed ones. Falls back to the whole
    /// collection (`complete`) when the token is refused or sync-collection is not supported.
    func changes(in calendarURL: String, since token: String?, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteChanges
    /// The members at `urls` with their data (a `calendar-multiget` REPORT, RFC 4791 section
    /// 7.9), and the URLs of those that are gone.
    func resources(at urls: [String], in calendarURL: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> (found: [RemoteResource], gone: [String])
    /// PUT one calendar object: `ifMatch` nil creates (`If-None-Match: *`), else replaces only
    /// that version.
    func put(_ url: String, ics: Data, ifMatch: String?, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite
    /// DELETE one calendar object, only the version `ifMatch` when given.
    func delete(_ url: String, ifMatch: String?, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite
    /// The members of a collection with their entity tags, and the collection's own entity tag
    /// and sync token (PROPFIND Depth 1, RFC 4918 section 9.1).
    func members(of calendarURL: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> CollectionListing
    /// Every member of a collection written in one request: a PUT of one iCalendar object to the
    /// collection itself, replacing what it holds, only the version `ifMatch` (the collection's
    /// entity tag). Not part of CalDAV but a server's extension (Radicale's); nil when the server
    /// does not take it, and the members are then written one by one.
    func replaceCollection(_ calendarURL: String, ics: Data, ifMatch: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite?
    /// MKCALENDAR (RFC 4791 section 5.3.1) with a display name and the components it may hold
    /// (`VEVENT`, `VTODO`); `.changedOnServer` when something already exists there.
    func makeCalendar(_ url: String, displayName: String, components: [String], _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite
    /// PUTs and DELETEs sent several at once where the client can (a first sync's thousands).
    func writes(_ endpoint: CalDAVEndpoint) -> any RemoteWrites
}

/// One write of a set sent together (`CalDAVClient.writes`).
package enum RemoteWriteRequest: Sendable, Equatable {
    /// A PUT as `CalDAVClient.put` sends it.
    case put(url: String, ics: Data, ifMatch: String?)
    /// A DELETE as `CalDAVClient.delete` sends it.
    case delete(url: String, ifMatch: String?)
}

/// How one write of a set ended: what `put` or `delete` would have returned or thrown, and,
/// for a server that pushed back (503 Service Unavailable, 429 Too Many Requests), its status
/// and `Retry-After` value.
package struct RemoteWriteCompletion: Sendable {
    package var tag: Int
    package var result: Result<RemoteWrite, FocusError>
    /// 503 or 429; nil for any other answer.
    package var pushBack: Int?
    package var retryAfter: String?

    package init(tag: Int, result: Result<RemoteWrite, FocusError>, pushBack: Int? = nil, retryAfter: String? = nil) {
        self.tag = tag
        self.result = result
        self.pushBack = pushBack
        self.retryAfter = retryAfter
    }
}

/// Writes kept in flight together (at most `HTTPTransfersLimit.slots`), collected as each
/// completes. Used from one thread.
package protocol RemoteWrites: AnyObject {
    func start(_ write: RemoteWriteRequest, tag: Int)
    /// The next completed write, waiting at most `seconds` (nil: until one completes); nil when
    /// none completed in that time or none is in flight.
    func next(waitingAtMost seconds: Double?) -> RemoteWriteCompletion?
    var inFlight: Int { get }
}

/// `RemoteWrites` one at a time over `put` and `delete`; waiting with nothing in flight is
/// `pause`'s (FocusSystem's `sleepSeconds`, which also makes this the default `writes`).
package final class SerialRemoteWrites: RemoteWrites {
    private let client: any CalDAVClient
    private let endpoint: CalDAVEndpoint
    private let pause: (Double) -> Void
    private var waiting: [(write: RemoteWriteRequest, tag: Int)] = []

    package init(client: any CalDAVClient, endpoint: CalDAVEndpoint, pause: @escaping (Double) -> Void) {
        self.client = client
        self.endpoint = endpoint
        self.pause = pause
    }

    package func start(_ write: RemoteWriteRequest, tag: Int) { waiting.append((write, tag)) }

    package var inFlight: Int { waiting.count }

    package func next(waitingAtMost seconds: Double?) -> RemoteWriteCompletion? {
        guard !waiting.isEmpty else {
            if let seconds, seconds > 0 { pause(seconds) }
            return nil
        }
        let (write, tag) = waiting.removeFirst()
        do throws(FocusError) {
            switch write {
            case let .put(url, ics, ifMatch):
                return RemoteWriteCompletion(tag: tag, result: .success(try client.put(url, ics: ics, ifMatch: ifMatch, endpoint)))
            case let .delete(url, ifMatch):
                return RemoteWriteCompletion(tag: tag, result: .success(try client.delete(url, ifMatch: ifMatch, endpoint)))
            }
        } catch {
            return RemoteWriteCompletion(tag: tag, result: .failure(error))
        }
    }
}

extension CalDAVClient {
    /// The members at `urls` read from the whole collection: for clients without a multiget.
    package func resources(at urls: [String], in calendarURL: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> (found: [RemoteResource], gone: [String]) {
        let wanted = Set(urls)
        let found = try changes(in: calendarURL, since: nil, endpoint).changed.filter { wanted.contains($0.url) }
        let present = Set(found.map(\.url))
        return (found, urls.filter { !present.contains($0) })
    }

    /// MKCALENDAR of a calendar for events.
    package func makeCalendar(_ url: String, displayName: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite {
        try makeCalendar(url, displayName: displayName, components: ["VEVENT"], endpoint)
    }
}
