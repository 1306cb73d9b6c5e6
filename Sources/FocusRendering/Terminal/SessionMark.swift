import FocusCore

/// The mark a listing gives a session's status: ✓ completed, ✗ interrupted, ↑ open (it counted up).
package enum SessionMark {
    package static func of(_ status: SessionStatus) -> String {
        switch status {
        case .completed: return "✓"
        case .interrupted: return "✗"
        case .open: return "↑"
        }
    }
}
