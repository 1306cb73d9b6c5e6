import FocusNotifications
import Testing

@Suite struct SessionBusTests {
    @Test func noAddressAndNoRuntimeSocketMeansNoBus() {
        #expect(SessionBus.missingReason(environment: [:], isSocket: { _ in true }) == "no D-Bus session bus")
        #expect(SessionBus.missingReason(environment: ["DBUS_SESSION_BUS_ADDRESS": ""], isSocket: { _ in false }) == "no D-Bus session bus")
    }

    @Test func anAddressMayBeABus() {
        let environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"]
        #expect(SessionBus.missingReason(environment: environment, isSocket: { _ in false }) == nil)
    }

    @Test func theRuntimeDirectorySocketIsABus() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(SessionBus.missingReason(environment: environment, isSocket: { $0 == "/run/user/1000/bus" }) == nil)
        #expect(SessionBus.missingReason(environment: environment, isSocket: { _ in false }) == "no D-Bus session bus")
    }

    @Test func aRelativeRuntimeDirectoryIsIgnored() {
        #expect(SessionBus.missingReason(environment: ["XDG_RUNTIME_DIR": "run"], isSocket: { _ in true }) == "no D-Bus session bus")
    }

    @Test func aRegularFileIsNotASocket() {
        #expect(SessionBus.isSocket(atPath: "/etc/hostname") == false)
        #expect(SessionBus.isSocket(atPath: "/nonexistent/bus") == false)
    }
}
