import FocusText
import FoundationEssentials

/// What focus remembers about a subscribed calendar beyond its last good copy: the validators
/// for conditional requests (RFC 9110, 13.1.1 and 13.1.3), when it last succeeded, and the last
/// failure. Stored as JSON beside the calendar; a copy that does not decode is an empty state
/// (the next fetch is then unconditional).
package struct FeedState: Codable, Equatable, Sendable {
    package var etag: String?
    package var lastModified: String?
    /// The last fetch that got a usable answer (a new copy, or 304 Not Modified).
    package var fetchedAt: Date?
    /// The last failure, one line, and when it happened; cleared by a success.
    package var lastError: String?
    package var lastErrorAt: Date?
    /// When the feed last came back with no events while the copy kept had some.
    package var emptyKeptAsideAt: Date?
    /// `--ca-file`, as an absolute path.
    package var caFile: String?
    /// `--insecure`: plain http to a host other than this machine was allowed.
    package var insecure: Bool?

    package init(etag: String? = nil, lastModified: String? = nil, fetchedAt: Date? = nil, caFile: String? = nil, insecure: Bool? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.fetchedAt = fetchedAt
        self.caFile = caFile
        self.insecure = insecure
    }

    /// Never fetched here: a feed that arrived through sync from another machine (README, "Two
    /// machines") holds no copy and no events until its first fetch.
    package func notFetchedYet(eventCount: Int) -> Bool {
        fetchedAt == nil && etag == nil && lastModified == nil && eventCount == 0
    }

    /// The stored text (empty for a calendar imported from a file).
    package static func decode(_ text: String) -> FeedState {
        guard !text.isEmpty, let state = try? JSONDecoder().decode(FeedState.self, from: Data(text.utf8)) else { return FeedState() }
        return state
    }

    package var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? ""
    }
}

