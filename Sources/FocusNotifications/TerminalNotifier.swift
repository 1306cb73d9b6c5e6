import FocusCore

/// Shows notices in the terminal: the bell (when `bell` is on) and one line
/// `🔔 <summary> — <body>` on standard error. The fallback when desktop notifications
/// cannot be used.
package struct TerminalNotifier: Notifier {
    private let console: any Console
    private let bell: Bool

    package init(console: any Console, bell: Bool) {
        self.console = console
        self.bell = bell
    }

    package func post(_ notice: Notice) async {
        console.err(Self.message(for: notice, bell: bell))
    }

    /// The text written for a notice: `\u{07}` first when `bell`, then summary and body on
    /// one line with control characters removed, ending in a line feed. An empty body
    /// leaves out the dash; an empty summary shows the body alone.
    package static func message(for notice: Notice, bell: Bool) -> String {
        let summary = NotificationText.singleLine(notice.summary)
        let body = NotificationText.singleLine(notice.body)
        let text = switch (summary.isEmpty, body.isEmpty) {
        case (false, false): "\(summary) — \(body)"
        case (false, true): summary
        case (true, _): body
        }
        return (bell ? "\u{07}" : "") + "🔔 " + text + "\n"
    }
}
