import FocusCore
import FocusSystem
import Foundation
import Synchronization

/// A CalDAV server in memory, for tests of what focus does with one: one account with any
/// number of calendars, ETags that change with every write, `If-Match`/`If-None-Match`
/// preconditions, and sync tokens (RFC 6578) that report what changed since. `failAfter`
/// makes it stop answering after that many more requests, as a server that goes away (or a
/// process killed) in the middle of a sync.
package final class FakeCalDAVServer: CalDAVClient, Sendable {
    private struct Resource { var etag: String; var data: Data }
    private struct State {
        var calendars: [String: String] = [:]          // url → display name
        var components: [String: [String]] = [:]
        var resources: [String: Resource] = [:]         // resource url → resource
        var log: [(version: Int, url: String)] = []     // every change, in order
        var version = 0
        var requests = 0
        var failAfter: Int?
        var collectionPuts = false
        var davical = DAViCalModes()
        var missingIfMatchIs412 = false
        var deletedCalendars: Set<String> = []
        var pruned = PrunedSyncTokens()
        /// Tokens from before the calendar was made again are not valid (RFC 6578 section 3.8).
        var remadeAt = 0
        var emptyListings = false
        /// Calendars there but not yet in the listing (`makeUnlistedCalendar`).
        var unlisted: Set<String> = []
    }
    private let state = Mutex(State())
    private let sending = Mutex(Sending())
    /// What another client does to a resource just before focus's next write to it arrives.
    private let interleaved = Mutex<[String: @Sendable () -> Void]>([:])
    /// Held while a write is answered in the one-at-a-time mode.
    private let oneAtATime = NSLock()
    package let home = "https://dav.example.org/calendars/alice/"

    package init() {}

    /// Requests answered so far.
    package var requests: Int { state.withLock { $0.requests } }
    /// Every further request after `n` more fails as a server that is down.
    package func failAfter(_ n: Int?) { state.withLock { $0.failAfter = n } }

    /// Whether a PUT of a whole collection is taken (as Radicale takes it), else refused as
    /// most servers refuse it.
    package func takeCollectionPuts(_ yes: Bool) { state.withLock { $0.collectionPuts = yes } }

    /// Behaviours of DAViCal that focus must live with, each switched on alone.
    package struct DAViCalModes: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        /// Display names listed with their XML character references escaped once more
        /// (`Work &amp; Life` for `Work & Life`).
        package static let escapedNames = DAViCalModes(rawValue: 1)
        /// A collection's PROPFIND has no `getetag`.
        package static let noCollectionETag = DAViCalModes(rawValue: 2)
        /// The home lists the scheduling inbox and outbox (`.in/`, `.out/`, RFC 6638) with the
        /// calendar resource type; the inbox holds an invitation.
        package static let schedulingCollections = DAViCalModes(rawValue: 4)
        /// The same inbox and outbox listed as plain calendars (no scheduling resource type), and
        /// named only by the principal's `schedule-inbox-URL` and `schedule-outbox-URL` (RFC 6638
        /// section 2.2): marked as the HTTP client marks them, from the account discovery found.
        package static let schedulingNamedByPrincipal = DAViCalModes(rawValue: 8)
    }

    /// Answers as DAViCal does in `modes`.
    package func behaveAsDAViCal(_ modes: DAViCalModes) {
        state.withLock { s in
            s.davical = modes
            guard modes.contains(.schedulingCollections) || modes.contains(.schedulingNamedByPrincipal) else { return }
            let invitation = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:invite@example.org\r\nDTSTAMP:20261120T090000Z\r\n"
                + "DTSTART:20261123T100000Z\r\nDTEND:20261123T110000Z\r\nSUMMARY:Invitation\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            s.version += 1
            s.resources[home + ".in/invite.ics"] = Resource(etag: "\"e\(s.version)\"", data: Data(invitation.utf8))
            s.log.append((s.version, home + ".in/invite.ics"))
        }
    }

    /// DAViCal's and Radicale's answer to an `If-Match` on a member that does not exist: 412
    /// (RFC 7232 section 3.1), not 404.
    package func answerMissingIfMatchWith412(_ yes: Bool) { state.withLock { $0.missingIfMatchIs412 = yes } }

    /// Deletes a calendar and everything in it, as another client would: it is no longer
    /// listed, and reading it fails as a 404 does.
    package func deleteCalendar(_ url: String) {
        state.withLock { s in
            s.calendars[url] = nil
            s.components[url] = nil
            s.deletedCalendars.insert(url)
            for member in s.resources.keys where member.hasPrefix(url) {
                s.version += 1
                s.resources[member] = nil
                s.log.append((s.version, member))
            }
        }
    }

    /// The resources of a calendar, by URL.
    package func contents(_ calendarURL: String) -> [String: Data] {
        state.withLock { s in s.resources.filter { $0.key.hasPrefix(calendarURL) }.mapValues(\.data) }
    }

    /// Writes a resource as another client would.
    package func store(_ url: String, _ text: String) {
        state.withLock { s in
            s.version += 1
            s.resources[url] = Resource(etag: "\"e\(s.version)\"", data: Data(text.utf8))
            s.log.append((s.version, url))
        }
    }

    /// Runs `edit` (another client's write) once, just before the next PUT or DELETE of `url`
    /// is answered: an edit that lands between focus's look at the calendar and its write.
    package func beforeNextWrite(to url: String, _ edit: @escaping @Sendable () -> Void) {
        interleaved.withLock { $0[url] = edit }
    }

    private func interleave(_ url: String) {
        interleaved.withLock { $0.removeValue(forKey: url) }?()
    }

    /// Removes a resource as another client would.
    package func remove(_ url: String) {
        state.withLock { s in
            s.version += 1
            s.resources[url] = nil
            s.log.append((s.version, url))
        }
    }

    /// A deleted calendar answers as a 404 does.
    private func gone(_ calendarURL: String) throws(FocusError) {
        if state.withLock({ $0.deletedCalendars.contains(calendarURL) }) {
            throw FocusError.unavailable("dav.example.org has nothing there (HTTP 404): the calendar or account was removed or moved.")
        }
    }

    private func answer() throws(FocusError) {
        let down = state.withLock { s -> Bool in
            s.requests += 1
            if let n = s.failAfter {
                if n <= 0 { return true }
                s.failAfter = n - 1
            }
            return false
        }
        if down { throw FocusError.unavailable("could not reach dav.example.org: connection refused.") }
    }

    package func discover(_ endpoint: CalDAVEndpoint) throws(FocusError) -> CalDAVAccount {
        try answer()
        let scheduling = state.withLock { $0.davical.contains(.schedulingNamedByPrincipal) } ? [home + ".in/", home + ".out/"] : []
        return CalDAVAccount(contextURL: endpoint.url, principalURL: "https://dav.example.org/principals/alice/", homeURLs: [home],
                             addresses: ["mailto:alice@example.org"], schedulingURLs: scheduling)
    }

    package func calendars(_ account: CalDAVAccount, _ endpoint: CalDAVEndpoint) throws(FocusError) -> [RemoteCalendar] {
        try answer()
        return state.withLock { s in
            var found = s.calendars.filter { !s.unlisted.contains($0.key) }.sorted { $0.key < $1.key }.map {
                RemoteCalendar(url: $0.key, displayName: s.davical.contains(.escapedNames) ? $0.value.replacingOccurrences(of: "&", with: "&amp;") : $0.value,
                               components: s.components[$0.key] ?? [], syncToken: "t\(s.version)", supportsSync: true)
            }
            if s.davical.contains(.schedulingCollections) || s.davical.contains(.schedulingNamedByPrincipal) {
                let typed = s.davical.contains(.schedulingCollections)
                found += [".in/", ".out/"].map {
                    RemoteCalendar(url: home + $0, displayName: $0, components: ["VEVENT", "VTODO"], syncToken: "t\(s.version)", supportsSync: true,
                                   scheduling: typed || account.schedulingURLs.contains(home + $0))
                }
            }
            return found
        }
    }

    package func calendar(at url: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteCalendar {
        try answer()
        return state.withLock { s in
            RemoteCalendar(url: url, displayName: s.calendars[url] ?? url, syncToken: "t\(s.version)", supportsSync: true)
        }
    }

    package func events(in calendarURL: String, from: Date, to: Date, _ endpoint: CalDAVEndpoint) throws(FocusError) -> [RemoteResource] {
        try answer()
        return state.withLock { s in
            if s.emptyListings { return [] }
            return s.resources.filter { $0.key.hasPrefix(calendarURL) }.sorted { $0.key < $1.key }
                .map { RemoteResource(url: $0.key, etag: $0.value.etag, data: $0.value.data) }
        }
    }

    package func changes(in calendarURL: String, since token: String?, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteChanges {
        try answer()
        try gone(calendarURL)
        return state.withLock { s in
            // A proxy's or a maintenance page's answer: a whole listing of nothing, no token.
            if s.emptyListings { return RemoteChanges(complete: true, changed: [], removed: [], token: nil) }
            let current = "t\(s.version)"
            if let token, s.pruned.forgotten(token) { return Self.everyMemberAsChanged(s, calendarURL) }
            guard let token, token.hasPrefix("t"), let since = Int(token.dropFirst()), since <= s.version, since >= s.remadeAt else {
                let all = s.resources.filter { $0.key.hasPrefix(calendarURL) }.sorted { $0.key < $1.key }
                    .map { RemoteResource(url: $0.key, etag: $0.value.etag, data: $0.value.data) }
                return RemoteChanges(complete: true, changed: all, removed: [], token: current)
            }
            let touched = Set(s.log.filter { $0.version > since && $0.url.hasPrefix(calendarURL) }.map(\.url))
            var changed: [RemoteResource] = []
            var removed: [String] = []
            for url in touched.sorted() {
                if let r = s.resources[url] { changed.append(RemoteResource(url: url, etag: r.etag, data: r.data)) } else { removed.append(url) }
            }
            return RemoteChanges(complete: false, changed: changed, removed: removed, token: current)
        }
    }

    package func put(_ url: String, ics: Data, ifMatch: String?, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite {
        try answer()
        interleave(url)
        return state.withLock { s in
            let existing = s.resources[url]
            if let ifMatch {
                guard let existing else { return s.missingIfMatchIs412 ? .changedOnServer : .missing }
                if ifMatch != "*", ifMatch != existing.etag { return .changedOnServer }
            } else if existing != nil {
                return .changedOnServer
            }
            s.version += 1
            let etag = "\"e\(s.version)\""
            s.resources[url] = Resource(etag: etag, data: ics)
            s.log.append((s.version, url))
            return .written(etag: etag)
        }
    }

    package func delete(_ url: String, ifMatch: String?, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite {
        try answer()
        interleave(url)
        return state.withLock { s in
            guard let existing = s.resources[url] else { return ifMatch != nil && s.missingIfMatchIs412 ? .changedOnServer : .missing }
            if let ifMatch, ifMatch != "*", ifMatch != existing.etag { return .changedOnServer }
            s.version += 1
            s.resources[url] = nil
            s.log.append((s.version, url))
            return .written(etag: nil)
        }
    }

    /// A calendar's entity tag: it changes with every write to it.
    private static func collectionTag(_ s: State, _ calendarURL: String) -> String {
        "\"c\(s.log.last { $0.url.hasPrefix(calendarURL) }?.version ?? 0)\""
    }

    package func members(of calendarURL: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> CollectionListing {
        try answer()
        try gone(calendarURL)
        return state.withLock { s in
            let members = s.resources.filter { $0.key.hasPrefix(calendarURL) }.sorted { $0.key < $1.key }
                .map { RemoteResource(url: $0.key, etag: $0.value.etag) }
            let etag = s.davical.contains(.noCollectionETag) ? nil : Self.collectionTag(s, calendarURL)
            return CollectionListing(etag: etag, token: "t\(s.version)", members: members)
        }
    }

    /// Takes the object apart into one resource per UID, named after it (as Radicale does).
    package func replaceCollection(_ calendarURL: String, ics: Data, ifMatch: String, _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite? {
        try answer()
        return state.withLock { s -> RemoteWrite? in
            guard s.collectionPuts else { return nil }
            guard ifMatch == Self.collectionTag(s, calendarURL) else { return .changedOnServer }
            for url in s.resources.keys where url.hasPrefix(calendarURL) {
                s.version += 1
                s.resources[url] = nil
                s.log.append((s.version, url))
            }
            let lines = String(decoding: ics, as: UTF8.self).components(separatedBy: "\r\n")
            var component: [String] = []
            var uid = ""
            for line in lines {
                if line == "BEGIN:VTODO" || line == "BEGIN:VEVENT" { component = [line]; uid = ""; continue }
                guard !component.isEmpty else { continue }
                component.append(line)
                if line.hasPrefix("UID:") { uid = String(line.dropFirst(4)) }
                if line == "END:VTODO" || line == "END:VEVENT" {
                    let text = (["BEGIN:VCALENDAR", "VERSION:2.0"] + component + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
                    s.version += 1
                    let url = Publication.memberURL(calendar: calendarURL, uid: uid)
                    s.resources[url] = Resource(etag: "\"e\(s.version)\"", data: Data(text.utf8))
                    s.log.append((s.version, url))
                    component = []
                }
            }
            return .written(etag: Self.collectionTag(s, calendarURL))
        }
    }

    package func makeCalendar(_ url: String, displayName: String, components: [String], _ endpoint: CalDAVEndpoint) throws(FocusError) -> RemoteWrite {
        try answer()
        return state.withLock { s in
            if s.calendars[url] != nil { return .changedOnServer }
            s.deletedCalendars.remove(url)
            s.calendars[url] = displayName
            s.components[url] = components
            return .written(etag: nil)
        }
    }
}

// MARK: DAViCal's two behaviours (README, "Two machines"; RFC 6578, RFC 7232)

/// How DAViCal differs from the default: a sync token it pruned is answered with every member
/// as `200 OK` (a delta in form, the whole calendar in fact) rather than RFC 6578's 403
/// `valid-sync-token`, and `If-Match` on a member that does not exist is answered 412 (RFC 7232
/// section 3.1) rather than 404, as Radicale does too.
package struct PrunedSyncTokens: Sendable {
    /// Tokens from before this version are forgotten.
    var prunedBefore: Int?

    func forgotten(_ token: String) -> Bool {
        guard let prunedBefore, token.hasPrefix("t"), let since = Int(token.dropFirst()) else { return false }
        return since < prunedBefore
    }
}

extension FakeCalDAVServer {
    /// Whether every listing of a calendar answers nothing (as a proxy or a server under
    /// maintenance may), while what is stored stays.
    /// A calendar another client makes between this one's listing and its MKCALENDAR: there
    /// (MKCALENDAR is refused), but not in the listing this client read.
    package func makeUnlistedCalendar(_ url: String, displayName: String, components: [String]) {
        state.withLock { s in
            s.calendars[url] = displayName
            s.components[url] = components
            s.unlisted.insert(url)
        }
    }

    package func answerEmptyListings(_ yes: Bool) { state.withLock { $0.emptyListings = yes } }

    /// Forgets every sync token given so far, answering them with every member as changed.
    package func pruneSyncTokens() {
        state.withLock { s in s.pruned.prunedBefore = s.version + 1 }
    }


    /// Deletes the calendar and makes it again, empty, as another app would: the tokens of the
    /// old one are not valid for the new one (answered with the whole, empty, calendar).
    package func remakeCalendar(_ calendarURL: String) {
        state.withLock { s in
            for url in s.resources.keys where url.hasPrefix(calendarURL) { s.resources[url] = nil }
            s.log.removeAll { $0.url.hasPrefix(calendarURL) }
            s.version += 1
            s.remadeAt = s.version
        }
    }

    private static func everyMemberAsChanged(_ s: State, _ calendarURL: String) -> RemoteChanges {
        let all = s.resources.filter { $0.key.hasPrefix(calendarURL) }.sorted { $0.key < $1.key }
            .map { RemoteResource(url: $0.key, etag: $0.value.etag, data: $0.value.data) }
        return RemoteChanges(complete: false, changed: all, removed: [], token: "t\(s.version)")
    }

    // MARK: Writes sent together

    private struct Sending {
        /// Nil: writes sent together are answered one by one as `put` and `delete` are.
        var hold: Double?
        var serial = false
        var inFlight = 0
        var mostInFlight = 0
        /// The writes in flight as each arrived (itself included), in order of arrival.
        var inFlightAtArrival: [Int] = []
        /// PUTs that wrote, by URL.
        var written: [String: Int] = [:]
        /// Which PUTs (by their number, from 1, in order of arrival) are answered 503.
        var throttled: [Int: String?] = [:]
        var puts = 0
    }

    /// Writes sent together (`writes`) are each held `seconds` before they are answered: at
    /// once, several in flight together (`oneAtATime` false, as Nextcloud or DAViCal behind
    /// Apache take them), or one after the other (as Xandikos, which serialises on its git
    /// repository). Nil: answered one by one, as the other fakes answer.
    package func holdWrites(_ seconds: Double?, oneAtATime: Bool = false) {
        sending.withLock { s in
            s.hold = seconds
            s.serial = oneAtATime
        }
    }

    /// The PUT numbered `n` (from 1, in order of arrival, sent together) is answered 503 with
    /// `Retry-After: retryAfter` (nil: none), and not written.
    package func throttlePut(_ n: Int, retryAfter: String?) { sending.withLock { $0.throttled[n] = .some(retryAfter) } }

    /// The most writes that were in flight at once.
    package var mostInFlight: Int { sending.withLock { $0.mostInFlight } }
    /// The writes in flight as each arrived, itself included, in order of arrival.
    package var inFlightAtArrival: [Int] { sending.withLock { $0.inFlightAtArrival } }
    /// How many PUTs wrote each URL.
    package var writtenPerURL: [String: Int] { sending.withLock { $0.written } }

    package func writes(_ endpoint: CalDAVEndpoint) -> any RemoteWrites {
        guard sending.withLock({ $0.hold }) != nil else { return SerialRemoteWrites(client: self, endpoint: endpoint, pause: sleepSeconds) }
        return ThreadedWrites(server: self, endpoint: endpoint)
    }

    /// One write answered on a thread of its own, as `holdWrites` says.
    fileprivate func answerHeld(_ write: RemoteWriteRequest, tag: Int, _ endpoint: CalDAVEndpoint) -> RemoteWriteCompletion {
        let (hold, serial, throttled) = sending.withLock { s -> (Double, Bool, String??) in
            s.inFlight += 1
            s.mostInFlight = max(s.mostInFlight, s.inFlight)
            s.inFlightAtArrival.append(s.inFlight)
            var throttled: String?? = nil
            if case .put = write {
                s.puts += 1
                throttled = s.throttled[s.puts]
            }
            return (s.hold ?? 0, s.serial, throttled)
        }
        defer { sending.withLock { $0.inFlight -= 1 } }
        if serial { oneAtATime.lock() }
        defer { if serial { oneAtATime.unlock() } }
        Thread.sleep(forTimeInterval: hold)
        if let throttled {
            return RemoteWriteCompletion(tag: tag, result: .failure(.unavailable("dav.example.org failed (HTTP 503) answering PUT: try again later.")),
                                         pushBack: 503, retryAfter: throttled)
        }
        do throws(FocusError) {
            switch write {
            case let .put(url, ics, ifMatch):
                let result = try put(url, ics: ics, ifMatch: ifMatch, endpoint)
                if case .written = result { sending.withLock { $0.written[url, default: 0] += 1 } }
                return RemoteWriteCompletion(tag: tag, result: .success(result))
            case let .delete(url, ifMatch):
                return RemoteWriteCompletion(tag: tag, result: .success(try delete(url, ifMatch: ifMatch, endpoint)))
            }
        } catch {
            return RemoteWriteCompletion(tag: tag, result: .failure(error))
        }
    }
}

/// Writes of `FakeCalDAVServer.holdWrites`: each on a thread, collected as they end.
private final class ThreadedWrites: RemoteWrites {
    private final class Ended: Sendable {
        let list = Mutex<[RemoteWriteCompletion]>([])
        let signal = DispatchSemaphore(value: 0)
    }

    private let server: FakeCalDAVServer
    private let endpoint: CalDAVEndpoint
    private let ended = Ended()
    private(set) var inFlight = 0

    init(server: FakeCalDAVServer, endpoint: CalDAVEndpoint) {
        self.server = server
        self.endpoint = endpoint
    }

    func start(_ write: RemoteWriteRequest, tag: Int) {
        inFlight += 1
        let (server, endpoint, ended) = (server, endpoint, ended)
        Thread {
            let completion = server.answerHeld(write, tag: tag, endpoint)
            ended.list.withLock { $0.append(completion) }
            ended.signal.signal()
        }.start()
    }

    func next(waitingAtMost seconds: Double?) -> RemoteWriteCompletion? {
        guard inFlight > 0 else {
            if let seconds, seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
            return nil
        }
        if let seconds {
            guard ended.signal.wait(timeout: .now() + seconds) == .success else { return nil }
        } else {
            ended.signal.wait()
        }
        inFlight -= 1
        return ended.list.withLock { $0.removeFirst() }
    }
}
