import FocusCore
import Foundation

/// A test's CalDAV client that behaves as the in-memory server but for what it defines itself
/// (another app acting between two requests, an answer lost on the way): every request it does
/// not define goes to `server` as it is. Writes sent together go one at a time through the
/// client's own `put` and `delete` (`CalDAVClient.writes`), unless it defines `writes` too.
package protocol FakeServerClient: CalDAVClient {
    var server: FakeCalDAVServer { get }
}

extension FakeServerClient {
    package func discover(_ e: CalDAVEndpoint) throws(FocusError) -> CalDAVAccount { try server.discover(e) }
    package func calendars(_ a: CalDAVAccount, _ e: CalDAVEndpoint) throws(FocusError) -> [RemoteCalendar] { try server.calendars(a, e) }
    package func calendar(at url: String, _ e: CalDAVEndpoint) throws(FocusError) -> RemoteCalendar { try server.calendar(at: url, e) }
    package func events(in url: String, from: Date, to: Date, _ e: CalDAVEndpoint) throws(FocusError) -> [RemoteResource] {
        try server.events(in: url, from: from, to: to, e)
    }
    package func changes(in url: String, since token: String?, _ e: CalDAVEndpoint) throws(FocusError) -> RemoteChanges {
        try server.changes(in: url, since: token, e)
    }
    package func put(_ url: String, ics: Data, ifMatch: String?, _ e: CalDAVEndpoint) throws(FocusError) -> RemoteWrite {
        try server.put(url, ics: ics, ifMatch: ifMatch, e)
    }
    package func delete(_ url: String, ifMatch: String?, _ e: CalDAVEndpoint) throws(FocusError) -> RemoteWrite { try server.delete(url, ifMatch: ifMatch, e) }
    package func resources(at urls: [String], in url: String, _ e: CalDAVEndpoint) throws(FocusError) -> (found: [RemoteResource], gone: [String]) {
        try server.resources(at: urls, in: url, e)
    }
    package func members(of url: String, _ e: CalDAVEndpoint) throws(FocusError) -> CollectionListing { try server.members(of: url, e) }
    package func replaceCollection(_ url: String, ics: Data, ifMatch: String, _ e: CalDAVEndpoint) throws(FocusError) -> RemoteWrite? {
        try server.replaceCollection(url, ics: ics, ifMatch: ifMatch, e)
    }
    package func makeCalendar(_ url: String, displayName: String, components: [String], _ e: CalDAVEndpoint) throws(FocusError) -> RemoteWrite {
        try server.makeCalendar(url, displayName: displayName, components: components, e)
    }
}
