import Synchronization

/// Keeps every warning line.
final class WarningLog: Sendable {
    private let lines = Mutex<[String]>([])
    var record: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }
    var all: [String] { lines.withLock { $0 } }
}
