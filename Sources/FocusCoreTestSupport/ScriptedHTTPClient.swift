import FocusCore
import FocusSystem
import Foundation

/// An `HTTPClient` that answers each request with what `answer` returns for it, and records
/// every request it got, in order.
package final class ScriptedHTTPClient: HTTPClient, @unchecked Sendable {
    private let answer: @Sendable (HTTPRequest) throws(FocusError) -> HTTPResponse
    private let lock = NSLock()
    private var recorded: [HTTPRequest] = []

    package init(_ answer: @escaping @Sendable (HTTPRequest) throws(FocusError) -> HTTPResponse) {
        self.answer = answer
    }

    package var requests: [HTTPRequest] { lock.withLock { recorded } }

    package func send(_ request: HTTPRequest) throws(FocusError) -> HTTPResponse {
        lock.withLock { recorded.append(request) }
        return try answer(request)
    }
}
