import FocusCore
import FocusSystem
import FocusText
import FoundationEssentials

/// A feed's GET with its redirects followed by the rule CalDAV requests follow
/// (`CalDAVHTTPClient.redirect`): http or https only, never from https down to http, plain http
/// only on the same origin. A server's redirect elsewhere is `.unavailable` (69), said as one.
package struct FeedHTTPClient: HTTPClient {
    package let http: any HTTPClient

    package init(http: any HTTPClient) {
        self.http = http
    }

    package func send(_ request: HTTPRequest) throws(FocusError) -> HTTPResponse {
        var current = request
        current.followRedirects = false
        var redirects = 0
        while true {
            let response = try http.send(current)
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["location"], !location.isEmpty else {
                return response
            }
            redirects += 1
            guard redirects <= request.maximumRedirects else {
                throw .unavailable("\(CalendarFeed.shownAddress(request.url)) redirected more than \(request.maximumRedirects) times.")
            }
            current.url = try CalDAVHTTPClient.redirect(from: current.url, to: location)
        }
    }
}
