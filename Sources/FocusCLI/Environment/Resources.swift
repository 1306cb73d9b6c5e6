import FocusText
import FoundationEssentials

/// Files focus ships beside its binary: in a checkout `data/`, installed `$PREFIX/share/focus/`.
package enum Resources {
    /// The directory holding the shipped data files, if one can be found.
    package static func dataDirectory() -> String? {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let bin = Paths.directory(of: exe)
        let candidates = [
            Paths.join(bin, "../share/focus"),
            // .build/<config>/focus or .build/<triple>/<config>/focus in a checkout.
            Paths.join(bin, "../../data"),
            Paths.join(bin, "../../../data"),
        ]
        return candidates.map { Paths.normalized($0) }.first {
            FileManager.default.fileExists(atPath: Paths.join($0, "focus.svg"))
        }
    }

    package static func iconPath() -> String? {
        guard let dir = dataDirectory() else { return nil }
        let png = Paths.join(dir, "focus.png")
        return FileManager.default.fileExists(atPath: png) ? png : Paths.join(dir, "focus.svg")
    }
}
