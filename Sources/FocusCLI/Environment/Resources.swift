import FocusText
import FoundationEssentials

/// Files focus ships beside its binary: in a checkout `data/`; installed, the icon where the icon
/// theme specification puts an application's icon (`$PREFIX/share/icons/hicolor/…/apps/`).
package enum Resources {
    /// The notification icon, if one can be found: the installed PNG (or SVG), else the
    /// checkout's `data/focus.png`.
    package static func iconPath() -> String? {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let bin = Paths.directory(of: exe)
        let candidates = [
            Paths.join(bin, "../share/icons/hicolor/128x128/apps/focus.png"),
            Paths.join(bin, "../share/icons/hicolor/scalable/apps/focus.svg"),
            // .build/<config>/focus or .build/<triple>/<config>/focus in a checkout.
            Paths.join(bin, "../../data/focus.png"),
            Paths.join(bin, "../../../data/focus.png"),
        ]
        return candidates.map { Paths.normalized($0) }.first { FileManager.default.fileExists(atPath: $0) }
    }
}
