/// The one-line warnings a person sees when desktop notifications cannot be used.
package enum DesktopFailure {
    /// `desktop notifications unavailable (REASON); using FALLBACK`, without the `focus: `
    /// prefix the console adds.
    package static func warning(reason: String, fallbackLabel: String) -> String {
        "desktop notifications unavailable (\(reason)); using \(fallbackLabel)"
    }

    /// The reason given when the server did not answer in time.
    package static func timeoutReason(milliseconds: Int) -> String {
        let span = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
        return "the notification server did not answer within \(span)"
    }

    /// A short reason from a GLib/GDBus error message: the common cases in plain words,
    /// otherwise the message on one line without its `GDBus.Error:<name>: ` prefix,
    /// cut at 160 characters. (GLib's messages are English here: `focus` never calls
    /// `setlocale`, so gettext stays in the C locale; D-Bus error names are never translated.)
    package static func reason(fromGLibMessage message: String) -> String {
        let line = NotificationText.singleLine(message)
        if line.contains("org.freedesktop.DBus.Error.ServiceUnknown")
            || line.contains("org.freedesktop.DBus.Error.NameHasNoOwner") {
            return "no notification server on the D-Bus session bus"
        }
        if line.contains("org.freedesktop.DBus.Error.NoReply")
            || line.contains("org.freedesktop.DBus.Error.Timeout")
            || line.contains("Timeout was reached") {
            return "the notification server did not answer"
        }
        if line.hasPrefix("Could not connect") || line.hasPrefix("Error connecting"),
           let separator = line.firstRange(of: ": ") {
            let detail = String(line[separator.upperBound...])
            return "cannot connect to the D-Bus session bus: \(lowercasingFirst(detail))"
        }
        var text = Substring(line)
        if text.hasPrefix("GDBus.Error:"), let separator = text.firstRange(of: ": ") {
            text = text[separator.upperBound...]
        }
        let cleaned = text.isEmpty ? "unknown error" : String(text)
        return cleaned.count > 160 ? String(cleaned.prefix(159)) + "…" : cleaned
    }

    private static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
