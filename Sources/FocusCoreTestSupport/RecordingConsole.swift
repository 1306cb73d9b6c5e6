import FocusCore
import Synchronization

/// A console that keeps what was written, for assertions.
package final class RecordingConsole: Console {
    private let written = Mutex<(out: String, err: String)>(("", ""))
    package let isInteractive: Bool
    package let allowsColor: Bool
    private let columns: Mutex<Int>
    /// The terminal's width; a test may narrow or widen it between two draws.
    package var width: Int {
        get { columns.withLock { $0 } }
        set { columns.withLock { $0 = newValue } }
    }

    package init(isInteractive: Bool = false, allowsColor: Bool = false, width: Int = 80) {
        self.isInteractive = isInteractive
        self.allowsColor = allowsColor
        self.columns = Mutex(width)
    }

    package func out(_ text: String) { written.withLock { $0.out += text } }
    package func err(_ text: String) { written.withLock { $0.err += text } }

    package var stdout: String { written.withLock { $0.out } }
    package var stderr: String { written.withLock { $0.err } }
}

/// A notifier that keeps every notice it was given.
package final class RecordingNotifier: Notifier {
    private let posted = Mutex<[Notice]>([])
    package init() {}
    package func post(_ notice: Notice) async { posted.withLock { $0.append(notice) } }
    package var notices: [Notice] { posted.withLock { $0 } }
}

/// A hook runner that keeps every call it was given, payloads rendered as one-line JSON.
package final class RecordingHookRunner: HookRunner {
    private let calls = Mutex<[(HookEvent, JSON)]>([])
    package init() {}
    package func run(_ event: HookEvent, payload: JSON) async { calls.withLock { $0.append((event, payload)) } }
    package var events: [HookEvent] { calls.withLock { $0.map(\.0) } }
    package var payloads: [JSON] { calls.withLock { $0.map(\.1) } }
}