/// The decisions of a calendar feed fetch, apart from the network and the store.
package enum CalendarFeed {
    /// Whether a calendar's stored source is a feed address (a file import stores a path).
    package static func isFeed(source: String) -> Bool {
        let lower = source.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }

    /// The address fetched for what the person typed: `webcal://` is read as `https://`;
    /// plain `http://` only to this machine unless `insecure`; no other scheme; no credentials.
    package static func address(_ raw: String, insecure: Bool) throws(FocusError) -> String {
        let trimmed = raw.trimmingSpaces()
        let refused = { (why: String) in FocusError.invalidValue(what: "calendar address", value: masked(raw), expected: why) }
        guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
            throw refused("an https://, http:// or webcal:// address without spaces or control characters")
        }
        guard let colon = trimmed.firstIndex(of: ":") else {
            throw refused("an https://, http:// or webcal:// address (for a file, use `focus calendar import FILE.ics`)")
        }
        let scheme = trimmed[..<colon].lowercased()
        var rest = String(trimmed[trimmed.index(after: colon)...])
        guard rest.hasPrefix("//") else { throw refused("an https://, http:// or webcal:// address") }
        rest.removeFirst(2)
        let fetched: String
        switch scheme {
        case "https", "webcal", "webcals": fetched = "https"
        case "http": fetched = "http"
        default: throw refused("an https://, http:// or webcal:// address (for a file, use `focus calendar import FILE.ics`)")
        }
        let authority = String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        guard !authority.contains("@") else {
            throw refused("an address without a user name or password (a feed's secret address needs none; an account with a login is connected with `focus calendar connect URL --user USER`)")
        }
        let host = Self.hostName(authority: authority)
        guard !host.isEmpty else { throw refused("an address with a host name") }
        guard Self.validHost(host, bracketed: authority.hasPrefix("[")) else {
            throw refused("a host name of letters, digits, '-' and '.' (an international name in its xn-- form), or an IP address")
        }
        let afterHost = authority.hasPrefix("[") ? authority.drop { $0 != "]" }.dropFirst() : authority.drop { $0 != ":" }
        if !afterHost.isEmpty {
            guard afterHost.first == ":", let port = Int(afterHost.dropFirst()), (1...65_535).contains(port),
                  afterHost.dropFirst().allSatisfy(\.isASCII) else {
                throw refused("a port number from 1 to 65535 after the host")
            }
        }
        if fetched == "http", !insecure, !isLoopback(host) {
            throw FocusError.usage("refusing plain http:// to \(host): the calendar and its secret address would cross the network unencrypted. Use https:// (or webcal://), or pass --insecure to allow it.")
        }
        // A fragment is never sent.
        let path = rest.dropFirst(authority.count).prefix { $0 != "#" }
        return "\(fetched)://\(authority)\(path.isEmpty ? "/" : path)"
    }

    /// A CalDAV address with a user name in it (`https://me@cloud.example.org/dav`): the address
    /// without it, and the user name (percent-decoded). A password in an address is refused:
    /// it would sit in the process list and the shell's history (README, "Passwords are never
    /// stored").
    package static func credentials(_ raw: String) throws(FocusError) -> (address: String, user: String?) {
        let trimmed = raw.trimmingSpaces()
        guard let scheme = trimmed.firstRange(of: "://") else { return (trimmed, nil) }
        let rest = trimmed[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return (trimmed, nil) }
        let info = authority[..<at]
        guard !info.contains(":") else {
            throw FocusError.invalidValue(what: "calendar address", value: "\(trimmed[..<scheme.upperBound])\(info.prefix { $0 != ":" }):…@\(authority[authority.index(after: at)...])",
                                          expected: "an address without a password (give it with --password-command or --password-stdin)")
        }
        let user = info.percentDecoded ?? String(info)
        let address = String(trimmed[..<scheme.upperBound]) + String(rest[authority.index(after: at)...])
        return (address, user.isEmpty ? nil : user)
    }

    /// The host of an address.
    package static func host(of url: String) -> String {
        guard let range = url.firstRange(of: "://") else { return url }
        return hostName(authority: String(url[range.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }))
    }

    /// A DNS name (RFC 1123: letters, digits, hyphens, dots; at most 253 characters) or, in
    /// brackets, an IPv6 address.
    static func validHost(_ host: String, bracketed: Bool) -> Bool {
        guard host.utf8.count <= 253 else { return false }
        if bracketed {
            return host.unicodeScalars.allSatisfy { "0123456789abcdef:.".unicodeScalars.contains($0) } && host.contains(":")
        }
        return host.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." }
    }

    /// The host of an authority (`[::1]:8080` → `::1`), lowercased.
    static func hostName(authority: String) -> String {
        if authority.hasPrefix("[") {
            return String(authority.dropFirst().prefix { $0 != "]" }).lowercased()
        }
        return String(authority.prefix { $0 != ":" }).lowercased()
    }

    package static func isLoopback(_ host: String) -> Bool {
        ["localhost", "127.0.0.1", "::1"].contains(host.lowercased())
    }

    /// The address with the password of its user part (`https://alice:S3cret@host/`) shown as
    /// `…`: every address a message shows goes through this (README, "Passwords are never stored").
    package static func masked(_ url: String) -> String {
        guard let range = url.firstRange(of: "://") else { return url }
        let authority = url[range.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return url }
        return String(url[..<authority.index(after: colon)]) + "…" + url[at...]
    }

    /// `scheme://host[:port]` of an address: what messages and `calendar list` show, as the
    /// path of a secret address (Google's "secret address in iCal format") is a password; a
    /// password in its user part is masked.
    package static func shownAddress(_ raw: String) -> String {
        let url = masked(raw)
        guard let range = url.firstRange(of: "://") else { return url }
        let authority = url[range.upperBound...].prefix { $0 != "/" && $0 != "?" }
        let hidden = url.count > url.distance(from: url.startIndex, to: range.upperBound) + authority.count + 1
        return url[..<range.upperBound] + authority + (hidden ? "/…" : "/")
    }

    /// The GET for a refresh: conditional (If-None-Match, If-Modified-Since) when a copy and
    /// its validators are kept, unless `conditional` is false.
    package static func request(url: String, state: FeedState, conditional: Bool) -> HTTPRequest {
        var headers = [HTTPHeader("Accept", "text/calendar, */*;q=0.5")]
        if conditional {
            if let etag = state.etag, !etag.isEmpty { headers.append(HTTPHeader("If-None-Match", etag)) }
            if let modified = state.lastModified, !modified.isEmpty { headers.append(HTTPHeader("If-Modified-Since", modified)) }
        }
        return HTTPRequest(url: url, headers: headers, caFile: state.caFile)
    }

    /// What a response brought.
    package enum Fetched: Equatable, Sendable {
        /// 304 Not Modified: the kept copy is current.
        case unchanged
        /// A body to read as iCalendar, with its validators.
        case body(Data, etag: String?, lastModified: String?)
    }

    /// Judges a response: 304 to a conditional request is `.unchanged`; a 2xx body that is not
    /// a web page is `.body`; anything else is refused with one line (69 for a status the
    /// server gave instead of the calendar, 65 for an HTML page where iCalendar belongs).
    package static func judge(_ response: HTTPResponse, request: HTTPRequest, label: String) throws(FocusError) -> Fetched {
        let host = shownAddress(request.url)
        switch response.status {
        case 304:
            guard request.header("If-None-Match") != nil || request.header("If-Modified-Since") != nil else {
                throw .unavailable("\(host) answered 304 Not Modified to a request that was not conditional.")
            }
            return .unchanged
        case 200...299:
            break
        case 401, 403:
            throw .unavailable("\(host) refused access (HTTP \(response.status)): the address may have been reset or need a login, and focus does not send credentials to feeds. Copy the calendar's secret or public iCal address again.")
        case 404, 410:
            throw .unavailable("\(host) has no calendar at this address (HTTP \(response.status)). Copy the calendar's iCal address again.")
        case 500...599:
            throw .unavailable("\(host) failed (HTTP \(response.status)). Try again later.")
        default:
            throw .unavailable("\(host) answered HTTP \(response.status) instead of the calendar.")
        }
        if isWebPage(response) {
            throw .badInput(file: label, line: nil, reason: "the server sent a web page (HTML), not an iCalendar feed: perhaps a login or error page. Use the calendar's secret or public iCal address (it usually ends in .ics).")
        }
        let etag = response.headers["etag"].flatMap { $0.isEmpty ? nil : $0 }
        let modified = response.headers["last-modified"].flatMap { $0.isEmpty ? nil : $0 }
        return .body(response.body, etag: etag, lastModified: modified)
    }

    /// One fetch through `client`: the request for `state` (conditional unless told not to),
    /// judged. Throws what the client or `judge` throws.
    package static func fetch(_ url: String, state: FeedState, conditional: Bool, label: String,
                              client: any HTTPClient) throws(FocusError) -> Fetched {
        let request = request(url: url, state: state, conditional: conditional)
        return try judge(try client.get(request), request: request, label: label)
    }

    /// An HTML document: said so by its Content-Type, or starting with `<` (after a byte order
    /// mark and white space) where `BEGIN:VCALENDAR` belongs.
    static func isWebPage(_ response: HTTPResponse) -> Bool {
        let type = (response.headers["content-type"] ?? "").lowercased()
        if type.hasPrefix("text/html") || type.hasPrefix("application/xhtml") { return true }
        var bytes = response.body.prefix(4096)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "<")
    }

    /// A feed that comes back with no events while the kept copy had some is kept aside
    /// (README: a failed fetch never loses a calendar), unless the person accepts it.
    package static func keepsAside(newEvents: Int, keptEvents: Int, acceptEmpty: Bool) -> Bool {
        newEvents == 0 && keptEvents > 0 && !acceptEmpty
    }

    /// A failure, said as one line that names the calendar and the copy still in use.
    package static func failure(_ error: FocusError, name: String, label: String, keptSince: String?) -> FocusError {
        let kept = keptSince.map { " The copy fetched \($0) is kept and used." } ?? ""
        switch error {
        case .unavailable(let message):
            return .unavailable("calendar '\(name)' was not refreshed: \(message)\(kept)")
        case let .badInput(_, line, reason):
            let trimmed = reason.trimmingSpaces()
            let ended = trimmed.hasSuffix(".") ? trimmed : trimmed + "."
            return .badInput(file: label, line: line, reason: ended + kept)
        case let .noInputFile(path, reason):
            // A remembered --ca-file that is gone or became a FIFO: the input-file rule (66).
            return .noInputFile(path: path, reason: "\(reason) (the --ca-file remembered for calendar '\(name)', which was not refreshed).\(kept.dropLast())")
        case let .unreadable(path, reason):
            return .unreadable(path: path, reason: "\(reason) (the --ca-file remembered for calendar '\(name)', which was not refreshed).\(kept.dropLast())")
        default:
            return error
        }
    }
}
