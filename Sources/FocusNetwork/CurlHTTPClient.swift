import FocusSystem
import FocusText
import CLibCurl
import FocusCore
import FoundationEssentials

/// `HTTPClient` over libcurl, loaded with dlopen on the first request (README: no other
/// command pays for the HTTP stack). TLS peers are verified against the system's CA store (or
/// the request's `caFile`); `https_proxy`, `http_proxy` and `no_proxy` are read from the
/// environment by libcurl itself. A redirect is followed at most `maximumRedirects` times and
/// never from https to http.
package struct CurlHTTPClient: HTTPClient {
    /// Overrides both timeouts, in milliseconds (tests of a server that never answers).
    private let timeoutOverrideMilliseconds: Int?

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        timeoutOverrideMilliseconds = environment["FOCUS_HTTP_TIMEOUT_MS"].flatMap(Int.init).map { max(1, min($0, 600_000)) }
    }

    /// Loaded once per process. `FOCUS_LIBCURL` names another library file (tests of a
    /// machine without libcurl).
    private nonisolated(unsafe) static let library: (api: FocusCurl, failure: String?) = {
        var api = FocusCurl()
        let name = ProcessInfo.processInfo.environment["FOCUS_LIBCURL"].flatMap { $0.isEmpty ? nil : $0 }
        let failure = withOptionalCString(name) { focus_curl_load(&api, $0) }.map { String(cString: $0) }
        return (api, failure)
    }()

    package func send(_ request: HTTPRequest) throws(FocusError) -> HTTPResponse {
        let (api, failure) = Self.library
        if let failure { throw Self.missing(failure) }
        var result = FocusCurlResult()
        withTransfer(request) { transfer in
            var api = api
            focus_curl_send(&api, transfer, &result)
        }
        defer { focus_curl_result_free(&result) }
        return try answer(result, to: request).get()
    }

    /// Several requests at once over libcurl's multi interface (one at a time when the
    /// library has none).
    package func transfers() -> any HTTPTransfers {
        let (api, failure) = Self.library
        if failure == nil, let set = withUnsafePointer(to: api, { focus_curl_multi_new($0) }) {
            return CurlTransfers(client: self, api: api, set: set)
        }
        return SerialTransfers(send: send, pause: sleepSeconds)
    }

    static func missing(_ failure: String) -> FocusError {
        .unavailable("calendars over the network need libcurl, and \(failure). Install it (Debian: apt-get install libcurl4).")
    }

    static var api: FocusCurl { library.api }

    /// The request as libcurl's options, valid inside `body` only.
    func withTransfer(_ request: HTTPRequest, _ body: (UnsafePointer<FocusCurlRequest>) -> Void) {
        let https = request.url.lowercased().hasPrefix("https:")
        // One line per header: a line break inside a value (an entity tag read from a hostile
        // server's XML) would start a header of its own.
        let headerText = request.headers.map { Self.oneLine("\($0.name): \($0.value)") }.joined(separator: "\n")
        let (connectMs, totalMs) = limits(request)
        let method = request.method.uppercased() == "GET" && request.body == nil ? nil : request.method
        let user = request.user
        let password = request.user == nil ? nil : request.password
        // A C string of the body (NUL-terminated for libcurl's sake; its length is given).
        let sentBody = request.body.map { Array($0) + [0] }
        withOptionalCString(request.url) { url in
            withOptionalCString(headerText) { headers in
                withOptionalCString(request.caFile) { ca in
                    withOptionalCString(method) { method in
                        withOptionalCString(user) { user in
                            withOptionalCString(password) { password in
                                withOptionalCString(https ? "https" : "http,https") { protocols in
                                    withOptionalCString(Self.userAgent(request)) { agent in
                                        withOptionalBytes(sentBody) { bodyPointer in
                                            var transfer = FocusCurlRequest(
                                                url: url, method: method, headers: headers, body: bodyPointer,
                                                body_length: max(0, (sentBody?.count ?? 1) - 1), user: user, password: password,
                                                ca_file: ca, protocols: protocols, redirect_protocols: protocols,
                                                connect_ms: connectMs, total_ms: totalMs, max_redirects: request.maximumRedirects,
                                                follow_redirects: request.followRedirects ? 1 : 0, digest: request.digest ? 1 : 0, max_bytes: request.maximumBytes,
                                                user_agent: agent)
                                            body(&transfer)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The connect and whole-request limits in milliseconds.
    func limits(_ request: HTTPRequest) -> (connect: Int, total: Int) {
        (timeoutOverrideMilliseconds ?? request.connectTimeoutSeconds * 1000, timeoutOverrideMilliseconds ?? request.totalTimeoutSeconds * 1000)
    }

    /// The response a finished transfer brought, or why there is none.
    func answer(_ result: FocusCurlResult, to request: HTTPRequest) -> Result<HTTPResponse, FocusError> {
        let message = withUnsafeBytes(of: result.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }.replacing("\n", with: " ").trimmingSpaces()
        let code = Int(result.code)
        if code != 0 {
            return .failure(Self.failure(code: code, message: message, shown: CalendarFeed.shownAddress(request.url),
                                         bodyOverflow: result.body.overflow != 0, request: request, totalMs: limits(request).total))
        }
        let body = result.body.data.map { Data(bytes: $0, count: result.body.length) } ?? Data()
        let headerLines = result.headers.data.map { String(decoding: Data(bytes: $0, count: result.headers.length), as: UTF8.self) } ?? ""
        return .success(HTTPResponse(status: result.status, headers: Self.headers(headerLines), body: body))
    }

    package static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// A feed fetch says so; a CalDAV request says it is one.
    static func userAgent(_ request: HTTPRequest) -> String {
        request.method == "GET" && request.user == nil ? "focus (calendar feed)" : "focus (CalDAV)"
    }

    /// `Name: value` lines of one response (its status line skipped).
    static func headers(_ text: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("HTTP/") else { continue }
            headers[line[..<colon].trimmingSpaces().lowercased()] = line[line.index(after: colon)...].trimmingSpaces()
        }
        return headers
    }

    static func failure(code: Int, message: String, shown: String, bodyOverflow: Bool, request: HTTPRequest, totalMs: Int) -> FocusError {
        switch Int32(code) {
        case Int32(FOCUS_CURLE_WRITE_ERROR) where bodyOverflow, Int32(FOCUS_CURLE_FILESIZE_EXCEEDED):
            return .badInput(file: shown, line: nil, reason: "the feed is larger than \(request.maximumBytes >> 20) MB, the most focus reads from one calendar.")
        case 3:  // CURLE_URL_MALFORMAT
            return .invalidValue(what: "calendar address", value: shown, expected: "an address libcurl can read (\(message))")
        case Int32(FOCUS_CURLE_COULDNT_RESOLVE_HOST):
            return .unavailable("could not find the host of \(shown) (offline, or a typing error in the address).")
        case Int32(FOCUS_CURLE_COULDNT_RESOLVE_PROXY):
            return .unavailable("could not find the proxy named by https_proxy/http_proxy (\(message)).")
        case Int32(FOCUS_CURLE_COULDNT_CONNECT):
            return .unavailable("could not connect to \(shown) (offline, or the server is down: \(message)).")
        case Int32(FOCUS_CURLE_OPERATION_TIMEDOUT):
            return .unavailable("\(shown) did not answer in time (connect limit \(request.connectTimeoutSeconds) s, whole request \(totalMs / 1000) s).")
        case Int32(FOCUS_CURLE_TOO_MANY_REDIRECTS):
            return .unavailable("\(shown) redirected more than \(request.maximumRedirects) times.")
        case Int32(FOCUS_CURLE_UNSUPPORTED_PROTOCOL):
            return .unavailable("\(shown) redirected to an address focus does not follow (never from https down to http): \(message).")
        case Int32(FOCUS_CURLE_SSL_CONNECT_ERROR), Int32(FOCUS_CURLE_PEER_FAILED_VERIFICATION), Int32(FOCUS_CURLE_SSL_CERTPROBLEM),
             Int32(FOCUS_CURLE_SSL_CACERT_BADFILE):
            let hint = request.caFile == nil ? " For a calendar server with a private certificate authority, pass --ca-file PATH." : ""
            return .unavailable("the TLS connection to \(shown) failed: \(message).\(hint)")
        case Int32(FOCUS_CURLE_GOT_NOTHING), Int32(FOCUS_CURLE_RECV_ERROR):
            return .unavailable("\(shown) closed the connection without a complete answer (\(message)).")
        default:
            return .unavailable("fetching \(shown) failed: \(message.isEmpty ? "libcurl error \(code)" : message).")
        }
    }
}

private func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let bytes else { return body(nil) }
    return bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress) }
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
