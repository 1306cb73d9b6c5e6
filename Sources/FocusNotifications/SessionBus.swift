import FoundationEssentials
import Glibc

/// Whether this process can have a D-Bus session bus at all, decided without touching
/// GLib — so GIO never tries to autolaunch a bus — and in the same way GIO finds one.
package enum SessionBus {
    /// A short reason when there is certainly no session bus: `DBUS_SESSION_BUS_ADDRESS`
    /// unset (or empty) and no socket at `$XDG_RUNTIME_DIR/bus`. Nil when one may be there;
    /// a set address that turns out to be unreachable is found out by connecting.
    package static func missingReason(
        environment: [String: String],
        isSocket: (String) -> Bool = SessionBus.isSocket(atPath:)
    ) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return nil }
        if let runtimeDirectory = environment["XDG_RUNTIME_DIR"], runtimeDirectory.hasPrefix("/"),
           isSocket(runtimeDirectory + "/bus") {
            return nil
        }
        return "no D-Bus session bus"
    }

    /// Whether `path` names a Unix domain socket.
    package static func isSocket(atPath path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFSOCK
    }
}
