import FocusCoreTestSupport
import FocusCore
import FocusNotifications
import Foundation
import Testing

/// These tests reach libnotify and GLib, which read `DBUS_SESSION_BUS_ADDRESS` from the
/// process environment: they run one at a time, point it at a socket that does not exist
/// for their duration, and put the previous value back.
@Suite(.serialized) struct LibNotifyFallbackTests {
    static let missingSocketAddress = "unix:path=/nonexistent/focus-tests/bus"

    private func withUnreachableBus<T>(_ body: () async throws -> T) async rethrows -> T {
        let previous = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
        setenv("DBUS_SESSION_BUS_ADDRESS", Self.missingSocketAddress, 1)
        defer {
            if let previous { setenv("DBUS_SESSION_BUS_ADDRESS", previous, 1) } else { unsetenv("DBUS_SESSION_BUS_ADDRESS") }
        }
        return try await body()
    }

    @Test func unreachableBusFallsBackAndWarnsOnce() async {
        await withUnreachableBus {
            let fallback = RecordingNotifier()
            let warnings = WarningLog()
            let notifier = LibNotifyNotifier.make(
                iconPath: nil,
                criticalWorkEnd: false,
                expiryMilliseconds: nil,
                fallback: fallback,
                environment: ["DBUS_SESSION_BUS_ADDRESS": Self.missingSocketAddress],
                warn: warnings.record
            )
            let first = Notice(kind: .workCompleted, summary: "Work session complete", body: "R&D <draft>")
            let second = Notice(kind: .breakOver, summary: "Break over", body: "Back to work", urgency: .critical)
            await notifier.post(first)
            await notifier.post(second)
            #expect(fallback.notices == [first, second])
            #expect(warnings.all == [
                "desktop notifications unavailable (cannot connect to the D-Bus session bus: no such file or directory); using the terminal bell",
            ])
        }
    }

    @Test func noSessionBusFallsBackWithoutTryingDBus() async {
        let fallback = RecordingNotifier()
        let warnings = WarningLog()
        let notifier = LibNotifyNotifier.make(
            iconPath: nil,
            criticalWorkEnd: true,
            expiryMilliseconds: 5000,
            fallback: fallback,
            fallbackLabel: "terminal messages",
            environment: ["HOME": "/root"],
            warn: warnings.record
        )
        let notice = Notice(kind: .test, summary: "Test", body: "Hello")
        await notifier.post(notice)
        await notifier.post(notice)
        #expect(fallback.notices == [notice, notice])
        #expect(warnings.all == ["desktop notifications unavailable (no D-Bus session bus); using terminal messages"])
    }

    @Test func serverInfoIsNilWithoutAReachableServer() async {
        await withUnreachableBus {
            #expect(LibNotifyNotifier.serverInfo(timeoutMilliseconds: 1000) == nil)
        }
        #expect(LibNotifyNotifier.serverInfo(timeoutMilliseconds: 1000, environment: [:]) == nil)
    }
}
