// scripts/torture/fuzz compiles this file into one module with FocusCore's sources.
#if canImport(FocusCore)
import FocusText
import FocusCore
#endif
import FoundationEssentials

/// `CalDAVClient` over any `HTTPClient`: WebDAV (RFC 4918) and CalDAV (RFC 4791) requests with
/// XML bodies, their multistatus answers read by `XMLReader`, collection sync (RFC 6578).
///
/// Redirects are followed here, not by libcurl, so that a PROPFIND or REPORT keeps its method
/// and body (RFC 6764 section 5 sends `/.well-known/caldav` on with a 301 or 302), never from
/// https down to http, nor to any scheme but http(s).
///
/// The origin rule (README, "What focus promises"): the login, and every write, go only to the
/// origin (RFC 6454: scheme, host and port) of the account's address. A read redirected to
/// another origin goes there without the login; a write is refused. An href in a multistatus
/// outside that origin, or outside the collection being read (after its `..` segments are
/// resolved, RFC 3986 section 5.2.4), is ignored with a warning.
package struct CalDAVHTTPClient: CalDAVClient {
    package let http: any HTTPClient
    /// Hrefs per `calendar-multiget` REPORT.
    package var multigetBatch: Int
    /// Where a warning goes (an href ignored by the origin rule).
    package var warn: @Sendable (String) -> Void

    package init(http: any HTTPClient, multigetBatch: Int = 100, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.http = http
        self.multigetBatch = max(1, multigetBatch)
        self.warn = warn
    }

    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"
    static let calendarServer = "http://calendarserver.org/ns/"

    // MARK: Discovery

    package func discover(_ endpoint: CalDAVEndpoint) throws(FocusError) -> CalDAVAccount {
        let start = try CalendarFeed.address(endpoint.url, insecure: endpoint.insecure)
        let principal: (url: String, context: String, homes: [String])
        do {
            principal = try locatePrincipal(start, endpoint)
        } catch {
            // An iCalendar address given where a CalDAV account belongs: say which command reads it.
            if isFeed(start, endpoint) {
                throw .usage("\(CalendarFeed.shownAddress(start)) is an iCalendar feed (a GET answers with a calendar file), not a CalDAV account: subscribe to it with `focus calendar subscribe '\(DisplayText(start).string)'`.")
            }
            throw error
        }
        var homes = principal.homes
        // The principal's own addresses (RFC 6638 section 2.4.1) come with its home set; when the
        // home set is known already, a server that will not say them is no failure.
        let body = Self.propfind(["<c:calendar-home-set/>", "<c:calendar-user-address-set/>", "<c:schedule-inbox-URL/>", "<c:schedule-outbox-URL/>"])
        let answer = homes.isEmpty ? try multistatus("PROPFIND", principal.url, depth: "0", body: body, endpoint)
            : try? multistatus("PROPFIND", principal.url, depth: "0", body: body, endpoint)
        if homes.isEmpty, let answer {
            homes = onOrigin(answer.responses.flatMap { $0.property(Self.caldav, "calendar-home-set")?.children(Self.dav, "href") ?? [] }
                .map { Self.collection(Self.resolve($0.trimmedText, against: answer.url)) }, endpoint, what: "a calendar home")
        }
        let addresses = answer?.responses.flatMap { $0.property(Self.caldav, "calendar-user-address-set")?.children(Self.dav, "href") ?? [] }
            .map(\.trimmedText).filter { $0.lowercased().hasPrefix("mailto:") } ?? []
        // Its scheduling inbox and outbox (RFC 6638 section 2.2), whatever type they are listed with.
        let scheduling = answer.map { answer in
            answer.responses.flatMap { item in
                ["schedule-inbox-URL", "schedule-outbox-URL"].flatMap { item.property(Self.caldav, $0)?.children(Self.dav, "href") ?? [] }
            }.map { Self.collection(Self.resolve($0.trimmedText, against: answer.url)) }
        } ?? []
        if homes.isEmpty {
            // A principal without a home set: some servers keep calendars under the principal.
            homes = [Self.collection(principal.url)]
        }
        var seen = Set<String>()
        return CalDAVAccount(contextURL: principal.context, principalURL: principal.url, homeURLs: homes.filter { seen.insert($0).inserted },
                             addresses: addresses, schedulingURLs: scheduling)
    }

    /// Whether `url` answers a GET with an iCalendar file (a feed, README "Your real calendar").
    private func isFeed(_ url: String, _ endpoint: CalDAVEndpoint) -> Bool {
        let request = HTTPRequest(url: url, headers: [HTTPHeader("Accept", "text/calendar, */*;q=0.5")], caFile: endpoint.caFile)
        guard let response = try? http.get(request), (200..<300).contains(response.status) else { return false }
        let text = response.body.prefix(64).drop { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0D, 0x0A].contains($0) }
        return String(decoding: text.prefix(15), as: UTF8.self).uppercased() == "BEGIN:VCALENDAR"
    }

    /// The principal and its homes when the discovery answer has them (RFC 6764 section 6).
    private func locatePrincipal(_ start: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> (url: String, context: String, homes: [String]) {
        let body = Self.propfind(["<d:current-user-principal/>", "<c:calendar-home-set/>"])
        var principal: (url: String, context: String, homes: [String])?
        // RFC 6764 section 6: the address as given first (it is often the context path
        // itself), then the well-known one on its host.
        do {
            principal = try findPrincipal(at: start, body: body, endpoint)
        } catch {
            // Only an answer that is not a multistatus sends discovery on.
            guard case .badInput = error else { throw error }
        }
        if principal == nil {
            let wellKnown = Self.origin(start) + "/.well-known/caldav"
            do {
                principal = try findPrincipal(at: wellKnown, body: body, endpoint)
            } catch {
                // Only an answer that is not a multistatus sends discovery on.
            guard case .badInput = error else { throw error }
            }
        }
        guard let principal else {
            throw .unavailable("\(CalendarFeed.shownAddress(start)) is not a CalDAV server: neither that address nor /.well-known/caldav on its host names a current-user-principal (RFC 5397). Give the CalDAV address your calendar provider documents.")
        }
        return principal
    }

    /// The principal named at `url` (nil when the answer names none), with the homes when the
    /// same answer has them. Throws `.badInput` for an answer that is not a multistatus.
    private func findPrincipal(at url: String, body: Data, _ endpoint: CalDAVEndpoint) throws(FocusError) -> (url: String, context: String, homes: [String])? {
        let (response, finalURL) = try send("PROPFIND", url, depth: "0", body: body, endpoint)
        guard response.status == 207 else {
            // A refused login or a failing server ends discovery; any other status (404, 405,
            // a 200 web page) means this is not the place, and the next one is tried.
            if response.status == 401 || response.status >= 500 { try judge(response, url: finalURL, method: "PROPFIND", endpoint) }
            return nil
        }
        let answer = try Self.readMultistatus(response, url: finalURL)
        let origin = Self.originKey(endpoint.url)
        for item in answer.responses {
            guard let href = item.property(Self.dav, "current-user-principal")?.child(Self.dav, "href") else { continue }
            let principal = Self.resolve(href.trimmedText, against: finalURL)
            let homes = item.property(Self.caldav, "calendar-home-set")?.children(Self.dav, "href")
                .map { Self.collection(Self.resolve($0.trimmedText, against: finalURL)) } ?? []
            guard Self.originKey(principal) == origin else {
                warnOutside([principal], scope: endpoint.url, what: "a principal")
                throw Self.elsewhere(principal, endpoint)
            }
            return (principal, finalURL, onOrigin(homes, endpoint, what: "a calendar home"))
        }
        return nil
    }

    // MARK: Calendars

    static let calendarProperties = [
        "<d:resourcetype/>", "<d:displayname/>", "<c:supported-calendar-component-set/>", "<cs:getctag/>",
        "<d:sync-token/>", "<d:supported-report-set/>", "<d:current-user-privilege-set/>",
    ]

    package func calendars(_ account: CalDAVAccount, _ endpoint: CalDAVEndpoint) throws(FocusError) -> [RemoteCalendar] {
        var found: [RemoteCalendar] = []
        var seen = Set<String>()
        for home in onOrigin(account.homeURLs, endpoint, what: "a calendar home") {
            let answer = try multistatus("PROPFIND", home, depth: "1", body: Self.propfind(Self.calendarProperties), endpoint)
            for item in within(answer.responses, Self.collection(home)) {
                guard var calendar = Self.calendar(item), seen.insert(calendar.url).inserted else { continue }
                if account.schedulingURLs.contains(calendar.url) { calendar.scheduling = true }
                found.append(calendar)
            }
        }
        return found
    }

    package func calendar(at url: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteCalendar {
        let answer = try multistatus("PROPFIND", url, depth: "0", body: Self.propfind(Self.calendarProperties), endpoint)
        let wanted = Self.collection(url)
        let item = answer.responses.first { Self.collection($0.url) == wanted } ?? answer.responses.first
        guard let item, var calendar = Self.calendar(item) else {
            throw .unavailable("\(CalendarFeed.shownAddress(url)) is not a calendar collection (its PROPFIND answer has no CalDAV calendar resource type).")
        }
        calendar.url = wanted
        return calendar
    }

    /// A calendar collection's properties (nil for anything else: the home itself, address
    /// books, inboxes without the calendar resource type; one with it is marked `scheduling`).
    static func calendar(_ item: DAVResponse) -> RemoteCalendar? {
        guard item.status.map({ (200..<300).contains($0) }) ?? true,
              let type = item.property(dav, "resourcetype"), type.child(caldav, "calendar") != nil else { return nil }
        let url = collection(item.url)
        var name = item.property(dav, "displayname")?.trimmedText ?? ""
        // A server without a name for the collection may answer with its path (Radicale does:
        // `alice/work`); the last segment is the name then, as for no name at all.
        let path = url.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" }.trimming(["/"])
        if name.isEmpty || name.trimming(["/"]) == path.percentDecoded ?? path {
            let segment = url.dropLast().split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? url
            name = segment.percentDecoded ?? segment
        }
        let components = item.property(caldav, "supported-calendar-component-set")?.children(caldav, "comp")
            .compactMap { $0.attributes["name"]?.uppercased() } ?? []
        let ctag = item.property(calendarServer, "getctag")?.trimmedText
        let token = item.property(dav, "sync-token")?.trimmedText
        let supportsSync = item.property(dav, "supported-report-set")?.children(dav, "supported-report")
            .contains { $0.child(dav, "report")?.child(dav, "sync-collection") != nil } ?? false
        var writable: Bool?
        if let privileges = item.property(dav, "current-user-privilege-set") {
            let names = Set(privileges.children(dav, "privilege").flatMap { $0.children.filter { $0.namespace == dav }.map(\.name) })
            writable = !names.isDisjoint(with: ["all", "write", "write-content", "bind"])
        }
        let scheduling = type.child(caldav, "schedule-inbox") != nil || type.child(caldav, "schedule-outbox") != nil
        return RemoteCalendar(url: url, displayName: name, components: components, ctag: ctag.flatMap { $0.isEmpty ? nil : $0 },
                              syncToken: token.flatMap { $0.isEmpty ? nil : $0 }, supportsSync: supportsSync, writable: writable,
                              scheduling: scheduling)
    }

    // MARK: Events

    package func events(in calendarURL: String, from: Date, to: Date, _ endpoint: CalDAVEndpoint) throws(FocusError) -> [RemoteResource] {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
              <d:prop><d:getetag/><c:calendar-data/></d:prop>
              <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">
                <c:time-range start="\(Self.utc(from))" end="\(Self.utc(to))"/>
              </c:comp-filter></c:comp-filter></c:filter>
            </c:calendar-query>
            """
        let answer = try multistatus("REPORT", calendarURL, depth: "1", body: Data(body.utf8), endpoint)
        let collection = Self.collection(calendarURL)
        return within(answer.responses, collection).compactMap { item in
            guard item.url != collection, item.status.map({ (200..<300).contains($0) }) ?? true else { return nil }
            return Self.resource(item)
        }
    }

    /// `20261123T080000Z` (RFC 4791 section 9.9: UTC date with time).
    static func utc(_ date: Date) -> String {
        String(Timestamp.utc(date).filter { $0 != "-" && $0 != ":" })
    }

    static func resource(_ item: DAVResponse) -> RemoteResource? {
        guard let data = item.property(caldav, "calendar-data") else { return nil }
        let etag = item.property(dav, "getetag")?.trimmedText
        // White space around a CDATA section is the XML's indentation, not the calendar's.
        let text = data.text.utf8.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return RemoteResource(url: item.url, etag: etag.flatMap { $0.isEmpty ? nil : $0 }, data: Data(text))
    }

    // MARK: Sync

    package func changes(in calendarURL: String, since token: String?, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteChanges {
        let collection = Self.collection(calendarURL)
        // Each member's last state (nil: removed), in the order first seen.
        var latest: [String: DAVResponse?] = [:]
        var order: [String] = []
        var current = token
        var rounds = 0
        while true {
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <d:sync-collection xmlns:d="DAV:">
                  \(current.map { "<d:sync-token>\(Self.escape($0))</d:sync-token>" } ?? "<d:sync-token/>")
                  <d:sync-level>1</d:sync-level>
                  <d:prop><d:getetag/></d:prop>
                </d:sync-collection>
                """
            // RFC 6578 section 3.2: the REPORT goes with Depth 0.
            let (response, finalURL) = try send("REPORT", calendarURL, depth: "0", body: Data(body.utf8), endpoint)
            if (400..<500).contains(response.status), response.status != 401 {
                // RFC 6578 section 3.8: a token the server no longer accepts (403 or 409 with
                // DAV:valid-sync-token, some servers any 4xx) means starting over; a 4xx to the
                // initial sync means no sync-collection here (501 comes below).
                if current != nil { return try changes(in: calendarURL, since: nil, endpoint) }
                return try wholeCollection(calendarURL, endpoint)
            }
            if response.status == 501 { return try wholeCollection(calendarURL, endpoint) }
            guard response.status == 207 else {
                try judge(response, url: finalURL, method: "REPORT", endpoint)
                throw Self.notMultistatus(response, url: finalURL)
            }
            let answer = try Self.readMultistatus(response, url: finalURL)
            var truncated = false
            for item in within(answer.responses, collection) {
                if item.url == collection {
                    // RFC 6578 section 3.6: 507 on the collection itself: more changes follow,
                    // asked for with the token of this answer.
                    truncated = truncated || item.status == 507
                    continue
                }
                let state: DAVResponse?
                if item.status == 404 || item.status == 410 {
                    state = nil
                } else if item.status.map({ (200..<300).contains($0) }) ?? true {
                    state = item
                } else {
                    continue
                }
                if latest.updateValue(state, forKey: item.url) == nil { order.append(item.url) }
            }
            let newToken = answer.root.child(Self.dav, "sync-token")?.trimmedText.nilIfEmpty
            rounds += 1
            if truncated, let newToken, newToken != current, rounds < 100 {
                current = newToken
                continue
            }
            let changed = order.compactMap { latest[$0] ?? nil }
            var removed = token == nil ? [] : order.filter { url in
                if case .some(.none) = latest[url] { return true }
                return false
            }
            let (resources, gone) = try multiget(calendarURL, changed, endpoint)
            if token != nil { removed += gone }
            return RemoteChanges(complete: token == nil, changed: resources, removed: removed, token: newToken)
        }
    }

    package func resources(at urls: [String], in calendarURL: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> (found: [RemoteResource], gone: [String]) {
        let items = urls.map { DAVResponse(href: Self.path($0), url: $0, status: nil, properties: []) }
        let (found, gone) = try multiget(calendarURL, items, endpoint)
        // A member the server leaves out of its answer is not there either.
        let answered = Set(found.map(\.url)).union(gone)
        return (found, gone + urls.filter { !answered.contains($0) })
    }

    /// Every resource of the collection: PROPFIND Depth 1 for the hrefs, then multiget (a
    /// server without sync-collection).
    private func wholeCollection(_ calendarURL: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteChanges {
        let answer = try multistatus("PROPFIND", calendarURL, depth: "1", body: Self.propfind(["<d:getetag/>", "<d:resourcetype/>"]), endpoint)
        let collection = Self.collection(calendarURL)
        let members = within(answer.responses, collection).filter { item in
            item.url != collection && item.status.map { (200..<300).contains($0) } ?? true
                && item.property(Self.dav, "resourcetype")?.child(Self.dav, "collection") == nil
        }
        let (resources, _) = try multiget(calendarURL, members, endpoint)
        return RemoteChanges(complete: true, changed: resources, removed: [], token: nil)
    }

    /// The data of `items` (RFC 4791 section 7.9), `multigetBatch` hrefs per REPORT; also the
    /// URLs the server says are gone.
    private func multiget(_ calendarURL: String, _ items: [DAVResponse], _ endpoint: CalDAVEndpoint) throws(FocusError) -> ([RemoteResource], [String]) {
        var resources: [RemoteResource] = []
        var gone: [String] = []
        var start = 0
        while start < items.count {
            let batch = items[start..<min(start + multigetBatch, items.count)]
            start += batch.count
            var body = """
                <?xml version="1.0" encoding="utf-8"?>
                <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
                  <d:prop><d:getetag/><c:calendar-data/></d:prop>

                """
            for item in batch { body += "  <d:href>\(Self.escape(item.href))</d:href>\n" }
            body += "</c:calendar-multiget>\n"
            let answer = try multistatus("REPORT", calendarURL, depth: "1", body: Data(body.utf8), endpoint)
            for item in within(answer.responses, Self.collection(calendarURL)) {
                if item.status == 404 || item.status == 410 {
                    gone.append(item.url)
                } else if let resource = Self.resource(item) {
                    resources.append(resource)
                }
            }
        }
        return (resources, gone)
    }

    // MARK: Writes

    package func put(_ url: String, ics: Data, ifMatch: String?, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite {
        let condition = ifMatch.map { HTTPHeader("If-Match", $0) } ?? HTTPHeader("If-None-Match", "*")
        let (response, finalURL) = try send("PUT", url, body: ics, contentType: "text/calendar; charset=utf-8", headers: [condition], endpoint)
        return try written(response, url: finalURL, method: "PUT", endpoint)
    }

    package func delete(_ url: String, ifMatch: String?, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite {
        let (response, finalURL) = try send("DELETE", url, headers: ifMatch.map { [HTTPHeader("If-Match", $0)] } ?? [], endpoint)
        return try written(response, url: finalURL, method: "DELETE", endpoint)
    }

    package func members(of calendarURL: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> CollectionListing {
        let collection = Self.collection(calendarURL)
        let answer = try multistatus("PROPFIND", collection, depth: "1",
                                     body: Self.propfind(["<d:getetag/>", "<d:resourcetype/>", "<d:sync-token/>"]), endpoint)
        var listing = CollectionListing(etag: nil, token: nil, members: [])
        for item in within(answer.responses, collection) where item.status.map({ (200..<300).contains($0) }) ?? true {
            let etag = item.property(Self.dav, "getetag")?.trimmedText.nilIfEmpty
            if Self.collection(item.url) == collection {
                listing.etag = etag
                listing.token = item.property(Self.dav, "sync-token")?.trimmedText.nilIfEmpty
            } else if item.property(Self.dav, "resourcetype")?.child(Self.dav, "collection") == nil {
                listing.members.append(RemoteResource(url: item.url, etag: etag))
            }
        }
        return listing
    }

    package func replaceCollection(_ calendarURL: String, ics: Data, ifMatch: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite? {
        let (response, finalURL) = try send("PUT", Self.collection(calendarURL), body: ics, contentType: "text/calendar; charset=utf-8",
                                            headers: [HTTPHeader("If-Match", ifMatch)], endpoint)
        switch response.status {
        case 200..<300, 412, 401:
            return try written(response, url: finalURL, method: "PUT", endpoint)
        default:
            // 405 (RFC 4918 section 9.7.2: a PUT to a collection is undefined), 403, 409, 415,
            // 400, a failing 5xx …: not a way to write this server's collections. The members
            // are written one by one, which says what is wrong if anything is.
            return nil
        }
    }

    package func makeCalendar(_ url: String, displayName: String, components: [String], _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite {
        let set = components.map { "<c:comp name=\"\(Self.escape($0))\"/>" }.joined()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
              <d:set><d:prop>
                <d:displayname>\(Self.escape(displayName))</d:displayname>
                <c:supported-calendar-component-set>\(set)</c:supported-calendar-component-set>
              </d:prop></d:set>
            </c:mkcalendar>
            """
        let (response, finalURL) = try send("MKCALENDAR", Self.collection(url), body: Data(body.utf8), endpoint)
        // RFC 4791 section 5.3.1: something already there fails DAV:resource-must-be-null;
        // servers answer 405 (RFC 4918 section 9.3.1, as for MKCOL), or 403 or 409 with that
        // element (Radicale: 409).
        if response.status == 405 || ([403, 409].contains(response.status) && String(decoding: response.body, as: UTF8.self).contains("resource-must-be-null")) {
            return .changedOnServer
        }
        return try written(response, url: finalURL, method: "MKCALENDAR", endpoint)
    }

    func written(_ response: HTTPResponse, url: String, method: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite {
        switch response.status {
        case 200..<300: return .written(etag: response.headers["etag"].flatMap { $0.isEmpty ? nil : $0 })
        case 412: return .changedOnServer
        case 404, 410: return .missing
        default:
            try judge(response, url: url, method: method, endpoint)
            throw .unavailable("\(CalendarFeed.shownAddress(url)) refused the \(method) (HTTP \(response.status))\(Self.reason(response)).")
        }
    }

    // MARK: Requests

    /// A request's multistatus answer, read; anything else thrown as a sentence.
    private func multistatus(_ method: String, _ url: String, depth: String, body: Data, _ endpoint: CalDAVEndpoint) throws(FocusError) -> Multistatus {
        let (response, finalURL) = try send(method, url, depth: depth, body: body, endpoint)
        guard response.status == 207 else {
            try judge(response, url: finalURL, method: method, endpoint)
            throw Self.notMultistatus(response, url: finalURL)
        }
        return try Self.readMultistatus(response, url: finalURL)
    }

    /// Throws the sentence for a status that is a failure (401, 403, 404, 5xx…); returns for
    /// the others, which the caller judges.
    private func judge(_ response: HTTPResponse, url: String, method: String, _ endpoint: CalDAVEndpoint) throws(FocusError) {
        let host = CalendarFeed.host(of: url)
        let shown = CalendarFeed.shownAddress(url)
        switch response.status {
        case 401:
            if let user = endpoint.user {
                throw .unavailable("\(host) refused the login for user \(user) (HTTP 401): check the user name and the password (an app password for an account with two-step sign-in, as iCloud, Google and Fastmail ask).")
            }
            throw .unavailable("\(host) asks for a login (HTTP 401): give the user name of the calendar account, and its password.")
        case 403:
            throw .unavailable("\(shown) refused the \(method) for \(endpoint.user.map { "user \($0)" } ?? "this login") (HTTP 403): the account has no access there.")
        case 404, 410:
            throw .unavailable("\(shown) has nothing there (HTTP \(response.status)): the calendar or account was removed or moved.")
        case 500..<600:
            throw .unavailable("\(shown) failed (HTTP \(response.status)) answering \(method)\(Self.reason(response)): try again later.")
        default:
            return
        }
    }

    static func reason(_ response: HTTPResponse) -> String {
        let text = String(decoding: response.body.prefix(2000), as: UTF8.self)
        guard !(response.headers["content-type"] ?? "").lowercased().contains("html"), !text.contains("<") else { return "" }
        let line = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingSpaces() } ?? ""
        return line.isEmpty ? "" : ": \(line.prefix(200))"
    }

    static func notMultistatus(_ response: HTTPResponse, url: String) -> FocusError {
        if isWebPage(response) { return webPage(url) }
        return .badInput(file: CalendarFeed.shownAddress(url), line: nil,
                  reason: "the server answered HTTP \(response.status) where a WebDAV multistatus (207) was expected: the address is not a CalDAV collection, or a proxy or login page is in the way.")
    }

    /// One request, its redirects followed here (at most `maximumRedirects`, never from https to
    /// http, never to another scheme, to plain http only on the same origin), the login only to
    /// the account's origin and a write nowhere else. Returns the response and the URL that gave it.
    private func send(_ method: String, _ url: String, depth: String? = nil, body: Data? = nil, contentType: String = "application/xml; charset=utf-8",
                      headers extra: [HTTPHeader] = [], _ endpoint: CalDAVEndpoint) throws(FocusError) -> (HTTPResponse, String) {
        var current = try CalendarFeed.address(url, insecure: endpoint.insecure)
        let home = Self.originKey(endpoint.url)
        let writes = !["GET", "HEAD", "OPTIONS", "PROPFIND", "REPORT"].contains(method.uppercased())
        if writes, Self.originKey(current) != home { throw Self.writeElsewhere(method, current, endpoint) }
        var redirects = 0
        while true {
            var request = Self.request(method, current, depth: depth, body: body, contentType: contentType, headers: extra, endpoint)
            var response = try http.send(request)
            // Basic goes with the request; a server that wants Digest says so in its 401
            // (RFC 9110 section 11.6.1), and the request is sent again with it.
            if response.status == 401, request.user != nil,
               (response.headers["www-authenticate"] ?? "").lowercased().hasPrefix("digest") {
                request.digest = true
                response = try http.send(request)
            }
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["location"], !location.isEmpty else {
                return (response, current)
            }
            redirects += 1
            guard redirects <= request.maximumRedirects else {
                throw .unavailable("\(CalendarFeed.shownAddress(url)) redirected more than \(request.maximumRedirects) times.")
            }
            current = try Self.redirect(from: current, to: location)
            if writes, Self.originKey(current) != home { throw Self.writeElsewhere(method, current, endpoint) }
        }
    }

    /// One request of `send`: the login only to the account's origin, redirects left to the caller.
    static func request(_ method: String, _ url: String, depth: String? = nil, body: Data? = nil,
                        contentType: String = "application/xml; charset=utf-8", headers extra: [HTTPHeader] = [],
                        _ endpoint: CalDAVEndpoint) -> HTTPRequest {
        var headers = extra
        if let depth { headers.append(HTTPHeader("Depth", depth)) }
        if body != nil { headers.append(HTTPHeader("Content-Type", contentType)) }
        let sameOrigin = originKey(url) == originKey(endpoint.url)
        var request = HTTPRequest(method, url: url, headers: headers, body: body, user: sameOrigin ? endpoint.user : nil,
                                  password: sameOrigin ? endpoint.password : nil, caFile: endpoint.caFile)
        request.followRedirects = false
        return request
    }

    /// Where a redirect leads, if focus follows it: http or https only, never from https down to
    /// http, plain http only on the same origin. A server's redirect is not the person's typing:
    /// anything else is `.unavailable` (69), never a usage error about the address.
    static func redirect(from current: String, to location: String) throws(FocusError) -> String {
        let next = location.contains("://") || location.hasPrefix("//") || location.hasPrefix("/") || !location.contains(":")
            ? resolve(location, against: current) : location
        let scheme = next.prefix { $0 != ":" }.lowercased()
        let why: String?
        if scheme != "https" && scheme != "http" {
            why = "\(scheme.isEmpty ? "no" : DisplayText(String(scheme.prefix(20))).string): is not https"
        } else if scheme == "http", current.lowercased().hasPrefix("https:") {
            why = "never from https down to http"
        } else if scheme == "http", originKey(next) != originKey(current) {
            why = "plain http to another server"
        } else {
            why = nil
        }
        let refused = FocusError.unavailable("\(CalendarFeed.shownAddress(current)) redirected to an address focus does not follow (\(why ?? "not a valid address")).")
        guard why == nil, let checked = try? CalendarFeed.address(next, insecure: true) else { throw refused }
        return checked
    }

    static func writeElsewhere(_ method: String, _ url: String, _ endpoint: CalDAVEndpoint) -> FocusError {
        .unavailable("focus sends a \(method) only to the account's own server (\(CalendarFeed.shownAddress(endpoint.url))), not to \(CalendarFeed.shownAddress(url)); nothing was written there.")
    }

    static func elsewhere(_ url: String, _ endpoint: CalDAVEndpoint) -> FocusError {
        .unavailable("\(CalendarFeed.shownAddress(endpoint.url)) names its account on another server (\(CalendarFeed.shownAddress(url))), and focus sends the login only to the server you connected at. If you trust that server, connect to it directly: `focus calendar connect '\(Self.origin(url))/'`.")
    }

    // MARK: The origin rule

    /// `scheme://host:port` of an address, the default port written out and any user name left
    /// out: two addresses are one origin when these are equal (RFC 6454 section 4).
    package static func originKey(_ url: String) -> String {
        guard let range = url.firstRange(of: "://") else { return url.lowercased() }
        let scheme = url[..<range.lowerBound].lowercased()
        var authority = url[range.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "\\" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let lower = authority.lowercased()
        var host = lower
        var port = ""
        if lower.hasPrefix("[") {
            let close = lower.firstIndex(of: "]") ?? lower.endIndex
            host = String(lower[..<close]) + "]"
            port = close < lower.endIndex ? String(lower[lower.index(after: close)...].drop { $0 == ":" }) : ""
        } else if let colon = lower.lastIndex(of: ":") {
            host = String(lower[..<colon])
            port = String(lower[lower.index(after: colon)...])
        }
        if port.isEmpty { port = scheme == "https" ? "443" : scheme == "http" ? "80" : "" }
        if let number = Int(port) { port = String(number) }
        if host.hasSuffix(".") { host.removeLast() }
        return "\(scheme)://\(host):\(port)"
    }

    /// The addresses on the account's origin; the others ignored with one warning.
    func onOrigin(_ urls: [String], _ endpoint: CalDAVEndpoint, what: String) -> [String] {
        let origin = Self.originKey(endpoint.url)
        let (kept, outside) = (urls.filter { Self.originKey($0) == origin }, urls.filter { Self.originKey($0) != origin })
        warnOutside(outside, scope: endpoint.url, what: what)
        return kept
    }

    /// The responses whose address is inside `collection` (its origin, and a path under its
    /// own whose rest holds no encoded slash or backslash, nor a backslash: a server may decode
    /// `..%2F..%2Fother%2F` into a path outside, RFC 3986 section 7.3); the others ignored with
    /// one warning.
    func within(_ responses: [DAVResponse], _ collection: String) -> [DAVResponse] {
        let (origin, path) = (Self.originKey(collection), Self.path(collection))
        var kept: [DAVResponse] = []
        kept.reserveCapacity(responses.count)
        var outside: [String] = []
        for item in responses {
            let itemPath = Self.path(item.url)
            // The collection itself may be named without its trailing slash.
            if Self.originKey(item.url) == origin, itemPath.hasPrefix(path) || itemPath + "/" == path,
               !Self.hasEncodedSeparator(String(itemPath.dropFirst(path.count))) {
                kept.append(item)
            } else {
                outside.append(item.url)
            }
        }
        warnOutside(outside, scope: collection, what: "an href")
        return kept
    }

    /// Whether a path holds `%2F`, `%5C` (any case) or a backslash.
    static func hasEncodedSeparator(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.contains("%2f") || lower.contains("%5c") || path.contains("\\")
    }

    func warnOutside(_ outside: [String], scope: String, what: String) {
        guard let first = outside.first else { return }
        let more = outside.count > 1 ? " and \(outside.count - 1) more" : ""
        warn("the server at \(CalendarFeed.shownAddress(scope)) named \(what) outside \(DisplayText(Self.origin(scope)).string)\(DisplayText(Self.path(scope)).string) (\(DisplayText(CalendarFeed.shownAddress(first)).string)\(more)): ignored, as focus sends the login and writes only there.")
    }

    /// The path of an absolute address (`/` when it has none), without its query.
    static func path(_ url: String) -> String {
        guard let range = url.firstRange(of: "://") else { return url }
        let rest = url[range.upperBound...].drop { $0 != "/" && $0 != "?" && $0 != "#" }
        let path = rest.prefix { $0 != "?" && $0 != "#" }
        return path.isEmpty ? "/" : String(path)
    }

    // MARK: Multistatus

    /// One `DAV:response` (RFC 4918 section 14.24).
    struct DAVResponse {
        /// As the server wrote it (sent back in a multiget).
        var href: String
        /// Absolute.
        var url: String
        /// The response's own status (RFC 4918 section 14.28), as for a removed member.
        var status: Int?
        /// The properties of every 2xx propstat.
        var properties: [XMLReader.Element]

        func property(_ namespace: String, _ name: String) -> XMLReader.Element? {
            properties.first { $0.is(namespace, name) }
        }
    }

    struct Multistatus {
        var root: XMLReader.Element
        var responses: [DAVResponse]
        var url: String
    }

    static func readMultistatus(_ response: HTTPResponse, url: String) throws(FocusError) -> Multistatus {
        let shown = CalendarFeed.shownAddress(url)
        if isWebPage(response) { throw webPage(url) }
        let root = try XMLReader.parse(response.body, source: shown)
        guard root.is(dav, "multistatus") else {
            throw .badInput(file: shown, line: nil, reason: "the server answered with <\(root.name)> where a WebDAV multistatus was expected.")
        }
        var responses: [DAVResponse] = []
        responses.reserveCapacity(root.children.count)
        for element in root.children where element.is(dav, "response") {
            guard let href = element.child(dav, "href")?.trimmedText, !href.isEmpty else { continue }
            var properties: [XMLReader.Element] = []
            for propstat in element.children(dav, "propstat") {
                let status = propstat.child(dav, "status").flatMap { statusCode($0.trimmedText) } ?? 200
                guard (200..<300).contains(status), let prop = propstat.child(dav, "prop") else { continue }
                properties += prop.children
            }
            let status = element.child(dav, "status").flatMap { statusCode($0.trimmedText) }
            responses.append(DAVResponse(href: href, url: resolve(href, against: url), status: status, properties: properties))
        }
        return Multistatus(root: root, responses: responses, url: url)
    }

    static func isWebPage(_ response: HTTPResponse) -> Bool {
        (response.headers["content-type"] ?? "").lowercased().contains("html")
            || String(decoding: response.body.prefix(512), as: UTF8.self).lowercased().contains("<html")
    }

    static func webPage(_ url: String) -> FocusError {
        .badInput(file: CalendarFeed.shownAddress(url), line: nil,
                  reason: "the server sent a web page (HTML), not a WebDAV answer: perhaps a login page, or not a CalDAV address.")
    }

    /// `HTTP/1.1 404 Not Found` → 404.
    static func statusCode(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        return Int(parts[1])
    }

    // MARK: Addresses and XML

    static func propfind(_ properties: [String]) -> Data {
        Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">
              <d:prop>\(properties.joined())</d:prop>
            </d:propfind>
            """.utf8)
    }

    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// `scheme://authority` of an absolute address.
    static func origin(_ url: String) -> String {
        guard let range = url.firstRange(of: "://") else { return url }
        let authority = url[range.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(url[..<range.upperBound]) + authority
    }

    /// An href (absolute URL, absolute path, or relative path) made absolute against the
    /// address of the request that returned it (RFC 3986 section 5.2, without dot segments).
    /// The result is in the normal form of RFC 3986 section 6.2.2, so two spellings of one
    /// address a server may use in different answers (`%7e` and `~`, `HTTP://Host` and
    /// `http://host`, a raw space and `%20`) compare equal.
    static func resolve(_ href: String, against base: String) -> String {
        withoutDotSegments(absolute(href, against: base))
    }

    private static func absolute(_ href: String, against base: String) -> String {
        if href.contains("://") { return CalDAVAddress.normalized(href) }
        if href.hasPrefix("//") { return CalDAVAddress.normalized(String(base.prefix { $0 != ":" }) + ":" + href) }
        if href.hasPrefix("/") { return CalDAVAddress.normalized(origin(base) + href) }
        let path = base.prefix { $0 != "?" && $0 != "#" }
        let directory = path.lastIndex(of: "/").map { path[...$0] } ?? path
        return CalDAVAddress.normalized(directory.count <= origin(base).count ? origin(base) + "/" + href : String(directory) + href)
    }

    /// RFC 3986 section 5.2.4 on the path of an absolute, normalized address (`%2E` is already
    /// `.` then): `/cal/../other/x.ics` is `/other/x.ics`, and `..` never climbs above `/`.
    static func withoutDotSegments(_ url: String) -> String {
        guard let range = url.firstRange(of: "://") else { return url }
        let authorityEnd = url[range.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        let pathEnd = url[authorityEnd...].firstIndex { $0 == "?" || $0 == "#" } ?? url.endIndex
        let path = url[authorityEnd..<pathEnd]
        guard path.contains(".") else { return url }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var out: [Substring] = [""]
        for (i, segment) in segments.enumerated().dropFirst() {
            let last = i == segments.count - 1
            if segment == "." || segment == ".." {
                if segment == "..", out.count > 1 { out.removeLast() }
                if last { out.append("") }
                continue
            }
            out.append(segment)
        }
        return String(url[..<authorityEnd]) + out.joined(separator: "/") + url[pathEnd...]
    }

    /// The address with one trailing `/` (collections, RFC 4918 section 5.2).
    static func collection(_ url: String) -> String {
        url.hasSuffix("/") ? url : url + "/"
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
