import FocusCore

/// A `Notice` as it is handed to the desktop notification server: cleaned summary,
/// escaped body, the urgency after the user's settings, and the expiry in the
/// notification specification's terms.
package struct DesktopNotice: Sendable, Equatable {
    /// `expire_timeout` of the Desktop Notifications Specification: the server decides
    /// (libnotify's `NOTIFY_EXPIRES_DEFAULT`).
    package static let expiresByServerDefault: Int32 = -1
    /// `expire_timeout` of the specification: stays until dismissed (`NOTIFY_EXPIRES_NEVER`).
    package static let expiresNever: Int32 = 0

    /// Plain text on one line (the specification's summary is not markup).
    package var summary: String
    /// Body markup: the notice's body with line breaks kept and `&`, `<`, `>` escaped.
    package var body: String
    /// A file path (or icon name) the server may show; nil for none.
    package var iconPath: String?
    package var urgency: Notice.Urgency
    /// Milliseconds, `expiresByServerDefault` or `expiresNever`.
    package var timeoutMilliseconds: Int32

    /// - Parameters:
    ///   - criticalWorkEnd: the user's setting that a finished work session is critical,
    ///     so it stays on screen until dismissed.
    ///   - defaultExpiryMilliseconds: the user's expiry for notices that name none;
    ///     nil or not positive leaves it to the server.
    package init(_ notice: Notice, iconPath: String?, criticalWorkEnd: Bool, defaultExpiryMilliseconds: Int?) {
        summary = NotificationText.singleLine(notice.summary)
        body = NotificationText.escapingMarkup(NotificationText.multiLine(notice.body))
        self.iconPath = iconPath.flatMap { $0.isEmpty ? nil : $0 }
        urgency = criticalWorkEnd && notice.kind == .workCompleted ? .critical : notice.urgency
        timeoutMilliseconds = Self.timeout(
            urgency: urgency,
            requested: notice.expiresAfterMilliseconds,
            default: defaultExpiryMilliseconds
        )
    }

    /// Critical notices never expire (the specification asks servers not to expire them
    /// either); otherwise the notice's own positive expiry, else the user's positive default,
    /// else the server's default. Values beyond `Int32.max` are clamped.
    package static func timeout(urgency: Notice.Urgency, requested: Int?, default fallback: Int?) -> Int32 {
        if urgency == .critical { return expiresNever }
        if let requested, requested > 0 { return Int32(clamping: requested) }
        if let fallback, fallback > 0 { return Int32(clamping: fallback) }
        return expiresByServerDefault
    }
}
