import FocusCore
import Foundation
import Synchronization

/// An `HTTPClient` that answers each request with what `answer` returns for it, and records
/// every request it got, in order.
package final class ScriptedHTTPClient: HTTPClient {
    private let answer: @Sendable (HTTPRequest) throws(FocusError) -> HTTPResponse
    private let recorded = Mutex<[HTTPRequest]>([])

    package init(_ answer: @escaping @Sendable (HTTPRequest) throws(FocusError) -> HTTPResponse) {
        self.answer = answer
    }

    package var requests: [HTTPRequest] { recorded.withLock { $0 } }

    package func send(_ request: HTTPRequest) throws(FocusError) -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        return try answer(request)
    }
}
