import FocusNotifications
import Testing

@Suite struct DesktopFailureTests {
    @Test(arguments: [
        (
            "GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.Notifications was not provided by any .service files",
            "no notification server on the D-Bus session bus"
        ),
        ("GDBus.Error:org.freedesktop.DBus.Error.NoReply: Did not receive a reply", "the notification server did not answer"),
        ("Timeout was reached", "the notification server did not answer"),
        ("Could not connect: No such file or directory", "cannot connect to the D-Bus session bus: no such file or directory"),
        ("Could not connect to 127.0.0.1: Connection refused", "cannot connect to the D-Bus session bus: connection refused"),
        ("GDBus.Error:org.example.Error.Odd: Something odd\nhappened", "Something odd happened"),
        ("Address element “garbage” does not contain a colon (:)", "Address element “garbage” does not contain a colon (:)"),
        ("", "unknown error"),
    ])
    func glibErrorsBecomeShortReasons(message: String, reason: String) {
        #expect(DesktopFailure.reason(fromGLibMessage: message) == reason)
    }

    @Test func longMessagesAreCut() {
        let reason = DesktopFailure.reason(fromGLibMessage: String(repeating: "x", count: 300))
        #expect(reason == String(repeating: "x", count: 159) + "…")
    }

    @Test(arguments: [(1000, "1 s"), (2000, "2 s"), (1500, "1500 ms"), (250, "250 ms")])
    func timeoutReasonNamesTheWait(milliseconds: Int, span: String) {
        #expect(DesktopFailure.timeoutReason(milliseconds: milliseconds) == "the notification server did not answer within \(span)")
    }

    @Test func warningIsOneLine() {
        #expect(
            DesktopFailure.warning(reason: "no D-Bus session bus", fallbackLabel: "the terminal bell")
                == "desktop notifications unavailable (no D-Bus session bus); using the terminal bell"
        )
    }
}
