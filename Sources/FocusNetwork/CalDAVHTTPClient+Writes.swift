import FocusCore
import FoundationEssentials

extension CalDAVHTTPClient {
    /// PUTs and DELETEs several at once over the HTTP client's `transfers()`, each answered as
    /// `put` and `delete` answer (the same origin rule, redirects and Digest login).
    package func writes(_ endpoint: CalDAVEndpoint) -> any RemoteWrites {
        CalDAVWrites(client: self, endpoint: endpoint)
    }
}

/// The writes of one `CalDAVHTTPClient.writes`: a request answered with a redirect or a
/// Digest challenge is sent again under the same tag, as `send` does for one request.
final class CalDAVWrites: RemoteWrites {
    private let client: CalDAVHTTPClient
    private let endpoint: CalDAVEndpoint
    private let transfers: any HTTPTransfers
    /// Each tag's write, the request now in flight for it, and the redirects followed.
    private var writing: [Int: (method: String, request: HTTPRequest, redirects: Int)] = [:]
    /// Completions known before any request went out (a write to another origin).
    private var refused: [RemoteWriteCompletion] = []

    init(client: CalDAVHTTPClient, endpoint: CalDAVEndpoint) {
        self.client = client
        self.endpoint = endpoint
        transfers = client.http.transfers()
    }

    var inFlight: Int { writing.count + refused.count }

    func start(_ write: RemoteWriteRequest, tag: Int) {
        let (method, url, ifMatch, body): (String, String, String?, Data?)
        switch write {
        case let .put(target, ics, condition): (method, url, ifMatch, body) = ("PUT", target, condition, ics)
        case let .delete(target, condition): (method, url, ifMatch, body) = ("DELETE", target, condition, nil)
        }
        let condition = method == "DELETE" ? ifMatch.map { [HTTPHeader("If-Match", $0)] } ?? []
            : [ifMatch.map { HTTPHeader("If-Match", $0) } ?? HTTPHeader("If-None-Match", "*")]
        do throws(FocusError) {
            let current = try CalendarFeed.address(url, insecure: endpoint.insecure)
            guard CalDAVHTTPClient.originKey(current) == CalDAVHTTPClient.originKey(endpoint.url) else {
                throw CalDAVHTTPClient.writeElsewhere(method, current, endpoint)
            }
            let request = CalDAVHTTPClient.request(method, current, body: body, contentType: "text/calendar; charset=utf-8",
                                                   headers: condition, endpoint)
            writing[tag] = (method, request, 0)
            transfers.start(request, tag: tag)
        } catch {
            refused.append(RemoteWriteCompletion(tag: tag, result: .failure(error)))
        }
    }

    func next(waitingAtMost seconds: Double?) -> RemoteWriteCompletion? {
        if !refused.isEmpty { return refused.removeFirst() }
        while let completion = transfers.next(waitingAtMost: seconds) {
            if let done = judge(completion) { return done }
        }
        return nil
    }

    /// The write's completion, or nil when its request was sent again (a redirect, a Digest
    /// challenge).
    private func judge(_ completion: HTTPCompletion) -> RemoteWriteCompletion? {
        let tag = completion.tag
        guard let (method, sent, sentRedirects) = writing.removeValue(forKey: tag) else { return nil }
        var (request, redirects) = (sent, sentRedirects)
        do throws(FocusError) {
            let response = try completion.result.get()
            if response.status == 401, request.user != nil, !request.digest,
               (response.headers["www-authenticate"] ?? "").lowercased().hasPrefix("digest") {
                request.digest = true
                return again(tag, method, request, redirects)
            }
            if [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["location"], !location.isEmpty {
                redirects += 1
                guard redirects <= request.maximumRedirects else {
                    throw .unavailable("\(CalendarFeed.shownAddress(request.url)) redirected more than \(request.maximumRedirects) times.")
                }
                let next = try CalDAVHTTPClient.redirect(from: request.url, to: location)
                guard CalDAVHTTPClient.originKey(next) == CalDAVHTTPClient.originKey(endpoint.url) else {
                    throw CalDAVHTTPClient.writeElsewhere(method, next, endpoint)
                }
                request.url = next
                return again(tag, method, request, redirects)
            }
            let pushBack = [429, 503].contains(response.status) ? response.status : nil
            do throws(FocusError) {
                return RemoteWriteCompletion(tag: tag, result: .success(try client.written(response, url: request.url, method: method, endpoint)))
            } catch {
                return RemoteWriteCompletion(tag: tag, result: .failure(error), pushBack: pushBack, retryAfter: response.headers["retry-after"])
            }
        } catch {
            return RemoteWriteCompletion(tag: tag, result: .failure(error))
        }
    }

    private func again(_ tag: Int, _ method: String, _ request: HTTPRequest, _ redirects: Int) -> RemoteWriteCompletion? {
        writing[tag] = (method, request, redirects)
        transfers.start(request, tag: tag)
        return nil
    }
}
