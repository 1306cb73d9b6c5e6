// scripts/torture/fuzz compiles this file into one module with FocusCore's sources (the default
// `writes` of the CalDAV client it fuzzes).
#if canImport(FocusCore)
import FocusCore
#endif
import Glibc

/// Sleeps the calling thread (nanosleep(2), resumed after a signal): a `Retry-After` with
/// nothing in flight.
package func sleepSeconds(_ seconds: Double) {
    guard seconds > 0 else { return }
    var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
    var left = timespec()
    while nanosleep(&time, &left) != 0, errno == EINTR { time = left }
}

extension HTTPClient {
    /// Requests one at a time, each sent when collected (a client with nothing better).
    package func transfers() -> any HTTPTransfers { SerialTransfers(send: send, pause: sleepSeconds) }
}

extension CalDAVClient {
    /// Writes to send together; by default one at a time, each sent when collected.
    package func writes(_ endpoint: CalDAVEndpoint) -> any RemoteWrites {
        SerialRemoteWrites(client: self, endpoint: endpoint, pause: sleepSeconds)
    }
}
