import FoundationEssentials

/// One request, with the limits every calendar fetch uses (README, "Your real calendar"): a
/// feed's GET, or a CalDAV method with an XML or iCalendar body and a login.
package struct HTTPRequest: Sendable, Equatable {
    package var url: String
    /// `GET`, `PUT`, `DELETE`, `PROPFIND`, `REPORT`, `MKCALENDAR`…
    package var method: String = "GET"
    package var body: Data?
    /// The login (never in the URL, never to another host after a redirect): sent with HTTP
    /// Basic with the request itself, or with Digest when `digest` (after a 401 that asked for it).
    package var user: String?
    package var password: String?
    package var digest = false
    /// False: a 3xx is returned as the response (its `Location` header for the caller to
    /// judge) instead of being followed.
    package var followRedirects: Bool = true
    /// Extra request headers (`If-None-Match`, `If-Modified-Since`), in order.
    package var headers: [HTTPHeader]
    /// A PEM file of trusted certificates used instead of the system's store (a private CA).
    package var caFile: String?
    package var connectTimeoutSeconds: Int = 10
    package var totalTimeoutSeconds: Int = 60
    package var maximumBytes: Int = 32 << 20
    package var maximumRedirects: Int = 5

    package init(url: String, headers: [HTTPHeader] = [], caFile: String? = nil) {
        self.url = url
        self.headers = headers
        self.caFile = caFile
    }

    package init(_ method: String, url: String, headers: [HTTPHeader] = [], body: Data? = nil, user: String? = nil,
                 password: String? = nil, caFile: String? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.user = user
        self.password = password
        self.caFile = caFile
    }

    /// The value sent for a header (case-insensitive name), nil when not sent.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

package struct HTTPHeader: Sendable, Equatable {
    package var name: String
    package var value: String
    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// The final response after redirects.
package struct HTTPResponse: Sendable, Equatable {
    package var status: Int
    /// Header names lowercased; a repeated header keeps its last value.
    package var headers: [String: String]
    package var body: Data

    package init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }
}

/// Fetches over HTTP(S). Failures to get any response (no network, refused, timeout, TLS,
/// too many redirects, a redirect down from https) are `.unavailable` (exit 69); a body over
/// the cap is `.badInput` (65). Any status is a response, judged by the caller.
package protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) throws(FocusError) -> HTTPResponse
    /// A set of requests in flight at once (libcurl's multi interface), each judged as `send`
    /// would; by default one at a time.
    func transfers() -> any HTTPTransfers
}

/// One completed request of `HTTPTransfers`: the tag it was started with, and its response or
/// the failure `send` would have thrown.
package struct HTTPCompletion: Sendable {
    package var tag: Int
    package var result: Result<HTTPResponse, FocusError>

    package init(tag: Int, result: Result<HTTPResponse, FocusError>) {
        self.tag = tag
        self.result = result
    }
}

/// Requests kept in flight together: started one by one, collected as each completes, in the
/// order they complete. Used from one thread.
package protocol HTTPTransfers: AnyObject {
    /// Starts a request (with at most `HTTPTransfersLimit.slots` in flight).
    func start(_ request: HTTPRequest, tag: Int)
    /// The next completed request, waiting at most `seconds` for one (nil: until one completes);
    /// nil when none completed in that time, or none is in flight (after waiting out `seconds`).
    func next(waitingAtMost seconds: Double?) -> HTTPCompletion?
    /// Requests started and not yet collected.
    var inFlight: Int { get }
}

package enum HTTPTransfersLimit {
    /// Requests one `HTTPTransfers` keeps in flight at most.
    package static let slots = 8
}

/// `HTTPTransfers` one at a time: each request is sent when it is collected. Waiting with
/// nothing in flight is `pause`'s (the clock is the system's: FocusSystem's `sleepSeconds`).
package final class SerialTransfers: HTTPTransfers {
    private let send: (HTTPRequest) throws(FocusError) -> HTTPResponse
    private let pause: (Double) -> Void
    private var waiting: [(request: HTTPRequest, tag: Int)] = []

    package init(send: @escaping (HTTPRequest) throws(FocusError) -> HTTPResponse, pause: @escaping (Double) -> Void) {
        self.send = send
        self.pause = pause
    }

    package func start(_ request: HTTPRequest, tag: Int) { waiting.append((request, tag)) }

    package var inFlight: Int { waiting.count }

    package func next(waitingAtMost seconds: Double?) -> HTTPCompletion? {
        guard !waiting.isEmpty else {
            if let seconds, seconds > 0 { pause(seconds) }
            return nil
        }
        let (request, tag) = waiting.removeFirst()
        do throws(FocusError) {
            return HTTPCompletion(tag: tag, result: .success(try send(request)))
        } catch {
            return HTTPCompletion(tag: tag, result: .failure(error))
        }
    }
}

extension HTTPClient {
    /// The request as a GET (a feed fetch).
    package func get(_ request: HTTPRequest) throws(FocusError) -> HTTPResponse {
        var request = request
        request.method = "GET"
        request.body = nil
        return try send(request)
    }
}
