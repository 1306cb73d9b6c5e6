import CLibCurl
import FocusCore
import FocusSystem
import FoundationEssentials

/// `HTTPTransfers` over libcurl's multi interface (curl_multi_add_handle, curl_multi_perform,
/// curl_multi_poll, curl_multi_info_read): up to `HTTPTransfersLimit.slots` requests in flight,
/// one easy handle per slot, each kept for the slot's next request so that its connection is
/// reused. Each answer is judged as `CurlHTTPClient.send` judges it.
final class CurlTransfers: HTTPTransfers {
    private let client: CurlHTTPClient
    private var api: FocusCurl
    private let set: UnsafeMutablePointer<FocusCurlMulti>
    /// The request and tag of each busy slot.
    private var started: [Int: (request: HTTPRequest, tag: Int)] = [:]

    init(client: CurlHTTPClient, api: FocusCurl, set: UnsafeMutablePointer<FocusCurlMulti>) {
        self.client = client
        self.api = api
        self.set = set
    }

    deinit { focus_curl_multi_free(&api, set) }

    var inFlight: Int { started.count }

    func start(_ request: HTTPRequest, tag: Int) {
        guard let slot = (0..<Int(FOCUS_CURL_SLOTS)).first(where: { started[$0] == nil }) else {
            preconditionFailure("more than \(FOCUS_CURL_SLOTS) requests in flight")
        }
        started[slot] = (request, tag)
        client.withTransfer(request) { transfer in
            focus_curl_multi_start(&api, set, Int32(slot), transfer)
        }
    }

    func next(waitingAtMost seconds: Double?) -> HTTPCompletion? {
        guard !started.isEmpty else {
            if let seconds, seconds > 0 { sleepSeconds(seconds) }
            return nil
        }
        let timeout = seconds.map { max(0, Int(($0 * 1000).rounded(.up))) } ?? -1
        let slot = Int(focus_curl_multi_wait(&api, set, timeout))
        guard slot >= 0, let (request, tag) = started.removeValue(forKey: slot) else { return nil }
        let result = withUnsafeMutablePointer(to: &set.pointee.slots) { slots in
            slots.withMemoryRebound(to: FocusCurlSlot.self, capacity: Int(FOCUS_CURL_SLOTS)) { client.answer($0[slot].result, to: request) }
        }
        focus_curl_multi_collect(set, Int32(slot))
        return HTTPCompletion(tag: tag, result: result)
    }
}
