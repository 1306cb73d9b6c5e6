import FocusCore
import Foundation
import Synchronization

/// A console that keeps what was written, for assertions.
package final class RecordingConsole: Console, @unchecked Sendable {
    private let lock = NSLock()
    private var _out = ""
    private var _err = ""
    package let isInteractive: Bool
    package let allowsColor: Bool
    package let width: Int

    package init(isInteractive: Bool = false, allowsColor: Bool = false, width: Int = 80) {
        self.isInteractive = isInteractive
        self.allowsColor = allowsColor
        self.width = width
    }

    package func out(_ text: String) { lock.withLock { _out += text } }
    package func err(_ text: String) { lock.withLock { _err += text } }

    package var stdout: String { lock.withLock { _out } }
    package var stderr: String { lock.withLock { _err } }
}

/// A notifier that keeps every notice it was given.
package final class RecordingNotifier: Notifier, @unchecked Sendable {
    private let lock = NSLock()
    private var _notices: [Notice] = []
    package init() {}
    package func post(_ notice: Notice) async { lock.withLock { _notices.append(notice) } }
    package var notices: [Notice] { lock.withLock { _notices } }
}
