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

    /// How to name this program in a hint (`See \`focus log\``): `focus` when the `focus` the
    /// PATH finds is this binary, else the path it was started by (`.build/release/focus` from
    /// `make start`, before it is installed), so that the hint runs as printed.
    package static func commandName(environment: [String: String]) -> String {
        let invoked = CommandLine.arguments.first ?? "focus"
        guard invoked.contains("/") else { return "focus" }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? invoked
        for dir in (environment["PATH"] ?? "").split(separator: ":") where !dir.isEmpty {
            let candidate = Paths.join(String(dir), "focus")
            guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            let real = (try? FileManager.default.destinationOfSymbolicLink(atPath: candidate)).map {
                $0.hasPrefix("/") ? $0 : Paths.join(String(dir), $0)
            } ?? candidate
            return Paths.normalized(real) == Paths.normalized(exe) || candidate == exe ? "focus" : invoked
        }
        return invoked
    }
}
